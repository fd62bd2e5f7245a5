import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApolloProvider } from '@apollo/client/react';
import { BlueprintProvider } from '@blueprintjs/core';
import '@blueprintjs/core/lib/css/blueprint.css';
import './app/app.css';
import { apolloClient } from './apollo/client';
import { authStore } from './app/auth-store';
import { applyTheme, readTheme } from './app/theme';
import { App } from './app/App';
import { setUpIcons } from './app/icons';
import { applyInitialState, readInitialState } from './app/initial-state';

setUpIcons();
applyTheme(readTheme());
authStore.restore();
applyInitialState(apolloClient, readInitialState());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={apolloClient}>
      <BlueprintProvider>
        <App />
      </BlueprintProvider>
    </ApolloProvider>
  </StrictMode>,
);
