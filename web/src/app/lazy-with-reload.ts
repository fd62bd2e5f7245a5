import { lazy, type ComponentType } from 'react';

/** Set while the page reloads because a screen's code failed to load; cleared once routing is ready. */
export const RELOAD_FLAG = 'chunkReloadAttempted';

/**
 * A lazily loaded screen that reloads the page once when its code cannot be fetched (typically a
 * new release replaced the old chunks). A second failure is shown instead of reloading forever.
 */
export function lazyWithReload<T extends ComponentType<any>>(factory: () => Promise<{ default: T }>) {
  return lazy(async () => {
    try {
      return await factory();
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
