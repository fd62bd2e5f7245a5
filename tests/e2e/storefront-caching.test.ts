import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, newContext } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite();

interface GraphqlCall {
  method: string;
  hashOnly: boolean;
  status: number;
  cacheControl: string | null;
  etag: string | null;
  operation: string | null;
}

/** Every GraphQL request the page makes, as it went out and came back. */
function recordGraphql(page: Page): GraphqlCall[] {
  const calls: GraphqlCall[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/graphql') return;
    const request = response.request();
    const headers = response.headers();
    calls.push({
      method: request.method(),
      hashOnly: request.method() === 'GET' && url.searchParams.has('extensions') && !url.searchParams.has('query'),
      status: response.status(),
      cacheControl: headers['cache-control'] ?? null,
      etag: headers['etag'] ?? null,
      operation: url.searchParams.get('operationName'),
    });
  });
  return calls;
}

/** From the home page to the shop and a product, clicking as a shopper does (the client fetches as it goes). */
async function browse(page: Page, productName: string): Promise<void> {
  await page.goto('/');
  await expect.poll(() => page.getByRole('heading', { name: 'Art & Song Cards' }).isVisible(), { timeout: 15_000 }).toBe(true);
  // The app has taken the server-drawn page over: from here on the client fetches as it navigates.
  // (boot.js marks the page not yet usable when it runs, and the app clears the mark; a click before
  // boot.js has run, or held longer than it waits, is followed by the browser as a page load.)
  await page.waitForFunction(
    () => 'storefrontReady' in window && !document.getElementById('root')?.hasAttribute('aria-disabled'),
    null,
    { timeout: 60_000 },
  );
  await page.getByRole('link', { name: 'Shop' }).first().click();
  // The shop's own tiles (while its screen loads, the home page and its featured tiles stay on view).
  await expect.poll(() => page.locator('.shop-page .product-tile').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  await page.locator('.shop-page .product-tile', { hasText: productName }).first().click();
  await expect.poll(() => page.getByRole('heading', { name: productName }).isVisible(), { timeout: 15_000 }).toBe(true);
}

describe('the storefront with persisted queries by GET', () => {
  it('asks its queries by GET with a hash, gets cacheable answers, and still shows every change at once', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    await seedShop(app, token);

    // A first shopper: the server learns the queries' texts (hash first, then hash and text).
    const first = await newContext(browser, app.url);
    const firstPage = await first.newPage();
    const firstCalls = recordGraphql(firstPage);
    await browse(firstPage, 'Balloon Birthday');
    expect(firstCalls.length).toBeGreaterThan(0);
    expect(firstCalls.filter((c) => c.method === 'GET').length).toBeGreaterThan(0);
    await first.close();

    // A second shopper's queries go as bare hashes by GET and come back public, with an ETag.
    const second = await newContext(browser, app.url);
    const page = await second.newPage();
    const calls = recordGraphql(page);
    await browse(page, 'Balloon Birthday');
    const hashed = calls.filter((c) => c.hashOnly && c.status === 200);
    expect(hashed.length, JSON.stringify(calls)).toBeGreaterThan(0);
    expect(calls.every((c) => c.status === 200), JSON.stringify(calls)).toBe(true);
    expect(hashed.some((c) => c.cacheControl?.startsWith('public') && c.etag), JSON.stringify(calls)).toBe(true);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // The catalogue's queries (fragments included) are public whichever way the server first learned them.
    const catalogue = hashed.filter((c) => c.operation === 'ShopProducts' || c.operation === 'StoreProduct');
    expect(catalogue.map((c) => c.operation).sort(), JSON.stringify(calls)).toEqual(['ShopProducts', 'StoreProduct']);
    expect(catalogue.every((c) => c.cacheControl?.startsWith('public') && c.etag), JSON.stringify(calls)).toBe(true);

    // An admin renames the card: the next shopper who browses there sees the new name.
    const [product] = await app.sql<{ id: number }>(`select id from product where name = 'Balloon Birthday'`);
    expect((await app.request(`/api/products/${product!.id}`, { method: 'PUT', token, json: { product: { name: 'Balloon Birthday Deluxe' } } })).status).toBe(200);
    const third = await newContext(browser, app.url);
    await browse(await third.newPage(), 'Balloon Birthday Deluxe');
    await third.close();
    await second.close();
  });
});
