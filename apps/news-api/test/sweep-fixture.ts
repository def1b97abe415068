import { nextSequence } from '@lib/mongo';
import jwt from 'jsonwebtoken';
import type { Connection } from 'mongoose';
import { hashPassword } from '../src/auth/passwords';
import { signToken } from '../src/auth/tokens';
import { articleModel } from '../src/news/article.model';
import { userModel, type Role } from '../src/users/user.model';
import { JWT_SECRET } from './setup-app';
import { indexed } from './stored-articles';

export const PASSWORD = 'password-123';
const SETTINGS = { secret: JWT_SECRET, expiresInSeconds: 3600 };

// one scrypt hash for every stored test user (each hash costs about 0.2 s)
let hash: Promise<string> | undefined;

export interface StoredUser {
  id: number;
  email: string;
  token: string;
  /** `Authorization: Bearer <token>` */
  bearer: Record<string, string>;
}

/** Stores a user (id from the users counter, like POST /users) and signs a token for it, without the slow sign-in. */
export async function storeUser(connection: Connection, email: string, role: Role = 'user'): Promise<StoredUser> {
  hash ??= hashPassword(PASSWORD);
  const id = await nextSequence(connection, 'users');
  await userModel(connection).create({ _id: id, email, password_hash: await hash, role });
  const token = signToken(SETTINGS, id);
  return { id, email, token, bearer: { Authorization: `Bearer ${token}` } };
}

/** Tokens that must be refused: expired, altered, foreign, wrong algorithm, none at all. */
export function badTokens(userId: number): Record<string, string> {
  const claims = { algorithm: 'HS256' as const, issuer: 'news-api', subject: String(userId) };
  const valid = jwt.sign({}, JWT_SECRET, { ...claims, expiresIn: 60 });
  const [header, payload, signature] = valid.split('.');
  const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: String(userId + 1000) })).toString('base64url');
  return {
    expired: jwt.sign({ iat: Math.floor(Date.now() / 1000) - 120 }, JWT_SECRET, { ...claims, expiresIn: 60 }),
    tampered: [header, altered, signature].join('.'),
    foreignSecret: jwt.sign({}, 'another-secret-0123456789-0123456789', { ...claims, expiresIn: 60 }),
    hs512: jwt.sign({}, JWT_SECRET, { ...claims, algorithm: 'HS512', expiresIn: 60 }),
    none: jwt.sign({ sub: String(userId), iss: 'news-api' }, '', { algorithm: 'none' }),
    garbage: 'not.a.token',
  };
}

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 3));

/** A few articles (ids 1–n) for the news routes to find. */
export async function storeArticles(connection: Connection, n = 4): Promise<void> {
  const companies = [['BHP'], ['CBA', 'WBC'], ['BHP', 'FMG'], []];
  await articleModel(connection).insertMany(
    Array.from({ length: n }, (_, i) => indexed({
      _id: i + 1,
      url: `https://news.example/${i + 1}`,
      title: `Iron ore story ${i + 1}`,
      summary: 'Shipments rose.',
      source: i % 2 ? 'guardian-au' : 'abc-news',
      source_name: i % 2 ? 'The Guardian Australia' : 'ABC News',
      published_at: at(10 + i),
      companies: companies[i % companies.length],
      fetched_at: at(20),
    })),
  );
}
