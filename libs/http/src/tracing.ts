import type { IncomingMessage } from 'node:http';
import type * as Api from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as Core from '@opentelemetry/core';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Instrumentation from '@opentelemetry/instrumentation';
import type * as ExpressInstrumentation from '@opentelemetry/instrumentation-express';
import type * as HttpInstrumentation from '@opentelemetry/instrumentation-http';
import type * as MongoDbInstrumentation from '@opentelemetry/instrumentation-mongodb';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import { isProbeTarget } from '@lib/services';
import { TRACE_ID } from './trace-id';

/**
 * OpenTelemetry tracing (HTTP server and client, Express, MongoDB), exported over OTLP/HTTP to
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (with OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER_ARG and the
 * exporter's own OTEL_EXPORTER_OTLP_* variables such as OTEL_EXPORTER_OTLP_HEADERS). Without that variable nothing of OpenTelemetry is loaded and
 * requests pay nothing. Each app's `src/tracing.ts` calls startTracing, and is its main.ts' first
 * import: instrumentation hooks `require`, so it must run before express, http and mongodb are
 * loaded (the bundles keep node_modules external, so those are still required from node_modules).
 * Import this file as `@lib/http/tracing`, never through `@lib/http` (that loads express).
 */

export interface Tracing {
  /** Exports the spans still buffered and stops. */
  shutdown(): Promise<void>;
  /** Exports the spans buffered so far (tests read them at once). */
  flush(): Promise<void>;
}

export interface TracingOptions {
  env?: NodeJS.ProcessEnv;
  /** Where spans go instead of OTLP (tests). */
  exporter?: SdkTrace.SpanExporter;
  /** Hook http, express and mongodb (default); a test in a shared jest worker turns it off: the hooks would outlive it. */
  instrument?: boolean;
}

let running: Tracing | undefined;

/** The share of new traces kept, 0–1 (default 1, all): the standard OTEL_TRACES_SAMPLER_ARG; anything else is 1. */
export function sampleRatio(raw: string | undefined): number {
  const ratio = raw === undefined || raw.trim() === '' ? 1 : Number(raw);
  return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1;
}

// The probes and the scrape come every few seconds from the cluster: no trace for them.
const isInternal = (req: IncomingMessage) => isProbeTarget(req.url ?? '/');

/** Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (or an exporter is given); undefined, having loaded nothing, otherwise. */
export function startTracing(serviceName: string, { env = process.env, exporter, instrument = true }: TracingOptions = {}): Tracing | undefined {
  if (running) return running;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !exporter) return undefined;
  // required here, not imported: loaded only when tracing is on
  const { context, propagation, trace } = require('@opentelemetry/api') as typeof Api;
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof ContextAsyncHooks;
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof Core;
  const { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider } = require('@opentelemetry/sdk-trace') as typeof SdkTrace;
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof Resources;
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof Instrumentation;
  const { HttpInstrumentation: Http } = require('@opentelemetry/instrumentation-http') as typeof HttpInstrumentation;
  const { ExpressInstrumentation: Express } = require('@opentelemetry/instrumentation-express') as typeof ExpressInstrumentation;
  const { MongoDBInstrumentation: MongoDb } = require('@opentelemetry/instrumentation-mongodb') as typeof MongoDbInstrumentation;
  const spanExporter = exporter ?? new (require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp).OTLPTraceExporter();

  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName }),
    // a caller's sampling decision (traceparent) stands; traces started here: OTEL_TRACES_SAMPLER_ARG of them
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(sampleRatio(env.OTEL_TRACES_SAMPLER_ARG)) }),
    spanProcessors: [new BatchSpanProcessor({ exporter: spanExporter })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  if (instrument) registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new Http({
        ignoreIncomingRequestHook: isInternal,
        // the request's log line names its trace (see ./logger)
        requestHook: (span, request) => {
          if (!('setHeader' in request)) (request as { [TRACE_ID]?: string })[TRACE_ID] = span.spanContext().traceId;
        },
      }),
      new Express(),
      new MongoDb(),
    ],
  });
  running = {
    shutdown: async () => {
      await provider.shutdown();
      contextManager.disable();
    },
    flush: () => provider.forceFlush(),
  };
  return running;
}

/** Exports the spans still buffered, when tracing runs (on shutdown). */
export async function flushTracing(): Promise<void> {
  await running?.shutdown();
}

/** A trace context written as W3C headers (`traceparent`, `tracestate`), to be stored and continued later. */
export type TraceCarrier = Record<string, string>;

/** The current trace context (the request being served) as W3C headers; undefined when tracing is off or no span is active. */
export function traceCarrier(): TraceCarrier | undefined {
  if (!running) return undefined;
  const { context, propagation } = require('@opentelemetry/api') as typeof Api;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** What work done in a span may add to it. */
export interface SpanHandle {
  setAttributes(attributes: Record<string, string | number | boolean>): void;
  /** Marks the span failed, with a message (no stack). */
  fail(message: string): void;
}

const NO_SPAN: SpanHandle = { setAttributes: () => undefined, fail: () => undefined };

/**
 * Runs `work` in a span named `name`, a child of the trace context in `carrier` (stored when the
 * work was asked for, e.g. by the request whose change a webhook delivery reports), or a new trace
 * without one. Outgoing requests made inside are children of that span. Without tracing, `work`
 * runs as it is.
 */
export async function inChildSpan<T>(carrier: TraceCarrier | undefined, name: string, attributes: Record<string, string | number | boolean>, work: (span: SpanHandle) => Promise<T>): Promise<T> {
  if (!running) return work(NO_SPAN);
  const { context, propagation, trace, ROOT_CONTEXT, SpanStatusCode, SpanKind } = require('@opentelemetry/api') as typeof Api;
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  const span = trace.getTracer('crm-services').startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent);
  const handle: SpanHandle = {
    setAttributes: (more) => span.setAttributes(more),
    fail: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message }),
  };
  try {
    return await context.with(trace.setSpan(parent, span), () => work(handle));
  } catch (err) {
    handle.fail((err as Error).message);
    throw err;
  } finally {
    span.end();
  }
}
