import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { ApolloProvider } from '@apollo/client/react';
import { BlueprintProvider } from '@blueprintjs/core';
import '@blueprintjs/core/lib/css/blueprint.css';
import './app/app.css';
import { apolloClient } from './apollo/client';
import { authStore } from './auth/auth-store';
import { applyTheme, readTheme, setPageTheme, themeFromCookie } from './common/theme';
import { App, preloadScreens } from './app/App';
import { loadBundledIcons, setUpIcons } from './app/icons';
import { applyInitialState, readInitialState } from './app/initial-state';

setUpIcons();
applyTheme(readTheme());
setPageTheme(window.storefrontDrawnTheme ?? themeFromCookie(document.cookie));
authStore.restore();
applyInitialState(apolloClient, readInitialState());

const app = (
  <StrictMode>
    <ApolloProvider client={apolloClient}>
      <BlueprintProvider>
        <App />
      </BlueprintProvider>
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

const container = document.getElementById('root')!;
if (container.firstElementChild) {
  // The server drew this page (gateway/src/server-render.ts): with the screen's code and the
  // bundled icons at hand (both preloaded with the HTML), React takes over the HTML as it is.
  void Promise.all([preloadScreens(window.location.pathname), loadBundledIcons()])
    .catch(() => undefined)
    .then(() => {
      // As a transition: React hydrates in slices and gives the phone's main thread back in between.
      startTransition(() => {
        hydrateRoot(container, app, {
          onRecoverableError(error, info) {
            console.error('Hydration mismatch:', error, info.componentStack);
          },
        });
      });
    });
} else {
  createRoot(container).render(app);
}
