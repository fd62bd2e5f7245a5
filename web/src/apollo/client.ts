import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import UploadHttpLink from 'apollo-upload-client/UploadHttpLink.mjs';
import { authStore } from '../app/auth-store';
import { typePolicies } from './type-policies';

/** Every request carries the session token when there is one. */
const authLink = new SetContextLink((prev) => {
  const { token } = authStore.getState();
  return token ? { headers: { ...prev.headers, authorization: `Bearer ${token}` } } : {};
});

/** GraphQL over HTTP, with multipart uploads (which must announce themselves for CSRF protection). */
const httpLink = new UploadHttpLink({ uri: '/graphql', headers: { 'Apollo-Require-Preflight': 'true' } });

export const apolloClient = new ApolloClient({
  link: ApolloLink.from([authLink, httpLink]),
  cache: new InMemoryCache({ typePolicies }),
});
