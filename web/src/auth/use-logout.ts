import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApolloClient } from '@apollo/client/react';
import { graphql } from '../apollo/generated';
import { authStore } from './auth-store';

export const LogoutMutation = graphql(`
  mutation Logout {
    logout
  }
`);

/** Revokes the token on the server (best effort), clears the session, and goes home. */
export function useLogout() {
  const client = useApolloClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await client.mutate({ mutation: LogoutMutation }).catch(() => undefined);
    authStore.logout();
    await client.clearStore();
    navigate('/');
  }, [client, navigate]);
}
