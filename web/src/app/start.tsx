/**
 * The app itself, started by main.tsx: see startApp.
 */
import { startTransition, StrictMode, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { ApolloProvider } from '@apollo/client/react';
import { BlueprintContext } from './BlueprintContext';
import { RawIntlProvider, type IntlShape } from 'react-intl';
import { apolloClient } from '../apollo/client';
import { authStore } from '../auth/auth-store';
import { refreshSettings } from '../settings/refresh-settings';
import { applyTheme, readTheme, setPageTheme, themeFromCookie } from '../common/theme';
import { App, preloadScreens } from './App';
import { loadBundledIcons, setUpIcons } from './icons';
import { applyInitialState, applyInitialStateInSteps, readInitialState, type InitialState } from './initial-state';
import { nextTask } from './next-task';
import { loadMessages, localeOfPath, setPageLocale } from '../i18n/page-intl';

/** The app in the page's language (its catalogue loaded before the first render: see i18n/page-intl.ts). */
const appIn = (intl: IntlShape) => (
  <StrictMode>
    <ApolloProvider client={apolloClient}>
      <RawIntlProvider value={intl}>
        <BlueprintContext>
          <App />
        </BlueprintContext>
      </RawIntlProvider>
    </ApolloProvider>
  </StrictMode>
);

declare global {
  interface Window {
    /** Set by web/public/boot.js on a page the server drew, called by App.tsx once the screen is hydrated: presses held until now are replayed. */
    storefrontReady?: () => void;
    /** The theme the server drew the page in (boot.js, before it brings the cookie up to date). */
    storefrontDrawnTheme?: 'light' | 'dark';
  }
}

async function hydrate(container: HTMLElement, initialState: InitialState | null, app: ReactNode): Promise<void> {
  // With the screen's code and texts and the bundled icons at hand (all preloaded with the HTML) and
  // the page's data in the cache, React takes over the HTML as it is.
  const code = Promise.all([preloadScreens(window.location.pathname), loadBundledIcons()]).catch(() => undefined);
  await applyInitialStateInSteps(apolloClient, initialState, nextTask);
  await code;
  await nextTask();
  // As a transition: React hydrates in slices and gives the phone's main thread back in between.
  startTransition(() => {
    hydrateRoot(container, app, {
      onRecoverableError(error, info) {
        console.error('Hydration mismatch:', error, info.componentStack);
      },
    });
  });
}

/**
 * Starts the app (main.tsx loads this module once React and Apollo have been evaluated): the
 * stores from what the page carries, then React takes over the page the server drew, or draws it.
 */
export async function startApp(): Promise<void> {
  setUpIcons();
  applyTheme(readTheme());
  setPageTheme(window.storefrontDrawnTheme ?? themeFromCookie(document.cookie));
  authStore.restore();
  // A new tab of a browser that keeps its user signed in: the server says who (the page was drawn for
  // a visitor; the signed-in view follows, as after a sign-in).
  void authStore.resume(() => refreshSettings(apolloClient));
  const initialState = readInitialState();
  const locale = localeOfPath(window.location.pathname);
  const app = appIn(setPageLocale(locale, await loadMessages(locale)));
  const container = document.getElementById('root')!;
  if (container.firstElementChild) {
    // The server drew this page (gateway/src/server-render.ts).
    await hydrate(container, initialState, app);
  } else {
    applyInitialState(apolloClient, initialState);
    createRoot(container).render(app);
  }
}
