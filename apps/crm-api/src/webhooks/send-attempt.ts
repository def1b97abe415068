import { guardedRequest, OutboundError } from '@lib/outbound';
import type { DeliveryAttempt, DeliveryDoc } from './webhook-delivery.model';
import type { DeliverySettings } from './webhook-settings';
import { retryAfterMs } from './retry-schedule';
import { signedHeaders } from './signature';

export const USER_AGENT = 'crm-api-webhooks/1';

/**
 * What one attempt came to: `delivered` (2xx), `gone` (410: the webhook is to be disabled),
 * `failed` (any other status, 3xx included since redirects are not followed, or no answer).
 */
export interface AttemptResult {
  outcome: 'delivered' | 'gone' | 'failed';
  attempt: DeliveryAttempt;
  /** The metric label: `2xx`, `3xx`, `4xx`, `5xx`, `410`, or the guard's failure (`timeout`, `refused`, `unreachable`, …). */
  result: string;
  /** For the log and the disabled reason: `HTTP 500`, or the guard's message. */
  summary: string;
  /** A 429's or 503's Retry-After, in milliseconds. */
  retryAfterMs?: number;
}

type AttemptLimits = Pick<DeliverySettings, 'policy' | 'timeoutMs' | 'maxResponseBytes' | 'storedResponseBytes'>;

/**
 * Sends a delivery once: POSTs its body, signed with every secret given, through the outbound guard
 * (https, public addresses unless allow-listed, checked again at connect; no redirects; the time
 * and byte limits). Never throws for the receiver's sake: every failure is a result.
 */
export async function sendAttempt(delivery: Pick<DeliveryDoc, 'event_id' | 'body'>, url: string, secrets: readonly string[], limits: AttemptLimits, signal?: AbortSignal): Promise<AttemptResult> {
  const at = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...signedHeaders(secrets, delivery.event_id, Math.floor(at.getTime() / 1000), delivery.body),
  };
  try {
    const res = await guardedRequest(url, { policy: limits.policy, method: 'POST', headers, body: delivery.body, timeoutMs: limits.timeoutMs, maxBytes: limits.maxResponseBytes, maxRedirects: 0, signal });
    const response = res.body.bytes.subarray(0, limits.storedResponseBytes).toString('utf8');
    const attempt: DeliveryAttempt = { at, status: res.status, duration_ms: res.durationMs, response, error: null };
    const summary = `HTTP ${res.status}`;
    if (res.status >= 200 && res.status < 300) return { outcome: 'delivered', attempt, result: '2xx', summary };
    if (res.status === 410) return { outcome: 'gone', attempt, result: '410', summary };
    const retryAfter = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers['retry-after'], Date.now()) : undefined;
    return { outcome: 'failed', attempt, result: `${Math.floor(res.status / 100)}xx`, summary, retryAfterMs: retryAfter };
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    const attempt: DeliveryAttempt = { at, status: null, duration_ms: Date.now() - at.getTime(), response: '', error: err.message };
    return { outcome: 'failed', attempt, result: err.failure, summary: err.message };
  }
}
