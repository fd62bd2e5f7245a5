import { useSyncExternalStore } from 'react';
import { authStore, type AuthStore } from '../auth/auth-store';

/** The site's settings as the visitor sees them: whether the shop is closed, and whether they are an admin. */
export interface SettingsState {
  underConstructionMode: boolean;
  admin: boolean;
  /** Whether the settings have been fetched at least once. */
  settingsLoaded: boolean;
}

export interface SiteSettings {
  underConstructionMode: boolean;
  isAdmin: boolean;
}

type Listener = () => void;

/** The site settings (the `settings` query); admin is dropped as soon as the session ends. */
export class SettingsStore {
  private state: SettingsState = { underConstructionMode: false, admin: false, settingsLoaded: false };
  private readonly listeners = new Set<Listener>();
  /** What a page rendered by the server shows: the settings the page came with, for an anonymous visitor. */
  private pageState: SettingsState = this.state;

  constructor(session?: Pick<AuthStore, 'subscribe' | 'getState'>) {
    session?.subscribe(() => {
      if (session.getState().user === null && this.state.admin) this.set({ admin: false });
    });
  }

  getState = (): SettingsState => this.state;

  /** The state the server rendered the page in (see web/src/entry-server.tsx). */
  getPageState = (): SettingsState => this.pageState;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  setSettings(settings: SiteSettings): void {
    this.set({ underConstructionMode: settings.underConstructionMode, admin: settings.isAdmin, settingsLoaded: true });
  }

  setPageSettings(settings: SiteSettings): void {
    const page: SettingsState = { underConstructionMode: settings.underConstructionMode, admin: false, settingsLoaded: true };
    const now = this.state;
    const same = (Object.keys(page) as (keyof SettingsState)[]).every((key) => page[key] === now[key]);
    // The very same object when the visitor sees what the page was drawn with: nothing to draw again after hydration.
    this.pageState = same ? now : page;
  }

  private set(patch: Partial<SettingsState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

export const settingsStore = new SettingsStore(authStore);

export function useSettings(): SettingsState {
  return useSyncExternalStore(settingsStore.subscribe, settingsStore.getState, settingsStore.getPageState);
}
