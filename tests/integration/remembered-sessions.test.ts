import crypto from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * "Keep me signed in" (contract section 15): the `session` cookie, its rotation on every use, a
 * copied cookie ending the whole chain, and every way a session ends.
 */
let app: TestApp;
let now = new Date('2026-12-01T10:00:00Z');
const PASSWORD = 'customer-pass-1';

beforeAll(async () => {
  app = await startTestApp({}, { clock: () => now });
});
afterAll(async () => {
  await app?.stop();
});

/** The `session` cookie an answer sets: its value and its attributes, by name (lower case). */
function sessionCookie(res: Response): { value: string; attributes: Record<string, string | true> } | null {
  const line = res.headers.getSetCookie().find((cookie) => cookie.startsWith('session='));
  if (!line) return null;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  return {
    value: decodeURIComponent(pair!.slice('session='.length)),
    attributes: Object.fromEntries(attributes.map((a) => {
      const [name, ...rest] = a.split('=');
      return [name!.toLowerCase(), rest.length ? rest.join('=') : true];
    })),
  };
}

const login = (json: Record<string, unknown>) => app.request('/api/login', { method: 'POST', json: { password: PASSWORD, ...json } });
const resume = (cookie?: string, headers: Record<string, string> = { 'x-requested-with': 'fetch' }) =>
  app.request('/api/session', { method: 'POST', headers: { ...headers, ...(cookie ? { cookie: `session=${encodeURIComponent(cookie)}` } : {}) } });
const me = (token: string) => app.request('/api/me', { token });
const digest = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** A new customer, signed in with "Keep me signed in": the token and the cookie. */
async function remembered(name: string): Promise<{ token: string; cookie: string }> {
  await app.customer(name);
  const res = await login({ username: name, remember: true });
  expect(res.status).toBe(200);
  return { token: await res.text(), cookie: sessionCookie(res)!.value };
}

