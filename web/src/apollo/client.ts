import { ApolloClient, ApolloLink, CombinedGraphQLErrors, InMemoryCache } from '@apollo/client';
import { ErrorLink } from '@apollo/client/link/error';
import { SetContextLink } from '@apollo/client/link/context';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Kind, type OperationDefinitionNode } from 'graphql';
import UploadHttpLink from 'apollo-upload-client/UploadHttpLink.mjs';
import { authStore } from '../auth/auth-store';
import { pageLocale } from '../i18n/page-intl';
import { typePolicies } from './type-policies';

/**
 * Every request carries the session token when there is one, and the page's language: the e-mails a
 * request asks for (a password reset, an address to confirm) speak it.
 */
const authLink = new SetContextLink((prev) => {
  const { token } = authStore.getState();
  const headers = { ...prev.headers, 'accept-language': pageLocale() };
  return { headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers };
});

/**
 * A token the server no longer honours (signed out everywhere, a new password, the session's cookie
 * copied): the tab signs out, and a page that needs a signed-in user goes to the sign-in page.
 */
const endedSessionLink = new ErrorLink(({ error, operation }) => {
  const sentToken = Boolean((operation.getContext().headers as Record<string, string> | undefined)?.authorization);
  if (sentToken && CombinedGraphQLErrors.is(error) && error.errors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')) authStore.logout();
});

/** GraphQL over HTTP, with multipart uploads (which must announce themselves for CSRF protection). */
const httpLink = new UploadHttpLink({ uri: '/graphql', headers: { 'Apollo-Require-Preflight': 'true' } });

/** The SHA-256 of a query, hex (WebCrypto: present on https and on localhost). */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const isQuery = (operation: ApolloLink.Operation) =>
  operation.query.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && (d as OperationDefinitionNode).operation === 'query');

/**
 * Queries go as automatic persisted queries by GET (a hash instead of the text once the server knows
 * it), so that the storefront's reads are cacheable like REST ones; mutations (uploads among them)
 * go by POST as they are.
 */
const queryLink =
  typeof crypto !== 'undefined' && crypto.subtle
    ? ApolloLink.split(isQuery, new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(httpLink), httpLink)
    : httpLink;

export const apolloClient = new ApolloClient({
  link: ApolloLink.from([authLink, endedSessionLink, queryLink]),
  cache: new InMemoryCache({ typePolicies }),
});
