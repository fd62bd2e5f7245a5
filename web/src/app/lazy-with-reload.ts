import { lazy, type ComponentType } from 'react';

/** Set while the page reloads because a screen's code failed to load; cleared once a screen has loaded. */
export const RELOAD_FLAG = 'chunkReloadAttempted';

/**
 * A lazily loaded screen that reloads the page once when its code cannot be fetched (typically a
 * new release replaced the old chunks). A second failure is shown instead of reloading forever.
 */
export function lazyWithReload<T extends ComponentType<any>>(factory: () => Promise<{ default: T }>) {
  return lazy(async () => {
    try {
      const module = await factory();
      // The screen arrived: routing is ready, so a later failure may reload once again.
      clearReloadFlag();
      return module;
    } catch (error) {
      if (!localStorage.getItem(RELOAD_FLAG)) {
        localStorage.setItem(RELOAD_FLAG, '1');
        window.location.reload();
        return new Promise<never>(() => {});
      }
      throw error;
    }
  });
}

export function clearReloadFlag(): void {
  localStorage.removeItem(RELOAD_FLAG);
}
