/**
 * Where tracing (./tracing, when on) leaves the trace id of a request's server span on the request,
 * for its log line. A symbol in the global registry, so that the logger reads it without loading
 * any OpenTelemetry module.
 */
export const TRACE_ID = Symbol.for('crm-services.traceId');
