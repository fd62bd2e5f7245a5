import crypto from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthSession } from './auth-session.entity.js';
import { RememberedSession, RetiredSessionCookie } from './remembered-session.entity.js';
import type { User } from './user.entity.js';

/** How long a remembered session lasts after its last use. */
export const SESSION_DAYS = 30;
export const SESSION_MAX_AGE_SECONDS = SESSION_DAYS * 24 * 3600;
/**
 * Two tabs opened at once both send the same cookie: the first swaps it, the second arrives with
 * the one just retired. Within this long that is taken for such a race (a token, the cookie left
 * as the first answer set it); later it can only be a copy, and the whole session ends.
 */
export const ROTATION_GRACE_MS = 30_000;

const digest = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
const newCookie = () => crypto.randomBytes(32).toString('base64url');

export type Resumed =
  /** The cookie was good: its session, and the cookie that replaces it (null within the grace of a rotation). */
  | { kind: 'resumed'; session: RememberedSession; cookie: string | null }
  /** Unknown or expired: nothing to resume. */
  | { kind: 'unknown' }
  /** A cookie retired before the grace came back: the session it belonged to has ended. */
  | { kind: 'reused'; userId: number };

/**
 * "Keep me signed in": the browsers that hold a `session` cookie (contract section 15). The cookie
 * is a random 256-bit value kept only as a SHA-256 digest; each use swaps it for a new one, and the
 * tokens issued from a session end with it.
 */
export class RememberedSessions {
  /** Starts a session for the user (in the caller's transaction): the row, and the cookie's value. */
  async start(em: EntityManager, user: User, now: Date): Promise<{ session: RememberedSession; cookie: string }> {
    const cookie = newCookie();
    const session = em.create(RememberedSession, { id: crypto.randomUUID(), user, tokenHash: digest(cookie), rotatedAt: now, expiresAt: expiry(now), createdAt: now });
    // The user's sessions that ran out are no use to anyone: dropped as a new one starts.
    await em.nativeDelete(RememberedSession, { user: user.id, expiresAt: { $lt: now } });
    return { session, cookie };
  }

  /**
   * Swaps the cookie for a new one, in a transaction of its own: two requests with the same cookie
   * cannot both swap it (the row is locked; the second finds the cookie retired, within the grace).
   */
  async resume(em: EntityManager, cookie: string, now: Date): Promise<Resumed> {
    const hash = digest(cookie);
    return em.fork().transactional(async (tx) => {
      const session = await tx.findOne(RememberedSession, { tokenHash: hash }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['user'] });
      if (session) {
        if (session.expiresAt <= now) {
          await tx.nativeDelete(RememberedSession, { id: session.id });
          return { kind: 'unknown' };
        }
        const next = newCookie();
        tx.create(RetiredSessionCookie, { tokenHash: hash, session, retiredAt: now });
        session.tokenHash = digest(next);
        session.rotatedAt = now;
        session.expiresAt = expiry(now);
        await tx.flush();
        return { kind: 'resumed', session, cookie: next };
      }
      const retired = await tx.findOne(RetiredSessionCookie, { tokenHash: hash }, { populate: ['session', 'session.user'] });
      if (!retired) return { kind: 'unknown' };
      const owner = retired.session;
      if (now.getTime() - retired.retiredAt.getTime() <= ROTATION_GRACE_MS && owner.expiresAt > now) return { kind: 'resumed', session: owner, cookie: null };
      // Theft detection: the cookie was copied. Its session and every token issued from it end.
      await tx.nativeDelete(RememberedSession, { id: owner.id });
      return { kind: 'reused', userId: owner.user.id };
    });
  }

  /** Drops the sessions that ran out (with their retired cookies): run at start and then daily. */
  async sweep(em: EntityManager, now: Date): Promise<number> {
    return em.nativeDelete(RememberedSession, { expiresAt: { $lt: now } });
  }

  /** Ends one session and the tokens issued from it. */
  async end(em: EntityManager, id: string): Promise<void> {
    await em.nativeDelete(RememberedSession, { id });
  }

  /** The remembered session a token was issued from, if any. */
  async of(em: EntityManager, jti: string): Promise<string | null> {
    const row = await em.findOne(AuthSession, { jti }, { fields: ['rememberedSession'] });
    return row?.rememberedSession?.id ?? null;
  }
}

/**
 * Ends every session of a user: each token issued to them and each browser that keeps them signed
 * in. A password change or reset, "Sign out everywhere", a member of staff removed.
 */
export async function endAllSessions(em: EntityManager, userId: number): Promise<void> {
  await em.nativeDelete(AuthSession, { user: userId });
  await em.nativeDelete(RememberedSession, { user: userId });
}

const expiry = (now: Date) => new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
