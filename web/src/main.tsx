import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { ApolloProvider } from '@apollo/client/react';
import { BlueprintProvider } from '@blueprintjs/core';
import '@blueprintjs/core/lib/css/blueprint.css';
import './app/app.css';
import { apolloClient } from './apollo/client';
import { authStore } from './app/auth-store';
import { applyTheme, readTheme, setPageTheme, themeFromCookie } from './app/theme';
import { App, preloadScreens } from './app/App';
import { loadBundledIcons, setUpIcons } from './app/icons';
import { applyInitialState, applyInitialStateInSteps, readInitialState } from './app/initial-state';

setUpIcons();
applyTheme(readTheme());
setPageTheme(window.storefrontDrawnTheme ?? themeFromCookie(document.cookie));
authStore.restore();
const initialState = readInitialState();

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

/**
 * Gives the main thread back to the browser until its next task: the start of a page is cut into
 * tasks short enough that a phone can still answer a tap (and paint) in between.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function hydrate(container: HTMLElement): Promise<void> {
  // With the screen's code and the bundled icons at hand (both preloaded with the HTML) and the
  // page's data in the cache, React takes over the HTML as it is.
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

const container = document.getElementById('root')!;
if (container.firstElementChild) {
  // The server drew this page (gateway/src/server-render.ts).
  void hydrate(container);
} else {
  applyInitialState(apolloClient, initialState);
  createRoot(container).render(app);
}
