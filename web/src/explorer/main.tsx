import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';

/** The GraphQL explorer at GET /graphql, bundled with the app so it works with no internet. */
const token = sessionStorage.getItem('token');
const fetcher = createGraphiQLFetcher({ url: '/graphql', headers: { 'Apollo-Require-Preflight': 'true' } });
const theme = localStorage.getItem('theme') === 'light' ? 'light' : 'dark';

createRoot(document.getElementById('explorer')!).render(
  <GraphiQL
    fetcher={fetcher}
    defaultTheme={theme}
    initialHeaders={token ? JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2) : undefined}
    defaultQuery={'# Welcome to the Art & Song Cards GraphQL API.\n\nquery {\n  settings {\n    underConstructionMode\n    isAdmin\n  }\n}\n'}
  />,
);
