import type { Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import type { UserDoc } from '../users/user.model';
import type { UserService } from '../users/user.service';
import { jwtAuth, VERIFIED_TOKENS_MAX } from './jwt-auth';
import { signToken, type TokenSettings } from './tokens';

const settings: TokenSettings = { secret: 'a-test-secret-0123456789-0123456789', expiresInSeconds: 3600 };
const ana = { _id: 7, email: 'ana@example.com', role: 'user' } as UserDoc;
const stored = new Map<number, UserDoc>([[ana._id, ana]]);
const users = { tokenUser: async (id: number) => stored.get(id), storedUser: async (id: number) => stored.get(id) } as unknown as UserService;

/** What requireUser decides for a request carrying `token`: the user id, or the 401's message. */
function signedInAs(auth: ReturnType<typeof jwtAuth>, token: string): Promise<number | string> {
  const req = { headers: { authorization: `Bearer ${token}` }, query: {}, body: undefined } as unknown as Request;
  return new Promise((resolve) => auth.requireUser(req, {} as Response, (err?: unknown) => resolve(err ? (err as Error).message : (req.user as UserDoc)._id)));
}

describe('jwtAuth: tokens verified once per process, until they expire', () => {
  let verify: jest.SpyInstance;
  beforeEach(() => {
    verify = jest.spyOn(jwt, 'verify');
  });
  afterEach(() => {
    verify.mockRestore();
    jest.useRealTimers();
  });

  it('checks the signature of a token once; its user on every request', async () => {
    const auth = jwtAuth(users, settings);
    const token = signToken(settings, 7);
    for (let i = 0; i < 3; i++) expect(await signedInAs(auth, token)).toBe(7);
    expect(verify).toHaveBeenCalledTimes(1);
    stored.delete(7);
    try {
      expect(await signedInAs(auth, token)).toBe('The token is not valid');
    } finally {
      stored.set(ana._id, ana);
    }
  });

  it('never remembers a refused token', async () => {
    const auth = jwtAuth(users, settings);
    const forged = signToken({ ...settings, secret: 'another-secret-0123456789-0123456789' }, 7);
    for (let i = 0; i < 3; i++) expect(await signedInAs(auth, forged)).toBe('The token is not valid');
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('refuses a remembered token as expired from its exp on', async () => {
    const auth = jwtAuth(users, settings);
    const token = signToken(settings, 7);
    expect(await signedInAs(auth, token)).toBe(7);
    const { exp } = jwt.decode(token) as jwt.JwtPayload;
    jest.useFakeTimers({ now: exp! * 1000 - 1, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    expect(await signedInAs(auth, token)).toBe(7);
    jest.setSystemTime(exp! * 1000);
    expect(await signedInAs(auth, token)).toBe('The token has expired; get a new one from POST /auth');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it(`remembers at most ${VERIFIED_TOKENS_MAX} tokens, the least recently used dropped first`, async () => {
    const auth = jwtAuth(users, settings);
    const tokens = Array.from({ length: VERIFIED_TOKENS_MAX + 1 }, (_, i) => jwt.sign({ n: i }, settings.secret, { algorithm: 'HS256', issuer: 'news-api', subject: '7', expiresIn: 60 }));
    for (const token of tokens) await signedInAs(auth, token);
    verify.mockClear();
    await signedInAs(auth, tokens[VERIFIED_TOKENS_MAX]);
    expect(verify).toHaveBeenCalledTimes(0);
    await signedInAs(auth, tokens[0]);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
