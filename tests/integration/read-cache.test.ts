import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCategory, uploadMedia, type RestFile } from '../helpers/catalogue-fixtures.js';
import { isGateRead } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The storefront read cache and HTTP caching: each read is one query (none when cached), every write
 * path drops what it changed for REST and GraphQL alike, admin and personal answers are never public,
 * ETags give 304s, large answers go out compressed, and without its change feed the cache steps aside.
 */

// ---- counting the queries the app sends (the app runs in this process; the ORM may bring its own `pg`) ----
let counting = false;
let queries: string[] = [];
const require = createRequire(import.meta.url);
const ormPg = path.resolve('node_modules/@mikro-orm/postgresql/node_modules/pg');
const clients = new Set<typeof pg.Client>([pg.Client, ...(fs.existsSync(ormPg) ? [(require(ormPg) as typeof pg).Client] : [])]);
for (const Client of clients) {
  const originalQuery = Client.prototype.query;
  Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (counting) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      // Not the API's request count either: its writes are batched across requests (tests/integration/api-rate-limits.test.ts).
      if (text && !/pg_notify|LISTEN|"rate_limit"/i.test(text)) queries.push(text);
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}

async function queriesOf(work: () => Promise<unknown>): Promise<string[]> {
  queries = [];
  counting = true;
  try {
    await work();
  } finally {
    counting = false;
  }
  return queries;
}

let app: TestApp;
let admin: string;
let images: RestFile[];
let songs: RestFile[];
let shelf: number;
let album: number;
let card: number;

const post = (path: string, json: unknown) => app.request(path, { method: 'POST', json, token: admin });
const put = (path: string, json: unknown) => app.request(path, { method: 'PUT', json, token: admin });
const del = (path: string) => app.request(path, { method: 'DELETE', token: admin });
const getJson = async (path: string, headers: Record<string, string> = {}) => {
  const res = await app.request(path, { headers });
  expect(res.status, path).toBe(200);
  return res.json();
};

const PRODUCT_QUERY = 'query Product($id: Int!) { product(id: $id) { id name tags associatedImages { id friendlyName } mainImagePath eGreetingCard { fontName song1 { id } } } }';
const PAGE_QUERY = 'query Page($categoryId: Int!) { products(categoryId: $categoryId, first: 20) { edges { node { id name } } } }';
const TREE_QUERY = '{ categories { id name } }';
const TYPES_QUERY = '{ productTypes { id name } }';

/** A storefront GraphQL query by GET, as the web client sends it. */
function gqlGet(query: string, variables: Record<string, unknown> = {}, init: { token?: string; headers?: Record<string, string>; hashOnly?: boolean } = {}) {
  const hash = crypto.createHash('sha256').update(query).digest('hex');
  const params = new URLSearchParams({ variables: JSON.stringify(variables), extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }) });
  if (!init.hashOnly) params.set('query', query);
  return app.request(`/graphql?${params}`, { token: init.token, headers: { 'apollo-require-preflight': 'true', ...init.headers } });
}
async function gqlData<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await gqlGet(query, variables);
  const body = await res.json();
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  ({ images, songs } = await uploadMedia(app, admin, { images: 4, songs: 2, folder: 'Cache art' }));
  shelf = await restCategory(app, admin, 'Shelf');
  const albumRes = await post('/api/products', { product: { name: 'Blue Album', price: 9.99, category_id: shelf, product_type_id: 2, main_image_id: images[0]!.id }, tags: ['blue'], associated_image_ids: [images[1]!.id] });
  album = (await albumRes.json()).product.id;
  const cardRes = await post('/api/products', {
    product: { name: 'Birthday Card', price: 4.99, category_id: shelf, product_type_id: 1, main_image_id: images[2]!.id },
    e_greeting_card_data: { font_name: 'Open Sans', song_1_id: songs[0]!.id, cover_image_id: images[3]!.id },
  });
  card = (await cardRes.json()).product.id;
});
afterAll(async () => {
  await app?.stop();
});

