import { unauthorized } from '@lib/errors';
import type { Request, RequestHandler } from 'express';
import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import type { DomainUserDoc } from '../accounts/domain-user.model';
import type { AccountService } from '../accounts/account.service';

const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="crm", charset="UTF-8"' };
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * HTTP Basic on every /dev/api route: user name = the user's email, password = that user's API key.
 * Anything else is a 401 with a challenge and the service's JSON error body. Reads may be answered
 * from the credential cache; a write checks the user in the database, so no write starts after a
 * key change, disable or deletion was acknowledged.
 */
export function basicAuth(accounts: AccountService): RequestHandler {
  const passport = new Passport();
  passport.use(
    new BasicStrategy({ passReqToCallback: true }, (req: Request, email: string, apiKey: string, done: (err: unknown, user?: DomainUserDoc | false) => void) => {
      accounts.authenticate(email, apiKey, { fresh: !READS.has(req.method) }).then((user) => done(null, user ?? false), done);
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
