import { HttpError } from '@lib/errors';
import { counter } from '@lib/http';
import pLimit from 'p-limit';
import { hashPassword, verifyNothing, verifyPassword } from './passwords';

export interface PasswordQueueSettings {
  /** Password hashes computed at once by one process. */
  concurrent: number;
  /** Hashes waiting for their turn; a request that would wait behind more gets 503. */
  queue: number;
}

/**
 * Two hashes at once (about 0.2 s of CPU and 32 MiB each), sixteen more waiting: about 1.6 s
 * of queue at most, and the event loop and the rest of the CPU stay free for every other route.
 */
export const DEFAULT_PASSWORD_QUEUE: PasswordQueueSettings = { concurrent: 2, queue: 16 };

const hashes = counter('password_hashes_total', 'Password hashes (scrypt) computed: one per sign-up, sign-in or unknown-email sign-in');
const shed = counter('password_hashes_shed_total', 'Requests answered 503 because the password-hash queue was full');

/**
 * Every password hash of a process, through one bounded queue: `concurrent` at a time, `queue`
 * waiting, the next one refused with 503 and Retry-After (never waiting without bound, never
 * starving the other routes).
 */
export function passwordQueue({ concurrent, queue }: PasswordQueueSettings) {
  const limit = pLimit(concurrent);
  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (limit.activeCount + limit.pendingCount >= concurrent + queue) {
      shed.inc();
      throw new HttpError(503, 'overloaded', 'The service is busy checking passwords; try again shortly', { headers: { 'Retry-After': '1' } });
    }
    return limit(() => {
      hashes.inc();
      return work();
    });
  }
  return {
    hash: (password: string) => run(() => hashPassword(password)),
    verify: (password: string, stored: string) => run(() => verifyPassword(password, stored)),
    /** The time of one verification for an email nobody has. */
    verifyNothing: (password: string) => run(() => verifyNothing(password)),
  };
}

export type PasswordQueue = ReturnType<typeof passwordQueue>;
