import { forbidden, unauthorized } from '@lib/errors';
import type { Request, RequestHandler } from 'express';
import { Passport } from 'passport';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import type { Role, UserDoc } from '../users/user.model';
import type { UserService } from '../users/user.service';
import { JWT_ALGORITHM, JWT_ISSUER, signingKey, type TokenSettings } from './tokens';

const challenge = (error?: string) => ({ 'WWW-Authenticate': error ? `Bearer realm="news", error="${error}"` : 'Bearer realm="news"' });

/** Why passport-jwt refused a request, as our 401. Nothing says whether the signature or the user was wrong. */
function refusal(req: Request, info: unknown) {
  const name = (info as { name?: string } | undefined)?.name;
  if (name === 'TokenExpiredError') return unauthorized('The token has expired; get a new one from POST /auth', challenge('invalid_token'));
  const presented = bearerPresent(req) || 'access_token' in (req.query as object) || typeof (req.body as { access_token?: unknown })?.access_token === 'string';
  if (!presented) return unauthorized('Sign in: send the token from POST /auth as Authorization: Bearer <token>', challenge());
  return unauthorized('The token is not valid', challenge('invalid_token'));
}

const bearerPresent = (req: Request) => typeof req.headers.authorization === 'string' && /^Bearer /i.test(req.headers.authorization);

export interface JwtAuth {
  /** Any signed-in user. */
  requireUser: RequestHandler;
  /** A signed-in user with one of the roles (403 otherwise). */
  requireRole(...roles: Role[]): RequestHandler[];
}

/**
 * Tokens from POST /auth, presented as `Authorization: Bearer`, or as an `access_token` query or
 * body field. HS256 only, issuer and expiry checked, and the user must still exist.
 */
export function jwtAuth(users: UserService, settings: TokenSettings): JwtAuth {
  const passport = new Passport();
  passport.use(
    new JwtStrategy(
      {
        jwtFromRequest: ExtractJwt.fromExtractors([
          ExtractJwt.fromAuthHeaderAsBearerToken(),
          ExtractJwt.fromUrlQueryParameter('access_token'),
          ExtractJwt.fromBodyField('access_token'),
        ]),
        // passport-jwt hands the key to jsonwebtoken as it is; its types predate KeyObject keys
        secretOrKey: signingKey(settings) as unknown as Buffer,
        algorithms: [JWT_ALGORITHM],
        issuer: JWT_ISSUER,
      },
      (payload: { sub?: unknown }, done: (err: unknown, user?: UserDoc | false) => void) => {
        const id = typeof payload.sub === 'string' && /^[1-9]\d{0,15}$/.test(payload.sub) ? Number(payload.sub) : undefined;
        if (id === undefined) return done(null, false);
        users.findById(id).then((user) => done(null, user ?? false), done);
      },
    ),
  );

  const requireUser: RequestHandler = (req, res, next) => {
    passport.authenticate('jwt', { session: false }, (err: unknown, user: UserDoc | false, info: unknown) => {
      if (err) return next(err);
      if (!user) return next(refusal(req, info));
      req.user = user;
      next();
    })(req, res, next);
  };

  return {
    requireUser,
    requireRole: (...roles) => [
      requireUser,
      (req, _res, next) => next(roles.includes(currentUser(req).role) ? undefined : forbidden(`This needs the role ${roles.join(' or ')}`)),
    ],
  };
}

/** The signed-in user of a protected route. */
export function currentUser(req: Request): UserDoc {
  const user = req.user as UserDoc | undefined;
  if (!user) throw unauthorized('Authentication required', challenge());
  return user;
}
