import { unauthorized } from '@lib/errors';
import type { RequestHandler } from 'express';
import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import type { UserDoc } from '../users/user.model';
import type { UserService } from '../users/user.service';
import { accessTokenOf } from './access-token';

const failed = () =>
  unauthorized('Authentication failed: send HTTP Basic credentials (email and password) and the master key as access_token', {
    'WWW-Authenticate': 'Basic realm="news", charset="UTF-8"',
  });

/**
 * POST /auth: HTTP Basic (email, password) and the master key as `access_token`, both required.
 * A failure never says which part was wrong, and the password is checked even when the master key
 * is wrong, so the answer takes as long either way.
 */
export function basicWithMasterKey(users: UserService, isMasterKey: (given: string | undefined) => boolean): RequestHandler {
  const passport = new Passport();
  passport.use(
    new BasicStrategy((email, password, done) => {
      users.authenticate(email, password).then((user) => done(null, user ?? false), done);
    }),
  );
  return (req, res, next) => {
    passport.authenticate('basic', { session: false }, (err: unknown, user: UserDoc | false) => {
      if (err) return next(err);
      if (!user || !isMasterKey(accessTokenOf(req))) return next(failed());
      req.user = user;
      next();
    })(req, res, next);
  };
}
