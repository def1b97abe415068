import { createHmac } from 'node:crypto';
import { errorObjectBody, unauthorized } from '@lib/errors';
import type { AuthScheme } from '@lib/routing';
import { bearerToken, bodyParsers, buildServiceApp, failedAttemptLimit, identityKey, secretMatcher, type ServiceDeps } from '@lib/http';
import { databaseReady, timeLimitsOf } from '@lib/mongo';
import { outboundPolicy, type OutboundPolicy } from '@lib/outbound';
import { keysetPager } from '@lib/paging';
import type { Request, RequestHandler } from 'express';
import { accessTokenOf } from './auth/access-token';
import { authRoutes } from './auth/auth.routes';
import { basicWithMasterKey } from './auth/basic-auth';
import { currentUser, jwtAuth } from './auth/jwt-auth';
import type { NewsUsers } from './define-route';
import { AUTH_LIMIT_NAME, DEFAULT_AUTH_LIMIT, type RateLimitSettings } from './auth/rate-limit';
import { DEFAULT_PASSWORD_QUEUE, passwordQueue, type PasswordQueueSettings } from './auth/password-queue';
import type { TokenSettings } from './auth/tokens';
import { companyRoutes } from './companies/company.routes';
import { errorBody, errorResponse } from './error-schema';
import { feedSync, type FeedSync } from './feeds/feed-sync';
import type { Publisher } from './feeds/feeds-config';
import type { FetchLimits } from './feeds/fetch-feed';
import { sourceRoutes } from './feeds/source.routes';
import { sourceService } from './feeds/source.service';
import { newsRoutes } from './news/news.routes';
import { newsService } from './news/news.service';
import { newsRepositories } from './repositories';
import { STORED_USER_MAX_AGE_MS, tokenUserCache } from './auth/token-user-cache';
import { apiKeyCache } from './keys/api-key-cache';
import { apiKeyRoutes } from './keys/api-key.routes';
import { apiKeyService } from './keys/api-key.service';
import { KEYS_PER_USER } from './keys/api-key.schemas';
import { DEFAULT_KEY_LIMITS, keyLimiter, type KeyLimits } from './keys/key-limits';
import { keyOrBearer } from './auth/key-auth';
import { userRoutes } from './users/user.routes';
import { userService } from './users/user.service';
import { VERSION, VERSION_HEADER, versionRoutes } from './version';

export { VERSION } from './version';

export interface NewsAppConfig extends ServiceDeps {
  masterKey: string;
  jwt: TokenSettings;
  /** Failed sign-in and master-key attempts allowed per identity and address (default DEFAULT_AUTH_LIMIT). */
  authLimit?: RateLimitSettings;
  /** Password hashes at once and waiting, per process (default DEFAULT_PASSWORD_QUEUE: 2 and 16). */
  passwordQueue?: PasswordQueueSettings;
  publishers: Publisher[];
  /** Time and size limits of one feed fetch (default 15 s, 5 MB) and its parse (10 s). */
  fetchLimits?: FetchLimits;
  /** What feed fetches may reach: public https only by default; FEED_ALLOWED_HOSTS adds deliberate internal feeds. */
  feedPolicy?: OutboundPolicy;
  /** The sync that POST /news/sync runs; main.ts shares it with the schedule. Made here if absent. */
  sync?: FeedSync;
  /** How long the user behind a token is cached (default TOKEN_USER_TTL_MS, 10 s). */
  tokenUserTtlMs?: number;
  /** How old a cached user the role checks and GET /users/me may use (default STORED_USER_MAX_AGE_MS, 1 s; 0 reads it on every such request). */
  storedUserMaxAgeMs?: number;
  /** What each API key may send (default DEFAULT_KEY_LIMITS: 1000 a day, 5 a second). */
  keyLimits?: KeyLimits;
}

