import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureSecret } from '../settings/index.js';
import type { EntityManager } from '@mikro-orm/postgresql';
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
  /** The remembered session the token was issued from ("Keep me signed in"), if any. */
  sid?: string;
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

  async issue(user: User, sid?: string): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = crypto.randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.ttlSeconds;
    const token = await new SignJWT({ username: user.username, email: user.email, role: user.role, ...(sid ? { sid } : {}) })
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

/** The setting row that holds the signing secret shared by every process of a shop on one database. */
export const JWT_SECRET_SETTING = 'jwtSecret';

/**
 * The token signing secret: `JWT_SECRET` when set; else, on an external database (`DATABASE_URL`),
 * a random secret kept in the database, so that every process of the shop signs and verifies alike;
 * else (the embedded database) a random secret kept in `DATA_DIR/jwt-secret`. A secret already in
 * `DATA_DIR` is adopted into the database the first time, so that signed-in sessions survive.
 * Run under the boot lock: processes starting at once agree on one secret.
 */
export async function resolveJwtSecret(config: { jwtSecret?: string; dataDir: string; databaseUrl?: string }, em: EntityManager): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  if (!config.databaseUrl) {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = randomSecret();
    fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
    return secret;
  }
  const candidate = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() || randomSecret() : randomSecret();
  return ensureSecret(em, JWT_SECRET_SETTING, candidate);
}

const randomSecret = () => crypto.randomBytes(48).toString('base64url');
