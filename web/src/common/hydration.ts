import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the server renders a page and while the browser hydrates it, true afterwards (and
 * always in a page rendered by the browser alone): what depends on the visitor's locale, time
 * zone or storage is drawn after hydration, so both renders of the first screen are the same.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
