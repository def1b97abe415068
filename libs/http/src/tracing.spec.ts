import { sampleRatio, startTracing } from './tracing';

// What tracing does to a running app (spans of http, express and mongodb; nothing loaded when off)
// is tested on the bundled app: apps/articles-api/test/tracing.spec.ts.
describe('startTracing', () => {
  it('does nothing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(startTracing('test', { env: {} })).toBeUndefined();
    expect(startTracing('test', { env: { OTEL_EXPORTER_OTLP_ENDPOINT: '' } })).toBeUndefined();
  });
});

describe('sampleRatio (OTEL_TRACES_SAMPLER_ARG)', () => {
  it.each([
    [undefined, 1],
    ['', 1],
    ['0.1', 0.1],
    ['0', 0],
    ['1', 1],
    ['1.5', 1],
    ['-1', 1],
    ['often', 1],
  ])('%p keeps %p of new traces', (raw, ratio) => {
    expect(sampleRatio(raw)).toBe(ratio);
  });
});
