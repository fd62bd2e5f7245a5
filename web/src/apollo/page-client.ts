import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { typePolicies } from './type-policies';

/** How many pages one client draws before a fresh one replaces it. */
export const PAGES_PER_CLIENT = 500;

/**
 * The Apollo clients server-drawn pages are drawn with (entry-server.tsx): one client for many pages,
 * emptied before each, so that the documents' transforms are worked out once per client rather than
 * once per page. Drawing is synchronous from the moment the page's data is written, so no two pages
 * share it at once. Each page's data is read once, so the cache's result caching (dependency
 * tracking for repeated reads) would only cost.
 *
 * Emptied by evicting the root query and collecting what it held, not by `cache.reset()`: a reset
 * also drops the cache's document transforms, and every page then transformed its documents again
 * (a tenth of a product page's drawing). Nothing watches this cache: effects do not run on the server.
 *
 * A fresh client every `pagesPerClient` pages: the cache keeps a storage object for every field a
 * field policy reads, per field and arguments (`product({"id":12})`: one for every product whose
 * page was drawn), and neither eviction nor collection gives it back. A crawl of 10,000 product pages
 * left about 10,000 of them; a shop of 100,000 products would have kept tens of MiB.
 */
export function pageClients(pagesPerClient = PAGES_PER_CLIENT): () => ApolloClient {
  let client: ApolloClient | null = null;
  let drawn = 0;
  return () => {
    if (!client || drawn >= pagesPerClient) {
      client = new ApolloClient({ ssrMode: true, link: ApolloLink.empty(), cache: new InMemoryCache({ typePolicies, resultCaching: false }) });
      drawn = 0;
    } else {
      client.cache.evict({ id: 'ROOT_QUERY', broadcast: false });
      client.cache.gc();
    }
    drawn++;
    return client;
  };
}
