import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Set while the page reloads because a screen's code failed to load; cleared once a screen has loaded. */
export const RELOAD_FLAG = 'chunkReloadAttempted';

export type PreloadableScreen<T extends ComponentType<any>> = LazyExoticComponent<T> & {
  /** Fetches the screen's code; once it has arrived the screen renders at once, without suspending (hydration). */
  preload(): Promise<void>;
};

/**
 * A lazily loaded screen that reloads the page once when its code cannot be fetched (typically a
 * new release replaced the old chunks). A second failure is shown instead of reloading forever.
 *
 * `preload()` fetches the code ahead of the first render: a screen whose code is already here is
 * handed to React synchronously, so a page rendered by the server hydrates without a fallback.
 */
export function lazyWithReload<T extends ComponentType<any>>(factory: () => Promise<{ default: T }>): PreloadableScreen<T> {
  let loaded: { default: T } | null = null;
  let loading: Promise<{ default: T }> | null = null;
  const load = () => {
    loading ??= factory().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const loadOrReload = async () => {
    try {
      const module = await load();
      // The screen arrived: routing is ready, so a later failure may reload once again.
      clearReloadFlag();
      return module;
    } catch (error) {
      if (typeof window !== 'undefined' && !localStorage.getItem(RELOAD_FLAG)) {
        localStorage.setItem(RELOAD_FLAG, '1');
        window.location.reload();
        return new Promise<never>(() => {});
      }
      throw error;
    }
  };
  const screen = lazy(() => {
    // React takes the result of a thenable that answers at once without suspending.
    if (loaded) {
      const module = loaded;
      return { then: (resolve: (value: { default: T }) => void) => resolve(module) } as unknown as Promise<{ default: T }>;
    }
    return loadOrReload();
  }) as PreloadableScreen<T>;
  screen.preload = async () => {
    await load();
  };
  return screen;
}

export function clearReloadFlag(): void {
  if (typeof localStorage !== 'undefined') localStorage.removeItem(RELOAD_FLAG);
}
