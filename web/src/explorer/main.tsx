import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { API_KEY_PATTERN } from '@rules';

/**
 * An API key handed over by /developers in the address's fragment (`/graphql#key=ask_…`), which the
 * browser never sends to a server. It is taken out of the address at once (so it stays in neither
 * the address bar nor the history) and lives only in this page's header editor: GraphiQL does not
 * save headers unless told to.
 */
function handedOverKey(): string | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  if (!params.has('key')) return null;
  history.replaceState(history.state, '', window.location.pathname + window.location.search);
  const key = params.get('key')!.trim();
  return API_KEY_PATTERN.test(key) ? key : null;
}

/** The GraphQL explorer at GET /graphql, bundled with the app so it works with no internet. */
const key = handedOverKey();
const token = key ?? sessionStorage.getItem('token');
const fetcher = createGraphiQLFetcher({ url: '/graphql', headers: { 'Apollo-Require-Preflight': 'true' } });
const theme = localStorage.getItem('theme') === 'light' ? 'light' : 'dark';

const WELCOME = '# Welcome to the Art & Song Cards GraphQL API.\n\nquery {\n  settings {\n    underConstructionMode\n    isAdmin\n  }\n}\n';
/** A key may call only what its scopes name (settings, above, names none): a first query a catalogue key can run. */
const WITH_KEY =
  '# Your API key is in the Headers below.\n# A key may call what its scopes allow\n# (see /developers#scopes): this query\n# needs catalogue:read.\n\nquery Products {\n  searchProducts(first: 5) {\n    totalCount\n    edges {\n      node {\n        id\n        name\n        price\n      }\n    }\n  }\n}\n';

createRoot(document.getElementById('explorer')!).render(
  <GraphiQL
    fetcher={fetcher}
    defaultTheme={theme}
    initialHeaders={token ? JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2) : undefined}
    defaultQuery={key ? WITH_KEY : WELCOME}
  />,
);
