import v8 from 'node:v8';
import vm from 'node:vm';
import { gql } from '@apollo/client';
import { describe, expect, it } from 'vitest';
import { PAGES_PER_CLIENT, pageClients } from '../../web/src/apollo/page-client.js';

/**
 * The server draws every page with a shared Apollo client (web/src/entry-server.tsx). A crawler's
 * pass over the product pages must not leave the process holding something for every product it
 * drew: what the cache keeps per field read through a field policy is let go with the client.
 */

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function used(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const ProductPage = gql`
  query ProductPage($id: Int!) {
    product(id: $id) {
      id
      name
    }
  }
`;

/** Draws `pages` product pages as entry-server does (the page's data written, then read) and answers the bytes each left behind. */
function retainedPerPage(next: () => ReturnType<ReturnType<typeof pageClients>>, first: number, pages: number): number {
  const before = used();
  for (let id = first; id < first + pages; id++) {
    const client = next();
    client.cache.writeQuery({ query: ProductPage, variables: { id }, data: { product: { __typename: 'Product', id, name: `Album ${id}` } } });
    expect(client.cache.readQuery<{ product: { name: string } }>({ query: ProductPage, variables: { id } })?.product.name).toBe(`Album ${id}`);
  }
  return (used() - before) / pages;
}

describe('the client server-drawn pages share', () => {
  it('empties itself before each page and is replaced every so many pages', () => {
    const next = pageClients(3);
    const first = next();
    first.cache.writeQuery({ query: ProductPage, variables: { id: 1 }, data: { product: { __typename: 'Product', id: 1, name: 'Album 1' } } });
    expect(next()).toBe(first);
    // The page before left nothing to read.
    expect(first.cache.readQuery({ query: ProductPage, variables: { id: 1 } })).toBeNull();
    expect(next()).toBe(first);
    expect(next()).not.toBe(first);
  });

  it('keeps nothing per product page drawn, however many are drawn', () => {
    const pages = 6 * PAGES_PER_CLIENT;
    const next = pageClients();
    // Warmed up first: the documents' transforms and the first client are made once.
    retainedPerPage(next, 1, PAGES_PER_CLIENT);
    const replaced = retainedPerPage(next, 100_000, pages);
    // One client kept for good (the process's old behaviour) holds a storage object for every product.
    const kept = pageClients(Infinity);
    retainedPerPage(kept, 1, PAGES_PER_CLIENT);
    const forGood = retainedPerPage(kept, 100_000, pages);
    console.log(`bytes kept a page: ${replaced.toFixed(0)} with a client replaced every ${PAGES_PER_CLIENT} pages, ${forGood.toFixed(0)} with one client for good`);
    expect(forGood).toBeGreaterThan(150);
    expect(replaced).toBeLessThan(forGood / 3);
  });
});
