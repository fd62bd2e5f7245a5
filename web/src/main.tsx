import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApolloProvider } from '@apollo/client/react';
import { BlueprintProvider } from '@blueprintjs/core';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import './app/app.css';
import { apolloClient } from './apollo/client';
import { authStore } from './app/auth-store';
import { applyTheme, readTheme } from './app/theme';
import { App } from './app/App';

applyTheme(readTheme());
authStore.restore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={apolloClient}>
      <BlueprintProvider>
        <App />
      </BlueprintProvider>
    </ApolloProvider>
  </StrictMode>,
);
