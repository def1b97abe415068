/** A publisher's feed could not be fetched or read; the message is safe to show in GET /sources. */
export class FeedError extends Error {
  override name = 'FeedError';

  /** `address`: the address the outbound guard refused, for the service log only (never in the message). */
  constructor(
    message: string,
    readonly address?: string,
  ) {
    super(message);
  }
}
