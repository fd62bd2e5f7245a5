import { useApolloClient, useMutation } from '@apollo/client/react';
import type { Location } from 'react-router-dom';
import { graphql } from '../apollo/generated';
import { refreshSettings } from '../settings/refresh-settings';
import { authStore } from './auth-store';

export const LoginMutation = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      token
    }
  }
`);

export const RegisterMutation = graphql(`
  mutation Register($input: RegisterInput!) {
    register(input: $input) {
      message
      user {
        id
        username
      }
    }
  }
`);

/** Where the shopper was before the sign-in page (a link or a guarded page says so), else home. */
export function returnPath(location: Location): string {
  const from = (location.state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/login') ? from : '/';
}

/** Signs in with the credentials, remembered in this browser when asked; then the settings that follow. */
export function useSignIn() {
  const client = useApolloClient();
  const [login, { loading }] = useMutation(LoginMutation);
  const signIn = async (input: { username: string; password: string; remember: boolean }) => {
    const { data } = await login({ variables: { input } });
    if (!data) throw new Error('Login failed');
    authStore.login(data.login.token);
    await refreshSettings(client);
  };
  return { signIn, loading };
}
