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
 * Decodes a JWT's payload (without verifying it: the server does that). Rejects a token that is not
 * a string, lacks its payload part, or whose payload is not valid base64url-encoded JSON.
 */
export function decodeToken(token: unknown): TokenUser {
  if (typeof token !== 'string') throw new InvalidTokenError('not a string');
  const payload = token.split('.')[1];
  if (!payload) throw new InvalidTokenError('no payload part');
  let json: string;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidTokenError('payload is not base64url');
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(json);
  } catch {
    throw new InvalidTokenError('payload is not JSON');
  }
  if (!decoded || typeof decoded !== 'object' || Array.isArray(decoded)) throw new InvalidTokenError('payload is not an object');
  return decoded as TokenUser;
}

/** Whether the token's expiry (seconds) is in the past, compared as milliseconds against now. */
export function isExpired(user: TokenUser, now = Date.now()): boolean {
  return typeof user.exp === 'number' && user.exp * 1000 < now;
}
