/**
 * The storefront drawn on the server: the same React tree as main.tsx, rendered to HTML by the
 * gateway (gateway/src/server-render.ts) into the page's #root, from the same initial state the
 * page carries. The browser then hydrates it (main.tsx) instead of drawing it again.
 *
 * Nothing here touches the network: Apollo answers from a cache primed with the page's data, the
 * visitor is anonymous (the session lives in the browser), the theme is the one of the theme cookie.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { ApolloProvider } from '@apollo/client/react';
import { BlueprintContext } from './app/BlueprintContext';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { RawIntlProvider } from 'react-intl';
import { LOCALES, localeBase, splitLocalePath, type Locale } from '@rules';
import { pageClients } from './apollo/page-client';
import { routes, preloadMatchedScreens } from './app/App';
import { loadBundledIcons } from './app/icons';
import { applyInitialState, type InitialState } from './app/initial-state';
import { setPageTheme, type Theme } from './common/theme';
import { loadMessages, setPageLocale, type Messages } from './i18n/page-intl';

/** A handler per language: each matches the addresses under its base (`/de/shop` in German). */
const handlers = new Map(LOCALES.map((locale) => [locale, createStaticHandler(routes, { basename: localeBase(locale) })]));
/** Every catalogue, loaded once with the renderer. */
const catalogues = Promise.all(LOCALES.map(async (locale) => [locale, await loadMessages(locale)] as const)).then((entries) => new Map<Locale, Messages>(entries));
let ready: Promise<void> | null = null;

/** The client each page is drawn with (apollo/page-client.ts). */
const pageClient = pageClients();

/**
 * The HTML of a page's #root for `url` (path and query), or null when it is not a page the server
 * draws (a redirect, or the route threw): the browser then draws it alone.
 */
export async function render(url: string, state: InitialState, options: { theme?: Theme } = {}): Promise<string | null> {
  ready ??= loadBundledIcons();
  const location = new URL(url, 'http://localhost');
  const { locale } = splitLocalePath(location.pathname);
  const handler = handlers.get(locale)!;
  const context = await handler.query(new Request(location));
  if (context instanceof Response) return null;
  const [messages] = await Promise.all([catalogues.then((all) => all.get(locale)!), ready, preloadMatchedScreens(context.matches)]);

  const client = pageClient();
  applyInitialState(client, state);
  const router = createStaticRouter(handler.dataRoutes, context);
  // Synchronous from here on: the page state of the (shared) auth store, the theme and the language are this request's alone.
  setPageTheme(options.theme ?? 'dark');
  const intl = setPageLocale(locale, messages);
  return renderToString(
    <StrictMode>
      <ApolloProvider client={client}>
        <RawIntlProvider value={intl}>
          <BlueprintContext>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </BlueprintContext>
        </RawIntlProvider>
      </ApolloProvider>
    </StrictMode>,
  );
}