describe('lean reads', () => {
  it('answer each storefront read in one query, and from memory the second time', async () => {
    await app.request('/api/settings'); // the storefront switch, cached from here on
    for (const path of [`/api/products/${card}`, `/api/products/category/${shelf}`, '/api/categories/all']) {
      const first = await queriesOf(() => getJson(path));
      expect(first, path).toHaveLength(1);
      expect(await queriesOf(() => getJson(path)), path).toEqual([]);
    }
    await gqlData(PRODUCT_QUERY, { id: card });
    expect(await queriesOf(() => gqlData(PRODUCT_QUERY, { id: card }))).toEqual([]);
  });

  it('read a product for GraphQL in one query, every field of it, as the lists (entities and batch loaders) read it', async () => {
    const media = 'id fileName filePath friendlyName mimeType size width height thumbnailPath createdAt folderId kind srcSet';
    const fields = `id name description sku price tags createdAt updatedAt categoryId productTypeId mainImageId mainImagePath mainImageThumbnailPath
      productType { id name } mainImage { ${media} } associatedImages { ${media} }
      eGreetingCard { messageLocation fontName song1 { ${media} } song2 { ${media} } song3 { ${media} } coverImage { ${media} } greetingImage { ${media} }
        backImage { ${media} } extraImage1 { ${media} } extraImage2 { ${media} } extraImage3 { ${media} } }`;
    for (const id of [album, card]) {
      // With a token: nothing comes from the cache.
      let one: any;
      const sql = await queriesOf(async () => (one = await app.graphql(`query($id: Int!) { product(id: $id) { ${fields} } }`, { id }, admin)));
      expect(one.body.errors).toBeUndefined();
      expect(sql.filter((text) => !/rate_limit|auth_session|"user"/.test(text) && !isGateRead(text))).toHaveLength(1);
      const list = await app.graphql(`query($c: Int!) { products(categoryId: $c, first: 3) { edges { node { ${fields} } } } }`, { c: shelf }, admin);
      expect(list.body.errors, JSON.stringify(list.body.errors)).toBeUndefined();
      const fromList = list.body.data.products.edges.map((e: { node: { id: number } }) => e.node).find((node: { id: number }) => node.id === id);
      expect(one.body.data.product).toEqual(fromList);
    }
    const two = await queriesOf(() => app.graphql(`{ a: product(id: ${album}) { id associatedImages { id } } b: product(id: ${card}) { id eGreetingCard { song1 { id } } } }`, {}, admin));
    expect(two.filter((text) => !/rate_limit|auth_session|"user"/.test(text) && !isGateRead(text))).toHaveLength(1);
  });

  it('keep a missing product or category a 404, and cache nothing public for it', async () => {
    const res = await app.request('/api/products/999999');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect((await app.request('/api/products/category/999999')).status).toBe(404);
  });
});

