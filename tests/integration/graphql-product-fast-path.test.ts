import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { restCategory, uploadMedia } from '../helpers/catalogue-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * GraphQL `product(id)` answered from the REST detail the read cache keeps, without Apollo (issue 48,
 * item 3), by POST and by GET: the body is byte for byte the one Apollo makes for the same document
 * (asked with an admin's token, which the cache never answers), for an album, a card with every slot
 * it has, a product on sale, under a language, and after an edit, in this process and another; a
 * missing or deleted product, a draft, an odd language and any other document still go to Apollo.
 */

let app: TestApp;
let admin: string;
let album: number;
let card: number;
let sale: number;
let draft: number;
let shelf: number;
let second: AppProcess | null = null;
let other: RunningApp | null = null;
let otherDir = '';

const PRODUCT = `query Product($id: Int!, $locale: String) { product(id: $id, locale: $locale) { __typename id name description sku price compareAtPrice status tags categoryId productTypeId mainImageId mainImagePath
  associatedImages { id filePath friendlyName } eGreetingCard { __typename messageLocation fontName defaultMessage song1 { id filePath } song2 { id filePath } coverImage { id filePath } backImage { id } } } }`;
/** The same read, its fields named otherwise and its language a literal. */
const ALIASED = 'query { item: product(id: 0, locale: "de") { key: id title: name cost: price card: eGreetingCard { font: fontName cover: coverImage { path: filePath } } } }';

type Target = { url: string; request: (pathname: string, init?: Omit<RequestInit, 'body'> & { json?: unknown; token?: string }) => Promise<Response> };

const post = (on: Target, query: string, variables: Record<string, unknown>, init: { token?: string; headers?: Record<string, string> } = {}) =>
  on.request('/graphql', { method: 'POST', json: { query, variables }, token: init.token, headers: init.headers });
const get = (on: Target, query: string, variables: Record<string, unknown>, init: { token?: string; headers?: Record<string, string> } = {}) =>
  on.request(`/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`, { token: init.token, headers: { 'apollo-require-preflight': 'true', ...init.headers } });
const fromCache = () => app.cachedReads!.stats.served.graphql;
/** A literal id in the aliased document. */
const aliased = (id: number) => ALIASED.replace('id: 0', `id: ${id}`);

/** What Apollo answers: an admin's request, which no cache answers. */
async function apolloBody(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const res = await post(app, query, variables, { token: admin, headers });
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  return res.text();
}

/** An anonymous read by POST and by GET, each three times (learnt through Express, then from the REST detail, then kept whole), every body the same. */
async function shopperBodies(on: Target, query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; body: string }[]> {
  const answers: { status: number; body: string }[] = [];
  for (const send of [post, get]) {
    for (let visit = 0; visit < 3; visit++) {
      const res = await send(on, query, variables, { headers });
      answers.push({ status: res.status, body: await res.text() });
    }
  }
  return answers;
}

async function expectApollosBytes(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}, on: Target = app): Promise<string> {
  const expected = await apolloBody(query, variables, headers);
  for (const answer of await shopperBodies(on, query, variables, headers)) expect(answer.body).toBe(expected);
  return expected;
}

