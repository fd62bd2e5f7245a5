import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { AppError, unauthenticated } from '../../core/errors.js';
import type { User } from './user.entity.js';

export interface TokenClaims {
  sub: string;
  username: string;
  email: string;
  role: string;
  iat: number;
  exp: number;
  jti: string;
}

/** Signs and verifies the HS256 session tokens. */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(user: User): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = crypto.randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.ttlSeconds;
    const token = await new SignJWT({ username: user.username, email: user.email, role: user.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .setJti(jti)
      .sign(this.key);
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }

  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (!payload.sub || !payload.jti) throw unauthenticated('Invalid token');
      return payload as unknown as TokenClaims;
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw unauthenticated('Token expired');
      throw unauthenticated('Invalid token');
    }
  }
}

/** `JWT_SECRET` when set; otherwise a random secret generated once and kept in `DATA_DIR/jwt-secret`. */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
