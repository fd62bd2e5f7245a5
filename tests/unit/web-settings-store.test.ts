import { describe, expect, it } from 'vitest';
import { AuthStore } from '../../web/src/auth/auth-store.js';
import { SettingsStore } from '../../web/src/settings/settings-store.js';

const b64url = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const tokenFor = (payload: object) => `h.${b64url(payload)}.s`;

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
}

describe('the site settings store', () => {
  it('takes admin and under-construction from the settings, and drops admin when the session ends', () => {
    const session = new AuthStore(memoryStorage());
    session.login(tokenFor({ sub: '1', username: 'alice', exp: 4_000_000_000 }));
    const store = new SettingsStore(session);
    const seen: boolean[] = [];
    store.subscribe(() => seen.push(store.getState().admin));
    store.setSettings({ underConstructionMode: true, isAdmin: true });
    expect(store.getState()).toEqual({ underConstructionMode: true, admin: true, settingsLoaded: true });
    session.logout();
    expect(store.getState()).toEqual({ underConstructionMode: true, admin: false, settingsLoaded: true });
    expect(seen).toEqual([true, false]);
  });

  it('starts unloaded, and keeps settings without a session', () => {
    const store = new SettingsStore();
    expect(store.getState()).toEqual({ underConstructionMode: false, admin: false, settingsLoaded: false });
    store.setSettings({ underConstructionMode: false, isAdmin: false });
    expect(store.getState().settingsLoaded).toBe(true);
  });

  it("keeps the view a server-drawn page was rendered in: anonymous, with the page's settings", () => {
    const anonymous = new SettingsStore(new AuthStore(memoryStorage()));
    anonymous.setSettings({ underConstructionMode: false, isAdmin: false });
    anonymous.setPageSettings({ underConstructionMode: false, isAdmin: false });
    // The same object: hydration has nothing to draw again.
    expect(anonymous.getPageState()).toBe(anonymous.getState());

    const session = new AuthStore(memoryStorage({ token: tokenFor({ sub: '1', username: 'alice', exp: 4_000_000_000 }) }));
    session.restore();
    const admin = new SettingsStore(session);
    admin.setSettings({ underConstructionMode: false, isAdmin: true });
    admin.setPageSettings({ underConstructionMode: false, isAdmin: false });
    expect(admin.getPageState()).toEqual({ underConstructionMode: false, admin: false, settingsLoaded: true });
    expect(admin.getState().admin).toBe(true);
    // The session's page view is the anonymous visitor; its own view is the signed-in one.
    expect(session.getPageState()).toEqual({ token: null, user: null });
    expect(session.getState().user?.username).toBe('alice');
  });
});
