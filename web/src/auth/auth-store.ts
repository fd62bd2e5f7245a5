import { useSyncExternalStore } from 'react';
import { decodeToken, isExpired, type TokenUser } from './token';

/** The visitor's session: the token and the user it names (the site settings are in settings/settings-store.ts). */
export interface AuthState {
  token: string | null;
  user: TokenUser | null;
}

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

type Listener = () => void;

const ANONYMOUS: AuthState = { token: null, user: null };

/** The client's session, kept in session storage. */
export class AuthStore {
  private state: AuthState = ANONYMOUS;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>) {}

  getState = (): AuthState => this.state;

  /**
   * The state the server rendered the page in (see web/src/entry-server.tsx): an anonymous
   * visitor. Hydration starts from it, and a signed-in visitor's own view follows right after.
   */
  getPageState = (): AuthState => ANONYMOUS;

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
    this.set(ANONYMOUS);
  }

  private set(state: AuthState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}

const memoryStorage = () => {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
};

export const authStore = new AuthStore(typeof sessionStorage === 'undefined' ? memoryStorage() : sessionStorage);

/** The session, for components. */
export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.getState, authStore.getPageState);
}
