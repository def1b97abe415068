import { allowedHosts, outboundPolicy } from '@lib/outbound';
import { useServiceApp, withMore } from '@lib/testing';
import request from 'supertest';
import { createApp, type NewsAppConfig } from '../src/app';
import type { Publisher } from '../src/feeds/feeds-config';
import type { FetchLimits } from '../src/feeds/fetch-feed';
import { articleModel } from '../src/news/article.model';
import { sourceModel } from '../src/feeds/source.model';
import { userModel } from '../src/users/user.model';
import { startFeedServer, type FeedServer } from './feed-server';

export const MASTER_KEY = 'test-master-key-0123456789';
export const JWT_SECRET = 'test-jwt-secret-0123456789-0123456789';

export type TestOptions = Partial<Pick<NewsAppConfig, 'authLimit' | 'jwt' | 'tokenUserTtlMs' | 'storedUserMaxAgeMs' | 'passwordQueue' | 'keyLimits'>> & {
  /** The publishers, given the local fixture server that serves their feeds. */
  publishers?: (feeds: FeedServer) => Publisher[];
  fetchLimits?: FetchLimits;
  /** Record the driver's commands (for logCommands from @lib/testing). */
  monitorCommands?: boolean;
};

/** The feed fixture server's loopback address allow-listed, as FEED_ALLOWED_HOSTS=127.0.0.1 does. */
export const TEST_FEED_POLICY = outboundPolicy({ name: 'feeds', allowed: allowedHosts('127.0.0.1', 'FEED_ALLOWED_HOSTS') });

/** Publishers used when a test file names none (their feeds are never fetched). */
export const TEST_PUBLISHERS: Publisher[] = [
  { id: 'abc-news', name: 'ABC News', feeds: ['http://127.0.0.1:9/abc.xml'] },
  { id: 'guardian-au', name: 'The Guardian Australia', feeds: ['http://127.0.0.1:9/guardian.atom'] },
];

/**
 * A news app on this test file's own database, emptied before each test, with a local feed
 * server (started before the app, closed after the file) when the file configures publishers.
 */
export function setupNewsApp(options: TestOptions = {}) {
  let feeds: FeedServer | undefined;
  if (options.publishers) {
    beforeAll(async () => {
      feeds = await startFeedServer();
    });
    afterAll(() => feeds?.close());
  }
  const service = useServiceApp((deps) =>
    createApp({
      ...deps,
      masterKey: MASTER_KEY,
      jwt: options.jwt ?? { secret: JWT_SECRET, expiresInSeconds: 3600 },
      authLimit: options.authLimit,
      tokenUserTtlMs: options.tokenUserTtlMs,
      // The database is emptied before each test and hands out user id 1 again: a user cached by the
      // previous test would answer the role checks for the new one. Read on every such request here,
      // unless a test file measures the production age (token-user-cache.spec, round-trips.spec).
      storedUserMaxAgeMs: options.storedUserMaxAgeMs ?? 0,
      passwordQueue: options.passwordQueue,
      keyLimits: options.keyLimits,
      publishers: feeds && options.publishers ? options.publishers(feeds) : TEST_PUBLISHERS,
      fetchLimits: options.fetchLimits ?? { timeoutMs: 2_000, maxBytes: 256 * 1024 },
      feedPolicy: TEST_FEED_POLICY,
    }),
    { monitorCommands: options.monitorCommands, models: { Article: articleModel, Source: sourceModel, User: userModel } },
  );
  const ctx = withMore(service, {
    get feeds() {
      if (!feeds) throw new Error('this test file configured no publishers');
      return feeds;
    },
    /** Creates a user through POST /users. */
    async createUser(email: string, password = 'password-123', role?: 'user' | 'admin') {
      const res = await request(service.app).post('/users').send({ email, password, access_token: MASTER_KEY, ...(role && { role }) });
      if (res.status !== 201) throw new Error(`createUser ${email}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: number; email: string; role: string };
    },
    /** Signs in through POST /auth and returns the token. */
    async signIn(email: string, password = 'password-123') {
      const res = await request(service.app).post('/auth').auth(email, password).send({ access_token: MASTER_KEY });
      if (res.status !== 201) throw new Error(`signIn ${email}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
    /** A new user of the role, signed in: its token. */
    async tokenFor(role: 'user' | 'admin' = 'user', email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`) {
      await ctx.createUser(email, 'password-123', role);
      return ctx.signIn(email);
    },
  });
  return ctx;
}
