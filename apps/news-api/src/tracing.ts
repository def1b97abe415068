// main.ts' first import: tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) must start before express and mongodb load.
import { startTracing } from '@lib/http/tracing';

startTracing('news-api');
