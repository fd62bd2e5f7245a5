import { useSyncExternalStore } from 'react';
import { decodeToken, isExpired, type TokenUser } from './token';

export interface AuthState {
  token: string | null;
  user: TokenUser | null;
  underConstructionMode: boolean;
  admin: boolean;
  /** Whether the settings have been fetched at least once. */
  settingsLoaded: boolean;
}

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

type Listener = () => void;

/** The client's auth state: session in session storage, admin and under-construction from the settings. */
export class AuthStore {
  private state: AuthState = { token: null, user: null, underConstructionMode: false, admin: false, settingsLoaded: false };
  private readonly listeners = new Set<Listener>();
  /** What a page rendered by the server shows: an anonymous visitor with the settings the page came with. */
  private pageState: AuthState = this.state;

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>) {}

  getState = (): AuthState => this.state;

  /**
   * The state the server rendered the page in (see web/src/entry-server.tsx): hydration starts
   * from it, and a signed-in visitor's own view follows right after.
   */
  getPageState = (): AuthState => this.pageState;

  setPageSettings(settings: { underConstructionMode: boolean; isAdmin: boolean }): void {
    const page: AuthState = { token: null, user: null, underConstructionMode: settings.underConstructionMode, admin: false, settingsLoaded: true };
    const now = this.state;
    const same = (Object.keys(page) as (keyof AuthState)[]).every((key) => page[key] === now[key]);
    // The very same object when the visitor is the anonymous one the page was drawn for: nothing to draw again after hydration.
    this.pageState = same ? now : page;
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Authenticated means a user is present. */
  get authenticated(): boolean {
    return this.state.user !== null;
  }

  /**
   * On start: signs the user in again from session storage. An undecodable token logs out; an
   * expired one logs out with 'Token expired, logging out.' on the console.
   */
  restore(now = Date.now()): void {
    const token = this.storage.getItem(TOKEN_KEY);
    if (!token) return;
    let user: TokenUser;
    try {
      user = decodeToken(token);
    } catch {
      this.logout();
      return;
    }
    if (isExpired(user, now)) {
      console.log('Token expired, logging out.');
      this.logout();
      return;
    }
    this.set({ token, user });
  }

  /** Stores the token and its decoded payload (the user). Throws when the token cannot be decoded. */
  login(token: string): TokenUser {
    const user = decodeToken(token);
    this.storage.setItem(TOKEN_KEY, token);
    this.storage.setItem(USER_KEY, JSON.stringify(user));
    this.set({ token, user });
    return user;
  }

  logout(): void {
    this.storage.removeItem(TOKEN_KEY);
    this.storage.removeItem(USER_KEY);
    this.set({ token: null, user: null, admin: false });
  }

  setSettings(settings: { underConstructionMode: boolean; isAdmin: boolean }): void {
    this.set({ underConstructionMode: settings.underConstructionMode, admin: settings.isAdmin, settingsLoaded: true });
  }

  private set(patch: Partial<AuthState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

const memoryStorage = () => {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
};

export const authStore = new AuthStore(typeof sessionStorage === 'undefined' ? memoryStorage() : sessionStorage);

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.getState, authStore.getPageState);
}
