import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { startTracing, type Tracing } from '@lib/http/tracing';
import { eventually, testWrites, useWebhookEngine } from './engine';
import { startReceiver, type Receiver } from './receiver';

const ACCOUNT = 61;

describe('a delivery is traced as a child of the request that made the change', () => {
  const engine = useWebhookEngine();
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing | undefined;
  let receiver: Receiver;
  beforeAll(async () => {
    tracing = startTracing('crm-api-test', { exporter, instrument: false });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await tracing?.shutdown();
  });

  it('records the trace context of the writing request and delivers in a span whose parent it is', async () => {
    const webhooks = engine.build();
    await webhooks.service.create(engine.store(ACCOUNT), { url: receiver.url(), events: ['contact.created'] });
    const request = trace.getTracer('test').startSpan('POST /dev/api/contacts');
    await context.with(trace.setSpan(context.active(), request), () => testWrites(engine.connection, webhooks.recorder).create(ACCOUNT, 1, 'traced'));
    request.end();
    const [delivery] = await engine.deliveries();
    expect(delivery.trace?.traceparent).toBe(`00-${request.spanContext().traceId}-${request.spanContext().spanId}-01`);
    webhooks.worker.start();
    await receiver.waitFor(1);
    await eventually(async () => (await engine.deliveries())[0].state === 'delivered');
    await tracing?.flush();
    const span = await eventually(async () => exporter.getFinishedSpans().find((s) => s.name === 'webhook.deliver'));
    expect(span.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(span.attributes).toMatchObject({ 'webhook.event': 'contact.created', 'webhook.delivery': delivery._id, 'webhook.attempt': 1, 'webhook.result': '2xx', 'http.response.status_code': 200 });
  });
});
