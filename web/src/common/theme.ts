import { useCallback, useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';
const DARK_CLASS = 'bp6-dark';

/**
 * The chosen theme; dark unless light was chosen. The browser's storage has the say; without a choice
 * stored there (storage cleared, or the choice made before it was kept there) the theme cookie does,
 * which is also what the server drew the page in.
 */
export function readTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage, cookie: string = typeof document === 'undefined' ? '' : document.cookie): Theme {
  const stored = storage?.getItem(THEME_KEY) ?? null;
  if (stored === null) return themeFromCookie(cookie);
  return stored === 'light' ? 'light' : 'dark';
}

export function storeTheme(theme: Theme, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  storage?.setItem(THEME_KEY, theme);
  // Also told to the server, which draws the next page in it (gateway/src/web-client.ts).
  if (typeof document !== 'undefined') document.cookie = `${THEME_KEY}=${theme}; path=/; max-age=31536000; samesite=lax`;
}

/** The theme a `Cookie` header (or `document.cookie`) asks for; dark unless light. */
export function themeFromCookie(cookie: string | undefined | null): Theme {
  return /(?:^|;\s*)theme=light(?:;|$)/.test(cookie ?? '') ? 'light' : 'dark';
}

/** The theme the server drew the page in: what hydration starts from (set by main.tsx and entry-server.tsx). */
let pageTheme: Theme = 'dark';
export function setPageTheme(theme: Theme): void {
  pageTheme = theme;
}

const listeners = new Set<() => void>();

export function applyTheme(theme: Theme): void {
  document.body.classList.toggle(DARK_CLASS, theme === 'dark');
  document.documentElement.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme === 'dark' ? '#1c2127' : '#f6f7f9');
}

export function useTheme(): [Theme, () => void] {
  const theme = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => readTheme(),
    // The server draws the theme of the theme cookie; hydration starts from it.
    () => pageTheme,
  );
  const toggle = useCallback(() => {
    const next = readTheme() === 'dark' ? 'light' : 'dark';
    storeTheme(next);
    applyTheme(next);
    listeners.forEach((l) => l());
  }, []);
  return [theme, toggle];
}