describe('invalidation on every write path, over REST and GraphQL', () => {
  it('product fields, tags, images and card data', async () => {
    await getJson(`/api/products/${card}`);
    await gqlData(PRODUCT_QUERY, { id: card });
    expect((await put(`/api/products/${card}`, { product: { name: 'Birthday Card II' }, tags: ['party'], associated_image_ids: [images[0]!.id], e_greeting_card_data: { font_name: 'Lato', song_1_id: songs[1]!.id } })).status).toBe(200);
    const rest = await getJson(`/api/products/${card}`);
    expect(rest.product.name).toBe('Birthday Card II');
    expect(rest.tags).toEqual(['party']);
    expect(rest.associated_images.map((i: { media_id: number }) => i.media_id)).toEqual([images[0]!.id]);
    expect(rest.e_greeting_card_data).toMatchObject({ font_name: 'Lato', song_1_id: songs[1]!.id });
    const { product } = await gqlData(PRODUCT_QUERY, { id: card });
    expect(product).toMatchObject({ name: 'Birthday Card II', tags: ['party'], associatedImages: [{ id: images[0]!.id }], eGreetingCard: { fontName: 'Lato', song1: { id: songs[1]!.id } } });
  });

  it('product create, move and delete reach category lists and pages', async () => {
    await getJson(`/api/products/category/${shelf}`);
    await gqlData(PAGE_QUERY, { categoryId: shelf });
    const other = await restCategory(app, admin, 'Other shelf');
    await getJson(`/api/products/category/${other}`);
    const created = (await (await post('/api/products', { product: { name: 'Aqua Album', price: 5, category_id: shelf, product_type_id: 2 } })).json()).product.id;
    expect((await getJson(`/api/products/category/${shelf}`)).map((p: { name: string }) => p.name)).toContain('Aqua Album');
    expect((await gqlData(PAGE_QUERY, { categoryId: shelf })).products.edges.map((e: { node: { id: number } }) => e.node.id)).toContain(created);

    expect((await put(`/api/products/${created}`, { product: { category_id: other } })).status).toBe(200);
    expect((await getJson(`/api/products/category/${shelf}`)).map((p: { id: number }) => p.id)).not.toContain(created);
    expect((await getJson(`/api/products/category/${other}`)).map((p: { id: number }) => p.id)).toEqual([created]);

    await getJson(`/api/products/${created}`);
    expect((await del(`/api/products/${created}`)).status).toBe(204);
    expect((await app.request(`/api/products/${created}`)).status).toBe(404);
    expect(await getJson(`/api/products/category/${other}`)).toEqual([]);
    const gone = await (await gqlGet(PRODUCT_QUERY, { id: created })).json();
    expect(gone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('category create, rename and delete reach the tree', async () => {
    await getJson('/api/categories/all');
    await gqlData(TREE_QUERY);
    const id = await restCategory(app, admin, 'Fleeting');
    expect((await getJson('/api/categories/all')).map((c: { id: number }) => c.id)).toContain(id);
    expect((await put(`/api/categories/${id}`, { name: 'Renamed' })).status).toBe(200);
    expect((await getJson('/api/categories/all')).find((c: { id: number }) => c.id === id).name).toBe('Renamed');
    expect((await gqlData(TREE_QUERY)).categories.find((c: { id: number }) => c.id === id).name).toBe('Renamed');
    expect((await del(`/api/categories/${id}`)).status).toBe(204);
    expect((await getJson('/api/categories/all')).map((c: { id: number }) => c.id)).not.toContain(id);
    expect((await gqlData(TREE_QUERY)).categories.map((c: { id: number }) => c.id)).not.toContain(id);
  });

  it('product types', async () => {
    await gqlData(TYPES_QUERY);
    const type = await (await post('/api/product_types', { name: 'Posters' })).json();
    expect((await gqlData(TYPES_QUERY)).productTypes.map((t: { name: string }) => t.name)).toContain('Posters');
    expect((await put(`/api/product_types/${type.id}`, { name: 'Prints' })).status).toBe(200);
    expect((await gqlData(TYPES_QUERY)).productTypes.map((t: { name: string }) => t.name)).toContain('Prints');
  });

  it('media renames and deletes', async () => {
    const before = await getJson(`/api/products/${album}`);
    expect(before.main_image_path).toBe(images[0]!.file_path);
    await gqlData(PRODUCT_QUERY, { id: album });
    expect((await put(`/api/media/files/${images[1]!.id}`, { friendly_name: 'Renamed picture' })).status).toBe(200);
    expect((await getJson(`/api/products/${album}`)).associated_images[0].friendly_name).toBe('Renamed picture');
    expect((await gqlData(PRODUCT_QUERY, { id: album })).product.associatedImages[0].friendlyName).toBe('Renamed picture');
    expect((await del(`/api/media/files/${images[1]!.id}`)).status).toBe(204);
    expect((await getJson(`/api/products/${album}`)).associated_images).toEqual([]);
    expect((await gqlData(PRODUCT_QUERY, { id: album })).product.associatedImages).toEqual([]);
  });

  it('the under-construction switch: shoppers are locked out of cached answers at once, admins still read', async () => {
    await getJson(`/api/products/${album}`);
    await gqlData(PRODUCT_QUERY, { id: album });
    try {
      expect((await put('/api/settings', { underConstructionMode: 'true' })).status).toBe(200);
      const rest = await app.request(`/api/products/${album}`);
      expect(rest.status).toBe(503);
      expect(rest.headers.get('retry-after')).toBe('3600');
      const graphql = await gqlGet(PRODUCT_QUERY, { id: album });
      expect(graphql.status).toBe(503);
      const asAdmin = await app.request(`/api/products/${album}`, { token: admin });
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.headers.get('cache-control')).toBe('private, no-store');
    } finally {
      expect((await put('/api/settings', { underConstructionMode: 'false' })).status).toBe(200);
    }
    expect((await app.request(`/api/products/${album}`)).status).toBe(200);
    expect((await gqlGet(PRODUCT_QUERY, { id: album })).status).toBe(200);
  });
});

describe('HTTP caching', () => {
  it('gives public storefront reads a strong ETag, a 304 when the caller has them, and shared-cache headers', async () => {
    for (const res of [await app.request(`/api/products/${card}`), await gqlGet(PRODUCT_QUERY, { id: card })]) {
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=\d+$/);
      expect(res.headers.get('cdn-cache-control')).toMatch(/^max-age=\d+, stale-while-revalidate=\d+$/);
    }
    const first = await app.request('/api/categories/all');
    const again = await app.request('/api/categories/all', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const gql = await gqlGet(PRODUCT_QUERY, { id: card });
    expect((await gqlGet(PRODUCT_QUERY, { id: card }, { headers: { 'if-none-match': gql.headers.get('etag')! } })).status).toBe(304);
    // A write changes the answer, and so its ETag: the old one no longer gets a 304.
    const oldTag = (await app.request(`/api/products/${card}`)).headers.get('etag')!;
    expect((await put(`/api/products/${card}`, { product: { description: 'New words' } })).status).toBe(200);
    const changed = await app.request(`/api/products/${card}`, { headers: { 'if-none-match': oldTag } });
    expect(changed.status).toBe(200);
    expect((await changed.json()).product.description).toBe('New words');
    expect(changed.headers.get('etag')).not.toBe(oldTag);
  });

  it('never marks admin or personal answers public: anything asked with a token is private, no-store', async () => {
    for (const path of [`/api/products/${card}`, '/api/categories/all', '/api/media/files/all', '/api/me', '/api/settings']) {
      const res = await app.request(path, { token: admin });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('private, no-store');
    }
    const gql = await gqlGet(PRODUCT_QUERY, { id: card }, { token: admin });
    expect(gql.headers.get('cache-control')).toBe('private, no-store');
    const mutation = await app.graphql('mutation { createCategory(input: { name: "Via GraphQL" }) { id } }', {}, admin);
    expect(mutation.headers.get('cache-control')).not.toMatch(/public/);
  });

  it('keeps drafts to admins: a draft post read by an admin is never served to a shopper', async () => {
    const created = await app.graphql('mutation($input: BlogPostInput!) { createBlogPost(input: $input) { id slug } }', { input: { title: 'Secret draft', body: 'Not yet' } }, admin);
    const slug = created.body.data!.createBlogPost.slug;
    const query = 'query Post($idOrSlug: String!) { blogPost(idOrSlug: $idOrSlug) { id title } }';
    const asAdmin = await (await gqlGet(query, { idOrSlug: slug }, { token: admin })).json();
    expect(asAdmin.data.blogPost.title).toBe('Secret draft');
    const shopper = await gqlGet(query, { idOrSlug: slug });
    const body = await shopper.json();
    expect(body.data?.blogPost ?? null).toBeNull();
    expect(shopper.headers.get('cache-control') ?? '').not.toMatch(/public/);
  });

  it('compresses JSON above 1 kB (br or gzip, as the caller accepts) and sends small answers as they are', async () => {
    for (let i = 0; i < 30; i++) await restCategory(app, admin, `Category with a fairly long name number ${i}`);
    const plain = await app.request('/api/categories/all', { headers: { 'accept-encoding': 'identity' } });
    const bytes = (await plain.arrayBuffer()).byteLength;
    expect(bytes).toBeGreaterThan(1024);
    const gzip = await app.request('/api/categories/all', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(Number(gzip.headers.get('content-length'))).toBeLessThan(bytes);
    const br = await app.request('/api/categories/all', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect((await br.json()).length).toBeGreaterThan(30);
    const small = await app.request(`/api/products/${album}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('takes queries by GET with a persisted-query hash once the server knows the text', async () => {
    const query = 'query Tree2 { categories { id } }';
    const unknown = await (await gqlGet(query, {}, { hashOnly: true })).json();
    expect(unknown.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await (await gqlGet(query)).json()).data.categories.length).toBeGreaterThan(1);
    const known = await gqlGet(query, {}, { hashOnly: true });
    expect(known.status).toBe(200);
    expect((await known.json()).data.categories.length).toBeGreaterThan(1);
    // A text learnt by POST (as the client's retry sends it) makes later hash-only GETs cacheable.
    const posted = 'query Tree3 { categories { id name } }';
    const sha256Hash = crypto.createHash('sha256').update(posted).digest('hex');
    const learnt = await app.request('/graphql', { method: 'POST', json: { query: posted, extensions: { persistedQuery: { version: 1, sha256Hash } } } });
    expect(learnt.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const viaGet = await gqlGet(posted, {}, { hashOnly: true });
      expect(viaGet.status).toBe(200);
      expect(viaGet.headers.get('cache-control')).toMatch(/^public/);
    }
    expect(await queriesOf(async () => (await gqlGet(posted, {}, { hashOnly: true })).arrayBuffer())).toEqual([]);
    // Without a preflight header a GET is still refused (CSRF protection), cached or not.
    const bare = await app.request(`/graphql?query=${encodeURIComponent(query)}`);
    expect(bare.status).toBe(400);
  });
});

describe('without its change feed', () => {
  it('reads from the database while the feed is down, and caches again once it is back', async () => {
    const listeners = () => app.sql<{ pid: number }>(`select pid from pg_stat_activity where application_name = 'artsong-cache-feed' and datname = current_database()`);
    await getJson(`/api/products/${album}`);
    const [feed] = await listeners();
    expect(feed).toBeDefined();
    await app.sql('select pg_terminate_backend($1)', [feed!.pid]);
    // A change made behind the shop's back (no notification) shows at once: nothing is served from memory.
    await app.sql(`update product set name = 'Changed behind the back' where id = $1`, [album]);
    await expect.poll(async () => (await getJson(`/api/products/${album}`)).product.name, { timeout: 5000 }).toBe('Changed behind the back');
    await expect.poll(async () => (await listeners()).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await queriesOf(() => getJson(`/api/products/${album}`))).length, { timeout: 10_000 }).toBe(0);
    expect((await getJson(`/api/products/${album}`)).product.name).toBe('Changed behind the back');
  });
});
