import { parse } from 'cookie';
import type { Request, Response } from 'express';
import type { SessionCookie } from '../../server/src/core/context.js';

/** The "Keep me signed in" cookie's name, and the one path the browser sends it to. */
export const SESSION_COOKIE = 'session';
export const SESSION_COOKIE_PATH = '/api/session';

/**
 * The `session` cookie of one request (contract section 15): httpOnly (no script reads it),
 * SameSite=Lax, Secure in production, sent only to /api/session. Any answer may set or clear it
 * (a login over GraphQL, a logout): the path limits where the browser sends it, not who sets it.
 */
export function sessionCookieOf(req: Request, res: Response, secure: boolean): SessionCookie {
  const options = { httpOnly: true, sameSite: 'lax' as const, secure, path: SESSION_COOKIE_PATH };
  return {
    read: () => (req.headers.cookie ? parse(req.headers.cookie)[SESSION_COOKIE] : undefined) || undefined,
    write: (value, maxAgeSeconds) => void res.cookie(SESSION_COOKIE, value, { ...options, maxAge: maxAgeSeconds * 1000 }),
    clear: () => void res.clearCookie(SESSION_COOKIE, options),
  };
}
