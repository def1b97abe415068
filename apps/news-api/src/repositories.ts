import { revocationLog } from '@lib/mongo';
import type { Connection } from 'mongoose';
import { sourceRepository } from './feeds/source.repository';
import { syncRunRepository } from './feeds/sync-run.repository';
import { apiKeyRepository } from './keys/api-key.repository';
import { KEYS_PER_USER } from './keys/api-key.schemas';
import { keyUsageRepository } from './keys/key-usage.repository';
import { articleRepository } from './news/article.repository';
import { userRepository } from './users/user.repository';

/**
 * The repositories of every collection: what services receive instead of a connection or a model
 * (a lint rule keeps models and the driver inside `*.repository.ts`). Making them registers each
 * model on the connection, so the start-up creates every collection's indexes (ensureIndexes)
 * before the first request. The revocation log is the database's feed of revocations that the
 * in-process caches follow.
 */
export function newsRepositories(connection: Connection) {
  return {
    users: userRepository(connection),
    articles: articleRepository(connection),
    sources: sourceRepository(connection),
    syncRuns: syncRunRepository(connection),
    apiKeys: apiKeyRepository(connection, KEYS_PER_USER),
    keyUsage: keyUsageRepository(connection),
    revocations: revocationLog(connection),
  };
}

export type NewsRepositories = ReturnType<typeof newsRepositories>;