const put = (id: number, json: unknown) => app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json });

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  const { images, songs } = await uploadMedia(app, admin, { images: 4, songs: 2, folder: 'Fast path art' });
  shelf = await restCategory(app, admin, 'Fast shelf');
  const create = async (json: unknown) => {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json });
    expect(res.status).toBe(201);
    return (await res.json()).product.id as number;
  };
  album = await create({ product: { name: 'Blue Album', description: 'Songs "in blue"\nand more', sku: 'BLUE-1', price: 9.99, category_id: shelf, product_type_id: 2, main_image_id: images[0]!.id }, tags: ['blue', 'jazz'], associated_image_ids: [images[1]!.id, images[2]!.id] });
  card = await create({
    product: { name: 'Birthday Card', price: 4.5, category_id: shelf, product_type_id: 1, main_image_id: images[2]!.id },
    e_greeting_card_data: { font_name: 'Open Sans', default_message: 'Happy birthday!', song_1_id: songs[0]!.id, song_2_id: songs[1]!.id, cover_image_id: images[3]!.id, back_image_id: images[1]!.id },
    translations: [{ locale: 'de', name: 'Geburtstagskarte', description: 'Eine Karte', default_message: 'Alles Gute!' }],
  });
  sale = await create({ product: { name: 'Sale Album', price: 12, compare_at_price: 15.5, category_id: shelf, product_type_id: 2 } });
  draft = await create({ product: { name: 'Draft Album', price: 3, category_id: shelf, product_type_id: 2, status: 'draft' } });
  await app.request('/api/settings');
});
afterAll(async () => {
  await second?.stop();
  await other?.stop();
  if (otherDir) fs.rmSync(otherDir, { recursive: true, force: true });
  await app?.stop();
});

