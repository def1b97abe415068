import { runOptionsFromConfig, type RunServiceOptions } from '@lib/http';
import { outboundPolicy } from '@lib/outbound';
import { devDefaultsWarnings } from '@lib/validation';
import { createApp } from './app';
import type { NewsConfig } from './config';
import { feedSync, type FeedSync } from './feeds/feed-sync';
import { newsRepositories } from './repositories';
import { scheduleSync, type SyncSchedule } from './feeds/sync-schedule';

/** How `main.ts` runs news-api (start-up tests run the same). */
export function newsService(config: NewsConfig): RunServiceOptions {
  let sync: FeedSync | undefined;
  let schedule: SyncSchedule | undefined;
  const feedPolicy = outboundPolicy({ name: 'feeds', allowed: config.feedAllowedHosts });
  return {
    ...runOptionsFromConfig('news-api', config),
    warnings: devDefaultsWarnings(config.defaultsUsed),
    createApp: (deps) => {
      sync = feedSync({ repositories: newsRepositories(deps.connection), logger: deps.logger, publishers: config.publishers, policy: feedPolicy, leaseMs: config.syncLeaseSeconds * 1000 });
      return createApp({ ...deps, masterKey: config.masterKey, jwt: config.jwt, publishers: config.publishers, feedPolicy, sync, keyLimits: config.keyLimits });
    },
    prepare: async ({ logger, lifecycle }) => {
      const { names, blocks } = config.feedAllowedHosts;
      const allowed = names.length + blocks.length ? `; also reaching FEED_ALLOWED_HOSTS ${[...names, ...blocks].join(', ')}` : '';
      logger.info(`feeds: ${config.publishers.length} publishers; sync ${config.syncIntervalSeconds ? `every ${config.syncIntervalSeconds} s` : 'on demand only (NEWS_SYNC_INTERVAL=0)'}${allowed}`);
      if (sync && config.syncIntervalSeconds > 0) schedule = scheduleSync(sync, { intervalMs: config.syncIntervalSeconds * 1000, logger, lifecycle });
    },
    beforeClose: async () => {
      await schedule?.stop();
      await sync?.stop();
    },
  };
}
