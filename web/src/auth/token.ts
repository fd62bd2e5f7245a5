import { decodeJwt, errors } from 'jose';

/** The decoded token payload, stored whole as the signed-in user. */
export interface TokenUser {
  sub?: string;
  username?: string;
  email?: string;
  role?: string;
  /** Expiry, in seconds since the epoch. */
  exp?: number;
  iat?: number;
  jti?: string;
  [claim: string]: unknown;
}

export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(`Invalid token: ${reason}`);
    this.name = 'InvalidTokenError';
  }
}

/**
 * Decodes a JWT's payload with jose (without verifying it: the server does that). Rejects a token
 * that is not a string, lacks its payload part, or whose payload is not base64url-encoded JSON of
 * an object.
 */
export function decodeToken(token: unknown): TokenUser {
  if (typeof token !== 'string') throw new InvalidTokenError('not a string');
  if (!token.split('.')[1]) throw new InvalidTokenError('no payload part');
  try {
    return decodeJwt<TokenUser>(token);
  } catch (error) {
    const message = error instanceof errors.JOSEError ? error.message : '';
    if (/JSON/.test(message)) throw new InvalidTokenError('payload is not JSON');
    if (/Claims Set/i.test(message)) throw new InvalidTokenError('payload is not an object');
    throw new InvalidTokenError('payload is not base64url');
  }
}

/** Whether the token's expiry (seconds) is in the past, compared as milliseconds against now. */
export function isExpired(user: TokenUser, now = Date.now()): boolean {
  return typeof user.exp === 'number' && user.exp * 1000 < now;
}
