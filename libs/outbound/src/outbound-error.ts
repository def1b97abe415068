/**
 * Why an outbound request gave no answer:
 * - `refused`: the guard would not send it (plain http, a non-public address, an https → http
 *   redirect, credentials in the URL);
 * - `bad_url`: not an absolute http(s) URL, or a redirect to one that is not;
 * - `too_many_redirects`: more redirects than the caller follows;
 * - `unresolvable`: the host name has no address;
 * - `unreachable`: no connection, TLS failed, or the connection broke mid-answer;
 * - `timeout`: no complete answer within the time limit;
 * - `aborted`: the caller's signal stopped it (shutdown).
 */
export type OutboundFailure = 'refused' | 'bad_url' | 'too_many_redirects' | 'unresolvable' | 'unreachable' | 'timeout' | 'aborted';

/**
 * An outbound request that gave no answer. The message is safe to show to whoever configured the
 * URL: it names the host and the kind of address, never the address a name resolved to (that is in
 * `address`, for the server log only) and never a stack.
 */
export class OutboundError extends Error {
  override name = 'OutboundError';

  /** For a refusal, the rule that refused it (a metric label): `plain_http`, `redirect_to_http`, `credentials_in_url`, or the kind of address (`private`, `loopback`, `cloud_metadata`, …). */
  readonly rule?: string;
  /** The address that was refused, for the service's own log. */
  readonly address?: string;

  constructor(
    readonly failure: OutboundFailure,
    message: string,
    details: { rule?: string; address?: string } = {},
  ) {
    super(message);
    this.rule = details.rule;
    this.address = details.address;
  }
}

export const isRefusal = (err: unknown): err is OutboundError => err instanceof OutboundError && err.failure === 'refused';
