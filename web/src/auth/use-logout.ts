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

export const SignOutEverywhereMutation = graphql(`
  mutation SignOutEverywhere {
    signOutEverywhere
  }
`);

/**
 * "Sign out everywhere": ends every session of the user on the server (every device, each browser
 * that keeps them signed in, this one too), then signs this tab out and goes to the sign-in page.
 * Throws when the server did not do it (the tab stays signed in).
 */
export function useSignOutEverywhere() {
  const client = useApolloClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await client.mutate({ mutation: SignOutEverywhereMutation });
    authStore.logout();
    await client.clearStore();
    navigate('/login', { replace: true });
  }, [client, navigate]);
}
