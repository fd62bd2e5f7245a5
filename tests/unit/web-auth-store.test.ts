import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthStore } from '../../web/src/auth/auth-store.js';

const b64url = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const tokenFor = (payload: object) => `h.${b64url(payload)}.s`;

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
}

afterEach(() => vi.restoreAllMocks());

describe('the auth store', () => {
  it('stores the token and the decoded user in session storage on login', () => {
    const storage = memoryStorage();
    const store = new AuthStore(storage);
    const token = tokenFor({ sub: '1', username: 'alice', exp: 4_000_000_000 });
    store.login(token);
    expect(storage.map.get('token')).toBe(token);
    expect(JSON.parse(storage.map.get('user')!)).toEqual({ sub: '1', username: 'alice', exp: 4_000_000_000 });
    expect(store.authenticated).toBe(true);
  });

  it('signs in again on start from a token that has not expired', () => {
    const token = tokenFor({ username: 'alice', exp: 2000 });
    const store = new AuthStore(memoryStorage({ token }));
    store.restore(1_999_000);
    expect(store.getState()).toMatchObject({ token, user: { username: 'alice' } });
  });

  it("logs out an expired token on start with 'Token expired, logging out.'", () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const storage = memoryStorage({ token: tokenFor({ username: 'alice', exp: 1000 }), user: '{}' });
    const store = new AuthStore(storage);
    store.restore(1_000_001);
    expect(log).toHaveBeenCalledWith('Token expired, logging out.');
    expect(store.getState().user).toBeNull();
    expect(storage.map.size).toBe(0);
  });

  it('logs out a token that cannot be decoded', () => {
    const storage = memoryStorage({ token: 'garbage', user: '{}' });
    const store = new AuthStore(storage);
    store.restore();
    expect(store.authenticated).toBe(false);
    expect(storage.map.size).toBe(0);
  });

  describe('resuming a remembered session (a new tab)', () => {
    const answer = (status: number, body = '') => vi.fn(async () => new Response(body, { status }));

    it('asks POST /api/session with the header, signs in with the token, and runs the follow-up before it says it is done', async () => {
      const storage = memoryStorage();
      const store = new AuthStore(storage);
      const token = tokenFor({ sub: '7', username: 'rosa', exp: 4_000_000_000 });
      const request = answer(200, token);
      const seen: unknown[] = [];
      const resumed = store.resume(async () => seen.push({ ...store.getState() }), request);
      expect(store.getState().resuming).toBe(true);
      expect(await resumed).toBe(true);
      expect(request).toHaveBeenCalledWith('/api/session', { method: 'POST', credentials: 'same-origin', headers: { 'X-Requested-With': 'fetch' } });
      // Signed in, still resuming, while the follow-up (the settings) runs; then done.
      expect(seen).toEqual([{ token, user: expect.objectContaining({ username: 'rosa' }), resuming: true }]);
      expect(store.getState()).toEqual({ token, user: expect.objectContaining({ username: 'rosa' }), resuming: false });
      expect(storage.map.get('token')).toBe(token);
    });

    it('stays signed out on 401 (or when the shop cannot be reached), and asks only once per tab', async () => {
      const store = new AuthStore(memoryStorage());
      const request = answer(401, '{"code":"UNAUTHENTICATED"}');
      const followUp = vi.fn(async () => undefined);
      expect(await store.resume(followUp, request)).toBe(false);
      expect(store.getState()).toEqual({ token: null, user: null, resuming: false });
      expect(await store.resume(followUp, request)).toBe(false);
      expect(request).toHaveBeenCalledTimes(1);
      expect(followUp).not.toHaveBeenCalled();

      const offline = new AuthStore(memoryStorage());
      expect(await offline.resume(followUp, vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))))).toBe(false);
      expect(offline.getState().resuming).toBe(false);
    });

    it('does not ask when the tab is already signed in', async () => {
      const token = tokenFor({ username: 'alice', exp: 4_000_000_000 });
      const store = new AuthStore(memoryStorage({ token }));
      store.restore();
      const request = answer(200, token);
      expect(await store.resume(undefined, request)).toBe(false);
      expect(request).not.toHaveBeenCalled();
    });
  });
});

