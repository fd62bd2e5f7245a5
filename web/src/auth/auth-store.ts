import { useSyncExternalStore } from 'react';
import { decodeToken, isExpired, type TokenUser } from './token';

/** The visitor's session: the token and the user it names (the site settings are in settings/settings-store.ts). */
export interface AuthState {
  token: string | null;
  user: TokenUser | null;
  /** True while the browser asks whether its "Keep me signed in" cookie signs it in (a new tab). */
  resuming?: boolean;
}

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
/** Set once the tab has asked the server for its remembered session. */
const ASKED_KEY = 'session-asked';

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

  /**
   * A new tab, or a link from an e-mail, with nothing in session storage: asks the server once
   * whether the browser's `session` cookie ("Keep me signed in") signs it in (`POST /api/session`;
   * the cookie itself is httpOnly, out of the page's reach). `signedIn` runs before the store says
   * it is done (the site settings, which say whether the user is an admin). Answers whether it did.
   */
  async resume(signedIn: () => Promise<unknown> = async () => undefined, request: typeof fetch = fetch): Promise<boolean> {
    if (this.state.user || this.state.resuming || this.storage.getItem(ASKED_KEY)) return false;
    // Once per tab: a visitor who signs out, or never chose to be remembered, is not asked about again.
    this.storage.setItem(ASKED_KEY, '1');
    this.set({ ...this.state, resuming: true });
    let resumed = false;
    try {
      const res = await request('/api/session', { method: 'POST', credentials: 'same-origin', headers: { 'X-Requested-With': 'fetch' } });
      // Read whatever the answer is: a body left unread keeps the request open in the browser.
      const token = await res.text();
      if (res.ok && !this.state.user) {
        // Signed in, and the settings that follow from it known, before the page decides where the visitor may go.
        this.login(token, { resuming: true });
        await signedIn().catch(() => undefined);
        resumed = true;
      }
    } catch {
      // Offline, or the shop is restarting: the visitor signs in by hand.
    } finally {
      if (this.state.resuming) this.set({ ...this.state, resuming: false });
    }
    return resumed;
  }

  /** Stores the token and its decoded payload (the user). Throws when the token cannot be decoded. */
  login(token: string, extra: Pick<AuthState, 'resuming'> = {}): TokenUser {
    const user = decodeToken(token);
    this.storage.setItem(TOKEN_KEY, token);
    this.storage.setItem(USER_KEY, JSON.stringify(user));
    this.set({ token, user, ...extra });
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
