import { unauthorized } from '@lib/errors';
import { answerByOf, type FailedAttemptLimit } from '@lib/http';
import type { AuthScheme } from '@lib/routing';
import type { Request, RequestHandler } from 'express';
import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { AccountService } from '../accounts/account.service';
import { accountIdOf } from '../store/account-id';
import type { AccountStore, CrmStore } from '../store/crm-store';

const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="crm", charset="UTF-8"' };
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * HTTP Basic on every /dev/api route: user name = the user's email, password = that user's API key.
 * Anything else is a 401 with a challenge and the service's JSON error body. Reads may be answered
 * from the credential cache; a write checks the user in the database, so no write starts after a
 * key change, disable or deletion was acknowledged. Wrong credentials count against the email from
 * the client address and against the address (shared by all replicas): an email that used up its
 * failures gets 429 from that address, whatever key it brings, while other users there are served.
 */
export function basicAuth(accounts: AccountService, failures: FailedAttemptLimit): RequestHandler {
  // A credential this process verified recently (cached) is not a guess: it skips the failed-attempt limit.
  function verify(req: Request, email: string, apiKey: string): Promise<DomainUserDoc | null> {
    const check = () => accounts.authenticate(email, apiKey, { fresh: !READS.has(req.method) });
    return accounts.knowsCredential(email, apiKey) ? check() : failures.attempt(req.ip ?? 'unknown', email, check, answerByOf(req));
  }

  const passport = new Passport();
  passport.use(
    new BasicStrategy({ passReqToCallback: true }, (req: Request, email: string, apiKey: string, done: (err: unknown, user?: DomainUserDoc | false) => void) => {
      verify(req, email, apiKey).then((user) => done(null, user ?? false), done);
    }),
  );
  return (req, res, next) => {
    passport.authenticate('basic', { session: false }, (err: unknown, user: DomainUserDoc | false) => {
      if (err) return next(err);
      if (!user) {
        const message = req.headers.authorization ? 'The email or API key is wrong' : 'Authentication required: HTTP Basic with your email and API key';
        return next(unauthorized(message, CHALLENGE));
      }
      req.user = user;
      next();
    })(req, res, next);
  };
}

/** The authenticated caller of a /dev/api route. */
export function currentUser(req: Request): DomainUserDoc {
  const user = req.user as DomainUserDoc | undefined;
  if (!user) throw unauthorized('Authentication required', CHALLENGE);
  return user;
}

/** What a `basic` route's handler gets: the signed-in user, and the store of that user's account (made once per request). */
export interface BasicContext {
  user: DomainUserDoc;
  store: AccountStore;
}

/** The `basic` scheme: HTTP Basic (see basicAuth), then the caller and its account's store as the handler's context. */
export function basicScheme(auth: RequestHandler, store: CrmStore, responses: AuthScheme['responses']): AuthScheme<BasicContext> {
  return {
    before: [auth],
    security: ['basic'],
    context: (req) => {
      const user = currentUser(req);
      return { user, store: store.of(accountIdOf(user)) };
    },
    responses,
  };
}
