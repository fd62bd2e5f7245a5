import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCategory, uploadMedia, type RestFile } from '../helpers/catalogue-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Anonymous storefront reads already in the read cache are answered ahead of Express: the same
 * status, headers and bytes as the Express route gives for the same request (compared against the
 * very same app served by Express alone), 304s and HEAD included; anything with a token never takes
 * that path, and a write or the under-construction switch is seen by the very next read.
 */

let app: TestApp;
/** The same app (same services, same cache) served by Express alone, without the fast path in front. */
let plain: http.Server;
let plainUrl: string;
let admin: string;
let images: RestFile[];
let shelf: number;
let album: number;
let card: number;

const PRODUCT_QUERY = 'query Product($id: Int!) { product(id: $id) { id name tags mainImagePath eGreetingCard { fontName song1 { id filePath } } } }';

interface Raw {
  status: number;
  /** Header names and values in the order they were sent, without Date. */
  headers: string[];
  body: Buffer;
}

function raw(base: string, pathname: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + pathname, { method: init.method ?? 'GET', headers: { 'x-request-id': 'same-id', ...init.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i]!.toLowerCase() !== 'date') headers.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const header = (reply: Raw, name: string) => {
  const index = reply.headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name);
  return index < 0 ? undefined : reply.headers[index + 1];
};
const served = () => Object.values(app.cachedReads!.stats.served).reduce((sum, n) => sum + n, 0);

/** The headers with the values of RateLimit-Remaining and RateLimit-Reset left out (the names and their places kept). */
const countless = (headers: string[]) => headers.map((h, i) => (i % 2 === 1 && /^ratelimit-(remaining|reset)$/i.test(headers[i - 1]!) ? '…' : h));

/** The request through the fast path (it must take it) and through Express alone: the same answer, byte for byte. */
async function sameBothWays(pathname: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  const before = served();
  const fast = await raw(app.url, pathname, init);
  expect(served(), `${init.method ?? 'GET'} ${pathname} ${JSON.stringify(init.headers ?? {})} from the cache`).toBe(before + 1);
  const slow = await raw(plainUrl, pathname, init);
  expect(served()).toBe(before + 1);
  expect(fast.status).toBe(slow.status);
  // The count of the client's API requests goes down by one from the one answer to the other.
  expect(countless(fast.headers)).toEqual(countless(slow.headers));
  expect(fast.body.equals(slow.body)).toBe(true);
  return fast;
}

const gqlPath = (query: string, variables: Record<string, unknown>) => {
  const hash = crypto.createHash('sha256').update(query).digest('hex');
  return `/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables), extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }) })}`;
};
const GQL = { 'apollo-require-preflight': 'true' };

