import { DEFAULT_FAILED_ATTEMPTS, type FailedAttemptSettings } from '@lib/http';

export type RateLimitSettings = FailedAttemptSettings;

/**
 * Failed sign-ins and master-key attempts per client address, counted in MongoDB across every
 * replica (see failedAttemptLimit in @lib/http): POST /auth, POST /users and POST /news/sync share it.
 */
export const DEFAULT_AUTH_LIMIT: RateLimitSettings = DEFAULT_FAILED_ATTEMPTS;

/** The name of the limit's counters in the failed_attempts collection. */
export const AUTH_LIMIT_NAME = 'news-auth';
