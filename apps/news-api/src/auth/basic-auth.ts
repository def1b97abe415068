import { unauthorized } from '@lib/errors';
import { answerByOf, type FailedAttemptLimit } from '@lib/http';
import type { Request, RequestHandler } from 'express';
import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import type { UserDoc } from '../users/user.model';
import { emailKey, type UserService } from '../users/user.service';
import { accessTokenOf } from './access-token';

const failed = () =>
  unauthorized('Authentication failed: send HTTP Basic credentials (email and password) and the master key as access_token', {
    'WWW-Authenticate': 'Basic realm="news", charset="UTF-8"',
  });

/**
 * POST /auth: HTTP Basic (email, password) and the master key as `access_token`, both required.
 * One attempt of the email from the client address (`limit`): a locked email is refused (429)
 * before anything is checked. The master key is checked first and a wrong one costs no password
 * hash; an unknown email costs one as a wrong password does. A failure never says which part was
 * wrong (the answer to a wrong master key is faster, which tells only that the master key was
 * wrong: POST /users tells as much).
 */
export function basicWithMasterKey(users: UserService, isMasterKey: (given: string | undefined) => boolean, limit: FailedAttemptLimit): RequestHandler {
  const passport = new Passport();
  passport.use(
    new BasicStrategy({ passReqToCallback: true }, (req: Request, email: string, password: string, done: (err: unknown, user?: UserDoc | false) => void) => {
      const check = async () => (isMasterKey(accessTokenOf(req)) ? users.authenticate(email, password) : null);
      limit.attempt(req.ip ?? 'unknown', emailKey(email), check, answerByOf(req)).then((user) => done(null, user ?? false), done);
    }),
  );
  return (req, res, next) => {
    passport.authenticate('basic', { session: false }, (err: unknown, user: UserDoc | false) => {
      if (err) return next(err);
      if (!user) return next(failed());
      req.user = user;
      next();
    })(req, res, next);
  };
}
