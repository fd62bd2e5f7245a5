import { useCallback, useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';
const DARK_CLASS = 'bp6-dark';

/** The stored theme; dark unless light was chosen. */
export function readTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Theme {
  return storage?.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
}

export function storeTheme(theme: Theme, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  storage?.setItem(THEME_KEY, theme);
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
    // The server renders the default theme (it cannot read the browser's choice); hydration starts from it.
    (): Theme => 'dark',
  );
  const toggle = useCallback(() => {
    const next = readTheme() === 'dark' ? 'light' : 'dark';
    storeTheme(next);
    applyTheme(next);
    listeners.forEach((l) => l());
  }, []);
  return [theme, toggle];
}
