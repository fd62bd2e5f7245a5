import type { FieldPolicy, TypePolicies } from '@apollo/client';

interface ConnectionShape {
  edges: unknown[];
  [key: string]: unknown;
}

/**
 * A cursor connection kept as one growing list per set of `keyArgs`: a page fetched with `after`
 * is appended, a first page replaces what was there.
 */
function connection(keyArgs: string[]): FieldPolicy<ConnectionShape> {
  return {
    keyArgs,
    merge(existing, incoming, { args }) {
      if (!existing || !args?.after) return incoming;
      return { ...incoming, edges: [...existing.edges, ...incoming.edges] };
    },
  };
}

/** Cache policies: singletons without ids are merged, paged lists are merged page by page. */
export const typePolicies: TypePolicies = {
  Settings: { keyFields: [] },
  // A group card is known by its signing token: a change answered by a mutation shows wherever the card is.
  GroupCardDetails: { keyFields: ['signingToken'] },
  Query: {
    fields: {
      blogPosts: connection(['status']),
      mediaFiles: connection(['folderId', 'kind']),
      allMediaFiles: connection(['kind']),
      products: connection(['categoryId']),
      myOrders: connection([]),
      contacts: connection(['search']),
      webhookDeliveries: connection(['endpointId']),
      searchProducts: connection(['query', 'categoryId', 'productTypeId', 'sort', 'minPrice', 'maxPrice', 'onSale']),
      // A product already in the cache (from a list or a save) is read from there.
      product: { read: (existing, { args, toReference }) => existing ?? (args?.id ? toReference({ __typename: 'Product', id: args.id }) : undefined) },
    },
  },
};
