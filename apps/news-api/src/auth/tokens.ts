import jwt from 'jsonwebtoken';

export const JWT_ALGORITHM = 'HS256';
export const JWT_ISSUER = 'news-api';

export interface TokenSettings {
  secret: string;
  expiresInSeconds: number;
}

/** A signed token naming the user (`sub`), with an expiry and a pinned algorithm. */
export function signToken(settings: TokenSettings, userId: number): string {
  return jwt.sign({}, settings.secret, {
    algorithm: JWT_ALGORITHM,
    expiresIn: settings.expiresInSeconds,
    issuer: JWT_ISSUER,
    subject: String(userId),
  });
}