describe('a session that lasts', () => {
  it('login with remember sets an httpOnly cookie for /api/session only, kept as a digest; the token names the session', async () => {
    await app.customer('rosa');
    const res = await login({ username: 'rosa', remember: true });
    expect(res.status).toBe(200);
    const token = await res.text();
    const cookie = sessionCookie(res)!;
    expect(cookie.value).toMatch(/^[\w-]{43}$/);
    expect(cookie.attributes).toEqual({ 'max-age': '2592000', path: '/api/session', expires: expect.any(String), httponly: true, samesite: 'Lax' });
    // Not Secure outside production (plain http on this machine); see the unit test of the cookie for production.
    expect(cookie.attributes.secure).toBeUndefined();
    const rows = await app.sql<{ id: string; token_hash: string; expires_at: Date }>(`select s.id, s.token_hash, s.expires_at from remembered_session s join app_user u on u.id = s.user_id where u.username = 'rosa'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(digest(cookie.value));
    expect(rows[0]!.expires_at.toISOString()).toBe('2026-12-31T10:00:00.000Z');
    expect(decodeJwt(token).sid).toBe(rows[0]!.id);
    expect((await app.sql(`select 1 from auth_session where remembered_session_id = $1`, [rows[0]!.id]))).toHaveLength(1);
  });

  it('login without remember (or with anything but true) sets no cookie, and its token names no session', async () => {
    await app.customer('sol');
    for (const remember of [undefined, false, 'true', 1]) {
      const res = await login({ username: 'sol', remember });
      expect(res.status).toBe(200);
      expect(sessionCookie(res)).toBeNull();
      expect(decodeJwt(await res.text()).sid).toBeUndefined();
    }
    expect(await app.sql(`select 1 from remembered_session s join app_user u on u.id = s.user_id where u.username = 'sol'`)).toEqual([]);
  });

  it('signs in by e-mail address in any case, remembered too', async () => {
    await app.customer('tova');
    const res = await login({ username: 'TOVA@Example.COM', remember: true });
    expect(res.status).toBe(200);
    expect(decodeJwt(await res.text()).username).toBe('tova');
    expect(sessionCookie(res)).not.toBeNull();
  });

  it('POST /api/session answers a fresh token and swaps the cookie; 401 without a cookie or with an unknown one, 403 without the header', async () => {
    const { cookie } = await remembered('uma');
    expect((await resume()).status).toBe(401);
    const unknown = await resume('not-a-session-cookie-at-all');
    expect(unknown.status).toBe(401);
    expect(sessionCookie(unknown)!.attributes.expires).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
    const noHeader = await resume(cookie, {});
    expect(noHeader.status).toBe(403);
    expect(await noHeader.json()).toEqual({ code: 'FORBIDDEN', message: "Ask for the session from the shop's own pages (X-Requested-With: fetch)." });
    const form = await resume(cookie, { 'x-requested-with': 'XMLHttpRequest' });
    expect(form.status).toBe(403);

    const res = await resume(cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const token = await res.text();
    const claims = decodeJwt(token);
    expect(claims.username).toBe('uma');
    expect((await me(token)).status).toBe(200);
    const next = sessionCookie(res)!;
    expect(next.value).not.toBe(cookie);
    expect(next.attributes['max-age']).toBe('2592000');
    const [row] = await app.sql<{ token_hash: string }>('select token_hash from remembered_session where id = $1', [claims.sid]);
    expect(row!.token_hash).toBe(digest(next.value));
    expect(await app.sql('select token_hash from remembered_session_retired where session_id = $1', [claims.sid])).toEqual([{ token_hash: digest(cookie) }]);
  });

  it('each use extends the session by 30 days from then; an expired one is refused and removed', async () => {
    const { cookie } = await remembered('vera');
    const started = now;
    now = new Date(started.getTime() + 20 * 86_400_000);
    const res = await resume(cookie);
    expect(res.status).toBe(200);
    const sid = decodeJwt(await res.text()).sid as string;
    expect((await app.sql<{ expires_at: Date }>('select expires_at from remembered_session where id = $1', [sid]))[0]!.expires_at.getTime()).toBe(now.getTime() + 30 * 86_400_000);
    const latest = sessionCookie(res)!.value;
    now = new Date(now.getTime() + 30 * 86_400_000 + 1000);
    expect((await resume(latest)).status).toBe(401);
    expect(await app.sql('select 1 from remembered_session where id = $1', [sid])).toEqual([]);
    now = started;
  });

  it('the daily sweep drops the sessions that ran out, with their retired cookies, and keeps the others', async () => {
    const old = await remembered('ivo');
    await resume(old.cookie);
    const current = await remembered('ike');
    now = new Date(now.getTime() + 31 * 86_400_000);
    const [{ id: keep }] = await app.sql<{ id: string }>(`update remembered_session set expires_at = $1 where id = $2 returning id`, [new Date(now.getTime() + 1000), decodeJwt(current.token).sid]);
    const removed = await app.services.auth.remembered.sweep(app.orm.em.fork(), now);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await app.sql(`select 1 from remembered_session where id = $1`, [decodeJwt(old.token).sid])).toEqual([]);
    expect(await app.sql(`select 1 from remembered_session_retired where session_id = $1`, [decodeJwt(old.token).sid])).toEqual([]);
    expect(await app.sql(`select id from remembered_session where id = $1`, [keep])).toEqual([{ id: keep }]);
    now = new Date('2026-12-01T10:00:00Z');
  });

  it('two tabs opening at once: the cookie just swapped still answers for a moment, without a new cookie', async () => {
    const { cookie } = await remembered('wim');
    const [a, b] = await Promise.all([resume(cookie), resume(cookie)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // One of them swapped the cookie; the other answered from the grace, leaving the new cookie as it is.
    expect([sessionCookie(a), sessionCookie(b)].filter(Boolean)).toHaveLength(1);
    now = new Date(now.getTime() + 20_000);
    const again = await resume(cookie);
    expect(again.status).toBe(200);
    expect(sessionCookie(again)).toBeNull();
  });

  it('a cookie used again after it was swapped (a copy, in another browser) ends the whole session: both cookies and every token of it', async () => {
    const { token: first, cookie: stolen } = await remembered('xena');
    const res = await resume(stolen);
    const second = await res.text();
    const current = sessionCookie(res)!.value;
    const sid = decodeJwt(second).sid as string;
    now = new Date(now.getTime() + 31_000);
    const thief = await resume(stolen);
    expect(thief.status).toBe(401);
    expect(await thief.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'This session has ended. Please sign in again.' });
    expect(await app.sql('select 1 from remembered_session where id = $1', [sid])).toEqual([]);
    expect((await resume(current)).status).toBe(401);
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(401);
  });

  it('logout with a token issued from the session ends the session (the cookie is not sent to /api/logout) and clears the cookie', async () => {
    const { cookie } = await remembered('yara');
    const res = await resume(cookie);
    const token = await res.text();
    const current = sessionCookie(res)!.value;
    const out = await app.request('/api/logout', { method: 'POST', token });
    expect(out.status).toBe(204);
    expect(sessionCookie(out)).toMatchObject({ value: '', attributes: { path: '/api/session', expires: 'Thu, 01 Jan 1970 00:00:00 GMT' } });
    expect((await resume(current)).status).toBe(401);
    expect((await me(token)).status).toBe(401);
  });

  it('a logout without a remembered session ends only that token', async () => {
    const { token: remember, cookie } = await remembered('zed');
    const plain = await (await login({ username: 'zed' })).text();
    expect((await app.request('/api/logout', { method: 'POST', token: plain })).status).toBe(204);
    expect((await me(remember)).status).toBe(200);
    expect((await resume(cookie)).status).toBe(200);
  });

  it('Sign out everywhere: 204, every token and every remembered browser of the caller ends, nobody else\'s', async () => {
    const one = await remembered('abe');
    const two = await (await login({ username: 'abe', remember: true })).text();
    const plain = await (await login({ username: 'abe' })).text();
    const other = await remembered('bea');
    expect((await app.request('/api/session/revoke-all', { method: 'POST' })).status).toBe(401);
    const res = await app.request('/api/session/revoke-all', { method: 'POST', token: plain });
    expect(res.status).toBe(204);
    expect(sessionCookie(res)!.value).toBe('');
    for (const token of [one.token, two, plain]) expect((await me(token)).status).toBe(401);
    expect((await resume(one.cookie)).status).toBe(401);
    expect(await app.sql(`select 1 from remembered_session s join app_user u on u.id = s.user_id where u.username = 'abe'`)).toEqual([]);
    expect((await me(other.token)).status).toBe(200);
    expect((await resume(other.cookie)).status).toBe(200);
  });

  it('a password change ends every remembered browser too', async () => {
    const { token, cookie } = await remembered('cleo');
    const res = await app.request('/api/change-password', { method: 'POST', token, json: { currentPassword: PASSWORD, newPassword: 'another-pass-2' } });
    expect(res.status).toBe(200);
    expect(sessionCookie(res)!.value).toBe('');
    expect((await resume(cookie)).status).toBe(401);
  });

  it('over GraphQL: login takes remember (the answer sets the cookie), signOutEverywhere ends it all', async () => {
    await app.customer('dora');
    const res = await app.request('/graphql', { method: 'POST', json: { query: 'mutation($input: LoginInput!) { login(input: $input) { token } }', variables: { input: { username: 'dora', password: PASSWORD, remember: true } } } });
    expect(res.status).toBe(200);
    const token: string = (await res.json()).data.login.token;
    const cookie = sessionCookie(res)!;
    expect(cookie.attributes).toMatchObject({ path: '/api/session', httponly: true, samesite: 'Lax' });
    expect(decodeJwt(token).sid).toEqual(expect.any(String));
    const out = await app.graphql('mutation { signOutEverywhere }', {}, token);
    expect(out.body).toEqual({ data: { signOutEverywhere: true } });
    expect((await resume(cookie.value)).status).toBe(401);
    expect((await me(token)).status).toBe(401);
    const anonymous = await app.graphql('mutation { signOutEverywhere }', {});
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
