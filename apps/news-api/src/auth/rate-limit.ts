import { DEFAULT_FAILED_ATTEMPTS, type FailedAttemptSettings } from '@lib/http';

export type RateLimitSettings = FailedAttemptSettings;

/**
 * Failed sign-ins and master-key attempts, counted in MongoDB across every replica (see
 * failedAttemptLimit in @lib/http) per identity and client address, and per address: POST /auth
 * counts by email, POST /users and POST /news/sync by the secret presented (the master key or a
 * token); the three share the address's count.
 */
export const DEFAULT_AUTH_LIMIT: RateLimitSettings = DEFAULT_FAILED_ATTEMPTS;

/** The name of the limit's counters in the failed_attempts collection. */
export const AUTH_LIMIT_NAME = 'news-auth';