describe('GraphQL product(id) from the REST detail', () => {
  it("answers an album, a card and a product on sale with Apollo's bytes, by POST and by GET, ahead of Express once the document is known", async () => {
    for (const id of [album, card, sale]) {
      const before = fromCache();
      const body = await expectApollosBytes(PRODUCT, { id });
      expect(JSON.parse(body).data.product.id).toBe(id);
      // The first POST learns the document (Express); the other five are answered ahead of it.
      expect(fromCache() - before).toBeGreaterThanOrEqual(4);
    }
    const onSale = JSON.parse(await apolloBody(PRODUCT, { id: sale })).data.product;
    expect([onSale.price, onSale.compareAtPrice]).toEqual(['12.00', '15.50']);
    const birthday = JSON.parse(await apolloBody(PRODUCT, { id: card })).data.product.eGreetingCard;
    expect(birthday).toMatchObject({ __typename: 'EGreetingCard', messageLocation: 'MIDDLE_CENTER', fontName: 'Open Sans', defaultMessage: 'Happy birthday!', song1: { id: expect.any(Number) }, backImage: { id: expect.any(Number) } });
  });

  it('answers from a REST detail read first (the same cached entry), and a new spelling of the document with aliases and literals', async () => {
    // A known document, a product whose REST detail is kept and its GraphQL answer not yet: made ahead of Express from the detail.
    expect((await app.request(`/api/products/${album}?lang=es`)).status).toBe(200);
    const expected = await apolloBody(PRODUCT, { id: album, locale: 'es' });
    const first = fromCache();
    expect(await (await post(app, PRODUCT, { id: album, locale: 'es' })).text()).toBe(expected);
    expect(fromCache()).toBe(first + 1);
    expect((await app.request(`/api/products/${album}?lang=de`)).status).toBe(200);
    const before = fromCache();
    // A new document is learnt through Express, then answered ahead of it.
    await expectApollosBytes(aliased(card), {});
    await expectApollosBytes(aliased(album), {});
    expect(fromCache() - before).toBeGreaterThanOrEqual(9);
    expect(JSON.parse(await apolloBody(aliased(card), {})).data.item).toMatchObject({ key: card, title: 'Geburtstagskarte', cost: '4.50', card: { font: 'Open Sans' } });
  });

  it('answers in the language asked, whatever Accept-Language says; errors in the Accept-Language', async () => {
    for (const locale of ['de', 'DE-at', 'fr', 'en', null]) await expectApollosBytes(PRODUCT, { id: card, locale }, { 'accept-language': 'de' });
    expect(JSON.parse(await apolloBody(PRODUCT, { id: card, locale: 'de' })).data.product).toMatchObject({ name: 'Geburtstagskarte', eGreetingCard: { defaultMessage: 'Alles Gute!' } });
    // Refused the same way: a language the shop does not speak, a missing product (in German), a wrong type.
    const missing = await expectApollosBytes(PRODUCT, { id: 999_999 }, { 'accept-language': 'de' });
    expect(JSON.parse(missing).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(JSON.parse(await expectApollosBytes(PRODUCT, { id: card, locale: 'xx' })).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const wrongType = await post(app, PRODUCT, { id: String(card) });
    expect(wrongType.status).toBe(400);
    // An operation named, rightly or not (another name, an empty one, a name for an unnamed operation): Apollo's answer, whatever the cache holds.
    for (const [query, operationName, status] of [[PRODUCT, 'Other', 400], [PRODUCT, '', 400], [aliased(card), 'Product', 400], [PRODUCT, 'Product', 200]] as const) {
      const json = { query, variables: { id: card }, operationName };
      const apollo = await app.request('/graphql', { method: 'POST', json, token: admin });
      const shopper = await app.request('/graphql', { method: 'POST', json });
      expect([shopper.status, apollo.status], operationName).toEqual([status, status]);
      expect(await shopper.text()).toBe(await apollo.text());
    }
  });

  it('leaves drafts to Apollo: NOT_FOUND for a shopper, the draft for an admin', async () => {
    for (const answer of await shopperBodies(app, PRODUCT, { id: draft })) expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('NOT_FOUND');
    const seen = JSON.parse(await apolloBody(PRODUCT, { id: draft })).data.product;
    expect(seen).toMatchObject({ id: draft, status: 'DRAFT' });
    // And the shopper still gets NOT_FOUND after the admin's read.
    for (const answer of await shopperBodies(app, PRODUCT, { id: draft })) expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('gives Express every other POST whole: a mutation, a document it does not answer, bad JSON, a NUL in its variables', async () => {
    const mutation = await post(app, 'mutation { deleteProduct(id: 999999) }', {});
    expect((await mutation.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const withFragment = await post(app, 'query P($id: Int!) { product(id: $id) { ...F } } fragment F on Product { id name }', { id: album });
    expect((await withFragment.json()).data.product).toEqual({ id: album, name: 'Blue Album' });
    const bad = await app.request('/graphql', { method: 'POST', body: '{"query": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    // Not kept since the edit: Apollo refuses the NUL (a kept answer is served whatever undeclared variables carry, as before).
    expect((await put(sale, { tags: ['sale'] })).status).toBe(200);
    const nul = await post(app, PRODUCT, { id: sale, junk: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect((await nul.json()).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('reads an edit at once by POST and by GET, in this process and in another on the same database', { timeout: 300_000 }, async () => {
    otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-fast-path-'));
    other = await startApp({ ...app.config, port: 0, dataDir: otherDir }, pino({ level: 'silent' }));
    second = await startAppProcess('fast-path-second', { DATABASE_URL: app.config.databaseUrl!, PAYMENT_PROVIDER: 'test', JWT_SECRET: app.config.jwtSecret! }, 240_000);
    const processes: Target[] = [app, { url: other.url, request: (p, init = {}) => fetch(other!.url + p, { ...init, body: init.json === undefined ? undefined : JSON.stringify(init.json), headers: { ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...(init.headers as Record<string, string>) } }) }, second];
    const nameIn = async (on: Target, send: typeof post) => JSON.parse(await (await send(on, PRODUCT, { id: album })).text()).data.product.name;
    // Each process has learnt the document and keeps the answer.
    for (const on of processes) for (const send of [post, get, post, get]) expect(await nameIn(on, send)).toBe('Blue Album');
    for (const [round, name] of ['Green Album', 'Red Album'].entries()) {
      expect((await put(album, { product: { name, price: 10 + round } })).status).toBe(200);
      const expected = await apolloBody(PRODUCT, { id: album });
      expect(JSON.parse(expected).data.product.name).toBe(name);
      for (const on of processes) for (const answer of await shopperBodies(on, PRODUCT, { id: album })) expect(answer.body).toBe(expected);
    }
    // A deleted product is Apollo's NOT_FOUND everywhere.
    expect((await app.request(`/api/products/${album}`, { method: 'DELETE', token: admin })).status).toBe(204);
    for (const on of processes) for (const answer of await shopperBodies(on, PRODUCT, { id: album })) expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
