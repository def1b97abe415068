// main.ts' first import after own-source-maps (which loads no package): tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) must start before express and mongodb load.
import { startTracing } from '@lib/http/tracing';

startTracing('news-api');