beforeAll(async () => {
  app = await startTestApp();
  plain = http.createServer(app.gateway!);
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  admin = await app.login();
  ({ images } = await uploadMedia(app, admin, { images: 2, songs: 0, folder: 'Fast art' }));
  shelf = await restCategory(app, admin, 'Fast shelf');
  const create = (product: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    app.request('/api/products', { method: 'POST', token: admin, json: { product, ...extra } }).then(async (res) => (await res.json()).product.id as number);
  album = await create({ name: 'Quick Album', price: 9.99, category_id: shelf, product_type_id: 2, main_image_id: images[0]!.id }, { tags: ['fast'] });
  // A long description makes the answer big enough to be compressed.
  card = await create({ name: 'Quick Card', price: 4.99, category_id: shelf, product_type_id: 1, main_image_id: images[1]!.id, description: 'A song for you. '.repeat(120) }, {
    e_greeting_card_data: { font_name: 'Lato', cover_image_id: images[1]!.id },
  });
});
afterAll(async () => {
  await new Promise((resolve) => plain?.close(resolve));
  await app?.stop();
});

describe('cached reads ahead of Express', () => {
  it('answer exactly as the Express route does: every storefront read, every encoding, GET and HEAD', async () => {
    const reads = [`/api/products/${album}`, `/api/products/${card}`, `/api/products/category/${shelf}`, '/api/categories/all', `/api/products/${album}?utm=1`];
    for (const path of reads) expect((await raw(plainUrl, path)).status, path).toBe(200); // fills the cache
    expect((await raw(plainUrl, '/api/settings')).status).toBe(200);
    for (const path of reads) {
      for (const encoding of [undefined, 'br', 'gzip, deflate', 'gzip, deflate, br, zstd']) {
        const headers = encoding ? { 'accept-encoding': encoding } : undefined;
        const got = await sameBothWays(path, { headers });
        expect(got.status).toBe(200);
        expect(header(got, 'cache-control')).toBe('public, max-age=0, s-maxage=5');
        expect(header(got, 'content-security-policy')).toContain("default-src 'self'");
        expect(header(got, 'x-request-id')).toBe('same-id');
        const head = await sameBothWays(path, { method: 'HEAD', headers });
        expect(head.body.length).toBe(0);
        expect(header(head, 'content-length')).toBe(header(got, 'content-length'));
      }
    }
    // The big card answer goes out compressed, the small album one as it is.
    expect(header(await raw(app.url, `/api/products/${card}`, { headers: { 'accept-encoding': 'br' } }), 'content-encoding')).toBe('br');
    expect(header(await raw(app.url, `/api/products/${album}`, { headers: { 'accept-encoding': 'br' } }), 'content-encoding')).toBeUndefined();

    const gql = gqlPath(PRODUCT_QUERY, { id: card });
    expect((await raw(plainUrl, gql, { headers: GQL })).status).toBe(200);
    for (const encoding of [undefined, 'br', 'gzip']) await sameBothWays(gql, { headers: { ...GQL, ...(encoding ? { 'accept-encoding': encoding } : {}) } });
    expect(JSON.parse((await raw(app.url, gql, { headers: GQL })).body.toString()).data.product.name).toBe('Quick Card');

    const settings = await sameBothWays('/api/settings');
    expect(JSON.parse(settings.body.toString())).toEqual({ underConstructionMode: 'false', isAdmin: 'false', shopName: 'Art & Song Cards', announcement: null });
    expect(header(settings, 'cache-control')).toBe('private, no-store');
    await sameBothWays('/api/settings', { method: 'HEAD' });
  });

  it('answer 304 when the caller already has the answer, as Express does', async () => {
    for (const path of [`/api/products/${card}`, `/api/products/category/${shelf}`, '/api/categories/all']) {
      const etag = header(await raw(app.url, path), 'etag')!;
      const got = await sameBothWays(path, { headers: { 'if-none-match': etag } });
      expect(got.status).toBe(304);
      expect(got.body.length).toBe(0);
      expect(header(got, 'etag')).toBe(etag);
      await sameBothWays(path, { headers: { 'if-none-match': `"other", ${etag}` } });
      expect((await sameBothWays(path, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    }
  });

  it('never take a request with a token, a write, a GraphQL HEAD, or an address spelled otherwise', async () => {
    const path = `/api/products/${album}`;
    await raw(app.url, path);
    const before = served();
    const authorized = await raw(app.url, path, { headers: { authorization: `Bearer ${admin}` } });
    expect(authorized.status).toBe(200);
    expect(header(authorized, 'cache-control')).toBe('private, no-store');
    expect(header(await raw(app.url, path, { headers: { authorization: 'Bearer not-a-token' } }), 'cache-control')).toBe('private, no-store');
    const settings = JSON.parse((await raw(app.url, '/api/settings', { headers: { authorization: `Bearer ${admin}` } })).body.toString());
    expect(settings.isAdmin).toBe('true');
    expect((await raw(app.url, `${path}/`)).status).toBe(200);
    expect((await raw(app.url, `/api/products/0${album}`)).status).toBe(404);
    await raw(app.url, gqlPath(PRODUCT_QUERY, { id: card }), { method: 'HEAD', headers: GQL });
    // A GET with a body is Express's: its JSON parser refuses a malformed one.
    const withBody = { headers: { 'content-type': 'application/json', 'content-length': '5' }, body: '{oops' };
    expect((await raw(app.url, path, withBody)).status).toBe(400);
    expect((await raw(app.url, path, { headers: { 'content-length': '0' } })).status).toBe(200); // this one is answered from the cache
    expect(served()).toBe(before + 1);
    // Without the CSRF header a GraphQL GET is refused by Apollo, even when its answer is cached.
    expect((await raw(app.url, gqlPath(PRODUCT_QUERY, { id: card }))).status).toBe(400);
    expect(served()).toBe(before + 1);
  });

  it('show a write at once, to REST and GraphQL alike', async () => {
    const gql = gqlPath(PRODUCT_QUERY, { id: album });
    await raw(app.url, `/api/products/${album}`);
    await raw(app.url, gql, { headers: GQL });
    const cachedBefore = served();
    await raw(app.url, `/api/products/${album}`);
    expect(served()).toBe(cachedBefore + 1);

    const res = await app.request(`/api/products/${album}`, { method: 'PUT', token: admin, json: { product: { name: 'Quicker Album' } } });
    expect(res.status).toBe(200);
    const rest = await raw(app.url, `/api/products/${album}`);
    expect(JSON.parse(rest.body.toString()).product.name).toBe('Quicker Album');
    expect(JSON.parse((await raw(app.url, gql, { headers: GQL })).body.toString()).data.product.name).toBe('Quicker Album');
    expect(JSON.parse((await sameBothWays(`/api/products/${album}`)).body.toString()).product.name).toBe('Quicker Album');
  });

  it('lock shoppers out at once when the shop goes under construction, and let them in again', async () => {
    const path = `/api/products/${album}`;
    await raw(app.url, path);
    const setConstruction = (on: boolean) => app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: on ? 'true' : 'false' } });
    expect((await setConstruction(true)).status).toBe(200);
    try {
      expect((await raw(app.url, path)).status).toBe(503);
      expect((await raw(app.url, path)).status).toBe(503);
      expect((await raw(app.url, gqlPath(PRODUCT_QUERY, { id: card }), { headers: GQL })).status).toBe(503);
      const settings = await sameBothWays('/api/settings');
      expect(JSON.parse(settings.body.toString()).underConstructionMode).toBe('true');
    } finally {
      expect((await setConstruction(false)).status).toBe(200);
    }
    expect((await raw(app.url, path)).status).toBe(200);
    expect((await sameBothWays(path)).status).toBe(200);
  });

  it('answer pages exactly as the Express routes do, every encoding and theme, GET and HEAD', async () => {
    const pages = ['/', '/shop', `/shop?category=${shelf}`, `/product/${card}`, `/product/${album}?utm_source=mail`, '/blog', '/de', `/fr/product/${card}`];
    for (const path of pages) {
      for (const cookie of [undefined, 'theme=light']) {
        const base = { accept: 'text/html', ...(cookie ? { cookie } : {}) };
        expect((await raw(plainUrl, path, { headers: base })).status, path).toBe(200); // fills the cache
        for (const encoding of [undefined, 'br', 'gzip, deflate', 'br;q=0, gzip']) {
          const headers = { ...base, ...(encoding ? { 'accept-encoding': encoding } : {}) };
          const got = await sameBothWays(path, { headers });
          expect(got.status).toBe(200);
          expect(header(got, 'cache-control')).toBe('public, max-age=0, s-maxage=5');
          // The English home page sends some visitors to their language (by their browser's languages or their cookie).
          expect(header(got, 'vary')).toBe(path === '/' ? 'Accept-Encoding, Accept-Language, Cookie' : 'Accept-Encoding, Cookie');
          const head = await sameBothWays(path, { method: 'HEAD', headers });
          expect(header(head, 'content-length')).toBe(header(got, 'content-length'));
          const etag = header(got, 'etag')!;
          expect((await sameBothWays(path, { headers: { ...headers, 'if-none-match': etag } })).status).toBe(304);
        }
      }
    }
    // What asks for JSON, or carries a token, is Express's alone.
    const before = served();
    expect((await raw(app.url, `/product/${card}`, { headers: { accept: 'application/json' } })).status).toBe(404);
    expect((await raw(app.url, `/product/${card}`, { headers: { accept: 'text/html', authorization: `Bearer ${admin}` } })).status).toBe(200);
    expect(served()).toBe(before);
  });

  it('step aside while the change feed is down', async () => {
    const path = `/api/products/${album}`;
    await raw(app.url, path);
    app.services.cache.setActive(false);
    try {
      const before = served();
      expect((await raw(app.url, path)).status).toBe(200);
      expect((await raw(app.url, '/api/settings')).status).toBe(200);
      expect(served()).toBe(before);
    } finally {
      app.services.cache.setActive(true);
    }
  });
});