/** Builds the news service without listening (and without starting the feed schedule). */
export function createApp(config: NewsAppConfig) {
  const { connection, logger, lifecycle } = config;
  // Cursors are signed with a key derived from the JWT secret: one secret less to configure.
  const cursorSecret = createHmac('sha256', config.jwt.secret).update('news-api page cursors').digest('hex');
  const pager = keysetPager(cursorSecret);
  const repositories = newsRepositories(connection);
  const tokenUsers = tokenUserCache(repositories.revocations, config.tokenUserTtlMs);
  const keyLimits = config.keyLimits ?? DEFAULT_KEY_LIMITS;
  const keys = apiKeyService({
    keys: repositories.apiKeys,
    usage: repositories.keyUsage,
    cache: apiKeyCache(repositories.revocations),
    userOf: (id) => tokenUsers.getOrLoad(id, () => repositories.users.byId(id)),
    keysPerUser: KEYS_PER_USER,
  });
  const users = userService({ users: repositories.users, tokenUsers, storedUserMaxAgeMs: config.storedUserMaxAgeMs ?? STORED_USER_MAX_AGE_MS, pager, passwords: passwordQueue(config.passwordQueue ?? DEFAULT_PASSWORD_QUEUE), keys });
  const jwt = jwtAuth(users, config.jwt);
  const isMasterKey = secretMatcher(config.masterKey);

  // Routes that read the master key or a token from the body parse it before checking it.
  const parseBody = bodyParsers({ limit: '16kb' });
  const limit = failedAttemptLimit(connection, AUTH_LIMIT_NAME, config.authLimit ?? DEFAULT_AUTH_LIMIT);
  const requireMasterKey: RequestHandler = (req, _res, next) =>
    // the master key travels like an RFC 6750 bearer token (an access_token field or parameter), hence a Bearer challenge
    next(isMasterKey(accessTokenOf(req)) ? undefined : unauthorized('The master key is missing or wrong: send it as access_token', { 'WWW-Authenticate': 'Bearer realm="news"' }));
  const [signedIn, adminRole] = jwt.requireRole('admin');
  const adminOrMasterKey: RequestHandler = (req, res, next) => {
    if (isMasterKey(bearerToken(req.headers)) || isMasterKey(accessTokenOf(req))) return next();
    signedIn(req, res, (err?: unknown) => (err ? next(err) : adminRole(req, res, next)));
  };
  const sync =
    config.sync ?? feedSync({ repositories, logger, publishers: config.publishers, policy: config.feedPolicy ?? outboundPolicy({ name: 'feeds' }), limits: config.fetchLimits });

  // Routes that check a secret from the body parse it first. A secret without a user name (the
  // master key, an admin's token) is its own identity: a stale key locks only itself out.
  const presentedSecret = (req: Request) => `secret:${identityKey(bearerToken(req.headers) || accessTokenOf(req) || '')}`;
  const limited = (check: RequestHandler) => [...parseBody, limit.guard(presentedSecret, check)];
  const signedOut = errorResponse('No token, or an expired, altered or unknown-user token');
  const notAdmin = errorResponse('Signed in without the admin role');
  const wrongSecret = errorResponse('Credentials, token or master key missing or wrong');
  const tooMany = errorResponse('Too many failed attempts of this identity (email or secret) from this address, or from this address in all (Retry-After)');
  const busy = errorResponse(
    'Starting, the database does not answer, other attempts of this identity or address still in flight after 5 s, or the password-hash queue full: try again after Retry-After',
  );
  const signedInUser = (req: Request) => ({ user: currentUser(req) });
  const signedOutOrBadKey = errorResponse('No token or API key, or a token or key that is not valid (expired, altered, revoked, of a deleted user)');
  const keyLimited = errorResponse(
    "The API key's daily quota or burst rate is used up (Retry-After; RateLimit-Policy and RateLimit say which). Requests with a token are not limited",
  );
  const auth: Record<keyof NewsUsers, AuthScheme> = {
    bearer: { before: [jwt.requireUser], security: ['bearer'], context: signedInUser, responses: { 401: signedOut } },
    'bearer-or-key': {
      before: [keyOrBearer(keys, keyLimiter(repositories.keyUsage, keyLimits), jwt.requireUser)],
      security: ['bearer', 'apiKey', 'apiKeyQuery'],
      context: signedInUser,
      responses: { 401: signedOutOrBadKey, 429: keyLimited },
    },
    'bearer-stored': { before: [jwt.requireStoredUser], security: ['bearer'], context: signedInUser, responses: { 401: signedOut } },
    'bearer-admin': { before: jwt.requireRole('admin'), security: ['bearer'], context: signedInUser, responses: { 401: signedOut, 403: notAdmin } },
    'master-key': { before: limited(requireMasterKey), security: ['masterKey'], responses: { 401: wrongSecret, 429: tooMany, 503: busy } },
    'basic-and-master-key': { before: [...parseBody, basicWithMasterKey(users, isMasterKey, limit)], security: [['basic', 'masterKey']], context: signedInUser, responses: { 401: wrongSecret, 429: tooMany, 503: busy } },
    'admin-or-master-key': { before: limited(adminOrMasterKey), security: ['bearer', 'masterKey'], context: (req) => ({ user: req.user as NewsUsers['admin-or-master-key']['user'] }), responses: { 401: wrongSecret, 403: notAdmin, 429: tooMany, 503: busy } },
  };

  return buildServiceApp({
    logger,
    lifecycle,
    requestBoundMs: timeLimitsOf(connection).requestBoundMs,
    auth,
    routes: [
      ...versionRoutes,
      ...authRoutes(config.jwt),
      ...userRoutes({ users }),
      ...apiKeyRoutes(keys, { dailyQuota: keyLimits.daily }),
      ...sourceRoutes(sourceService(repositories.sources, sync.publishers), { sync }),
      ...newsRoutes(newsService(repositories.articles, pager, cursorSecret), { sourceIds: config.publishers.map((p) => p.id) }),
      ...companyRoutes(),
    ],
    errorFormat: errorObjectBody,
    isReady: () => databaseReady(connection),
    bodyLimit: '16kb',
    responseHeaders: { [VERSION_HEADER]: VERSION },
    openapi: {
      title: 'News API',
      errorSchema: errorBody,
      version: VERSION,
      description: 'News about ASX-listed Australian companies from several publishers; users and JWT sign-in. See apps/news-api/README.md.',
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from POST /auth (also accepted as an access_token query or body field)' },
        basic: { type: 'http', scheme: 'basic', description: 'Email and password, plus the master key as the access_token form field' },
        masterKey: { type: 'apiKey', in: 'query', name: 'access_token', description: 'The master key (MASTER_KEY), as a query or body field' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'An API key from POST /users/me/keys (nk_…), on GET /news, GET /news/{id} and GET /companies: counted against its daily quota and burst rate' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'The same API key as a query parameter, as NewsAPI takes it (it ends up in proxy logs: prefer the header)' },
      },
    },
  });
}
