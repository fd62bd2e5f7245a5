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
});
