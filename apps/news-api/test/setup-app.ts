import { useServiceApp } from '@lib/http/testing';
import request from 'supertest';
import { createApp, type NewsAppConfig } from '../src/app';
import type { Publisher } from '../src/feeds/feeds-config';
import { userModel } from '../src/users/user.model';

export const MASTER_KEY = 'test-master-key-0123456789';
export const JWT_SECRET = 'test-jwt-secret-0123456789-0123456789';

export type TestOptions = Partial<Pick<NewsAppConfig, 'authLimit' | 'jwt'>> & { publishers?: () => Publisher[] };

/** A news app on this test file's own database, emptied before each test. */
export function setupNewsApp(options: TestOptions = {}) {
  const service = useServiceApp((deps) =>
    createApp({
      ...deps,
      masterKey: MASTER_KEY,
      jwt: options.jwt ?? { secret: JWT_SECRET, expiresInSeconds: 3600 },
      authLimit: options.authLimit,
    }),
  );
  const ctx = {
    get app() {
      return service.app;
    },
    get connection() {
      return service.connection;
    },
    get User() {
      return userModel(service.connection);
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
  };
  return ctx;
}
