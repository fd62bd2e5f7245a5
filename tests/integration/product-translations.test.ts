import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheKeys } from '../../server/src/core/read-cache.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { fewestQueries, selects } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Product content in the shop's other languages (contract section 20): written with the product over
 * GraphQL and REST, read in each language with the English where a field is not translated, searched
 * in the shopper's language, and cached per language.
 */

let app: TestApp;
let admin: string;
let category: number;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  category = await restCategory(app, admin, 'Birthdays');
});
afterAll(async () => {
  await app?.stop();
});

const CONTENT = `id name description eGreetingCard { defaultMessage } translations { locale name description defaultMessage }`;
const CREATE = `mutation($input: ProductInput!) { createProduct(input: $input) { ${CONTENT} } }`;
const UPDATE = `mutation($id: Int!, $input: ProductInput!) { updateProduct(id: $id, input: $input) { ${CONTENT} } }`;
const READ = `query($id: Int!, $locale: String) { product(id: $id, locale: $locale) { name description eGreetingCard { defaultMessage } } }`;
const SEARCH = `query($query: String, $locale: String) { searchProducts(query: $query, locale: $locale) { totalCount edges { node { id name } } } }`;

const card = (overrides: Record<string, unknown> = {}) => ({
  name: 'Birthday Balloons',
  description: 'Balloons that float up.',
  price: '3.50',
  categoryId: category,
  productTypeId: 1,
  eGreetingCard: { defaultMessage: 'Happy birthday!' },
  translations: [
    { locale: 'de', name: 'Geburtstagsballons', description: 'Ballons, die aufsteigen.', defaultMessage: 'Alles Gute zum Geburtstag!' },
    { locale: 'fr', name: 'Ballons d’anniversaire', description: '', defaultMessage: null },
    { locale: 'es', name: '', description: '', defaultMessage: '' },
  ],
  ...overrides,
});

async function create(input: Record<string, unknown>): Promise<number> {
  const res = await app.graphql(CREATE, { input }, admin);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createProduct.id;
}

const read = async (id: number, locale?: string) => (await app.graphql(READ, { id, locale })).body;

describe('translated product content over GraphQL', () => {
  let id: number;

  it('is written with the product; a language without any text is not kept', async () => {
    const res = await app.graphql(CREATE, { input: card() }, admin);
    expect(res.body.errors).toBeUndefined();
    const product = res.body.data.createProduct;
    id = product.id;
    expect(product.name).toBe('Birthday Balloons');
    expect(product.eGreetingCard.defaultMessage).toBe('Happy birthday!');
    expect(product.translations).toEqual([
      { locale: 'de', name: 'Geburtstagsballons', description: 'Ballons, die aufsteigen.', defaultMessage: 'Alles Gute zum Geburtstag!' },
      { locale: 'fr', name: 'Ballons d’anniversaire', description: '', defaultMessage: '' },
    ]);
  });

  it('reads each language, the English standing in field by field', async () => {
    expect((await read(id)).data.product).toEqual({ name: 'Birthday Balloons', description: 'Balloons that float up.', eGreetingCard: { defaultMessage: 'Happy birthday!' } });
    expect((await read(id, 'en')).data.product.name).toBe('Birthday Balloons');
    expect((await read(id, 'de')).data.product).toEqual({ name: 'Geburtstagsballons', description: 'Ballons, die aufsteigen.', eGreetingCard: { defaultMessage: 'Alles Gute zum Geburtstag!' } });
    expect((await read(id, 'fr')).data.product).toEqual({ name: 'Ballons d’anniversaire', description: 'Balloons that float up.', eGreetingCard: { defaultMessage: 'Happy birthday!' } });
    expect((await read(id, 'es')).data.product).toEqual({ name: 'Birthday Balloons', description: 'Balloons that float up.', eGreetingCard: { defaultMessage: 'Happy birthday!' } });
    // A language as browsers write it is read as the shop's.
    expect((await read(id, 'de-AT')).data.product.name).toBe('Geburtstagsballons');
  });

  it('refuses a language the shop does not speak, on reads and writes', async () => {
    const res = await read(id, 'it');
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'locale' });
    const write = await app.graphql(UPDATE, { id, input: card({ translations: [{ locale: 'it', name: 'Palloncini' }] }) }, admin);
    expect(write.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'translations.0.locale' });
    const twice = await app.graphql(UPDATE, { id, input: card({ translations: [{ locale: 'de', name: 'A' }, { locale: 'de', name: 'B' }] }) }, admin);
    expect(twice.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'translations.1.locale' });
  });

  it('keeps the translations when an update leaves them out, replaces them when it gives them, and audits the change', async () => {
    const { translations: _t, ...withoutTranslations } = card({ price: '4.00' });
    let res = await app.graphql(UPDATE, { id, input: withoutTranslations }, admin);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateProduct.translations.map((t: { locale: string }) => t.locale)).toEqual(['de', 'fr']);
    const [{ updated_at: before }] = await app.sql<{ updated_at: Date }>(`select updated_at from product where id = $1`, [id]);
    res = await app.graphql(UPDATE, { id, input: card({ price: '4.00', translations: [{ locale: 'de', name: 'Bunte Ballons', description: 'Ballons, die aufsteigen.', defaultMessage: 'Alles Gute zum Geburtstag!' }] }) }, admin);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateProduct.translations).toEqual([{ locale: 'de', name: 'Bunte Ballons', description: 'Ballons, die aufsteigen.', defaultMessage: 'Alles Gute zum Geburtstag!' }]);
    const [entry] = await app.sql<{ summary: string }>(`select summary from audit_entry where entity = 'product' and entity_id = $1 order by id desc limit 1`, [String(id)]);
    expect(entry!.summary).toContain('German name “Geburtstagsballons” → “Bunte Ballons”');
    // Only the words changed: the product's last change moved all the same.
    const [{ updated_at: after }] = await app.sql<{ updated_at: Date }>(`select updated_at from product where id = $1`, [id]);
    expect(after.getTime()).toBeGreaterThan(before!.getTime());
    expect(entry!.summary).toContain('French name “Ballons d’anniversaire” → —');
    expect((await read(id, 'fr')).data.product.name).toBe('Birthday Balloons');
  });

  it('keeps the translations through bulk actions and their undo, and deletes them with the product', async () => {
    const bulk = await app.graphql(`mutation($ids: [Int!]!) { bulkUpdateProducts(ids: $ids, action: {type: PRICE, price: "5.00"}) { undoId } }`, { ids: [id] }, admin);
    expect(bulk.body.errors).toBeUndefined();
    await app.graphql(`mutation($undoId: String!) { undoBulkUpdateProducts(undoId: $undoId) { restored } }`, { undoId: bulk.body.data.bulkUpdateProducts.undoId }, admin);
    expect((await read(id, 'de')).data.product.name).toBe('Bunte Ballons');
    const other = await create(card({ name: 'Gone Soon' }));
    await app.graphql(`mutation($id: Int!) { deleteProduct(id: $id) }`, { id: other }, admin);
    expect(await app.sql(`select 1 from product_translation where product_id = $1`, [other])).toEqual([]);
  });
});

describe('translated product content over REST', () => {
  let id: number;

  it('is written and read back in the REST shape', async () => {
    const res = await app.request('/api/products', {
      method: 'POST',
      token: admin,
      json: {
        product: { name: 'Thank You Roses', description: 'Red roses.', price: 2.5, category_id: category, product_type_id: 1 },
        e_greeting_card_data: { default_message: 'Thank you!' },
        translations: [{ locale: 'de', name: 'Danke-Rosen', description: 'Rote Rosen.', default_message: 'Vielen Dank!' }, { locale: 'es', name: 'Rosas de agradecimiento' }],
      },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    id = body.product.id;
    expect(body.translations).toEqual([
      { locale: 'de', name: 'Danke-Rosen', description: 'Rote Rosen.', default_message: 'Vielen Dank!' },
      { locale: 'es', name: 'Rosas de agradecimiento', description: '', default_message: '' },
    ]);
    expect(body.e_greeting_card_data.default_message).toBe('Thank you!');
  });

  it('reads a product and a category list in a language with ?lang=, English where not translated', async () => {
    const de = await (await app.request(`/api/products/${id}?lang=de`)).json();
    expect(de.product).toMatchObject({ name: 'Danke-Rosen', description: 'Rote Rosen.' });
    expect(de.e_greeting_card_data.default_message).toBe('Vielen Dank!');
    const es = await (await app.request(`/api/products/${id}?lang=es`)).json();
    expect(es.product).toMatchObject({ name: 'Rosas de agradecimiento', description: 'Red roses.' });
    expect(es.e_greeting_card_data.default_message).toBe('Thank you!');
    expect((await (await app.request(`/api/products/${id}`)).json()).product.name).toBe('Thank You Roses');
    const list = await (await app.request(`/api/products/category/${category}?lang=de`)).json();
    expect(list.find((p: { id: number }) => p.id === id)).toMatchObject({ name: 'Danke-Rosen', description: 'Rote Rosen.' });
    const search = await (await app.request(`/api/products/search?q=rosen&lang=de`)).json();
    expect(search.items.map((p: { name: string }) => p.name)).toEqual(['Danke-Rosen']);
  });

  it('answers 400 for a language the shop does not speak', async () => {
    for (const path of [`/api/products/${id}?lang=it`, `/api/products/category/${category}?lang=xx`, `/api/products/search?q=rose&lang=klingon`]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(400);
      expect((await res.json()).code).toBe('BAD_USER_INPUT');
    }
  });

  it('keeps one cache entry per language and drops every language when the product changes', async () => {
    for (const lang of ['en', 'de', 'fr']) expect((await app.request(`/api/products/${id}?lang=${lang}`)).status).toBe(200);
    for (const lang of ['en', 'de', 'fr']) await app.request(`/api/products/category/${category}?lang=${lang}`);
    const cache = app.services.cache;
    const keys = ['en', 'de', 'fr'].flatMap((lang) => [CacheKeys.product(id, lang), CacheKeys.categoryList(category, lang)]);
    expect(keys.filter((key) => cache.peek(key) === undefined)).toEqual([]);
    // French has no translation here: its entry reads as the English one; the German one differs.
    const answerOf = (lang: string) => JSON.stringify(cache.peek(CacheKeys.product(id, lang)));
    expect(answerOf('fr')).toBe(answerOf('en'));
    expect(answerOf('de')).not.toBe(answerOf('en'));

    const res = await app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json: { translations: [{ locale: 'de', name: 'Dankesrosen' }] } });
    expect(res.status).toBe(200);
    expect(keys.filter((key) => cache.peek(key) !== undefined)).toEqual([]);
    expect((await (await app.request(`/api/products/${id}?lang=de`)).json()).product.name).toBe('Dankesrosen');
    expect((await (await app.request(`/api/products/${id}?lang=es`)).json()).product.name).toBe('Thank You Roses');
  });

  it('keeps GraphQL answers apart by language and drops them all on a change', async () => {
    const query = `query($id: Int!, $locale: String) { product(id: $id, locale: $locale) { name } }`;
    const get = async (locale: string) => {
      const params = new URLSearchParams({ query, variables: JSON.stringify({ id, locale }) });
      const res = await app.request(`/graphql?${params}`, { headers: { 'apollo-require-preflight': 'true' } });
      return (await res.json()).data.product.name;
    };
    expect(await get('de')).toBe('Dankesrosen');
    expect(await get('en')).toBe('Thank You Roses');
    expect(await get('de')).toBe('Dankesrosen');
    await app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json: { translations: [{ locale: 'de', name: 'Rosen zum Dank' }] } });
    expect(await get('de')).toBe('Rosen zum Dank');
    expect(await get('en')).toBe('Thank You Roses');
  });
});

describe('the shop search in the shopper\'s language', () => {
  it('finds a product by the words of its German name and description from /de, and only there', async () => {
    const id = await create(card({ name: 'Winter Owl', description: 'A snowy owl.', tags: ['night'], translations: [{ locale: 'de', name: 'Schneeeule', description: 'Eine weiße Eule im Winterwald.' }] }));
    const search = async (query: string, locale?: string) => (await app.graphql(SEARCH, { query, locale })).body.data.searchProducts;
    expect((await search('schneeeule', 'de')).edges).toEqual([{ node: { id, name: 'Schneeeule' } }]);
    expect((await search('WEIßE winterwald', 'de')).edges.map((e: { node: { id: number } }) => e.node.id)).toEqual([id]);
    // English words and tags still find it, and words may mix both.
    expect((await search('owl', 'de')).edges.map((e: { node: { id: number } }) => e.node.id)).toEqual([id]);
    expect((await search('night eule', 'de')).totalCount).toBe(1);
    expect((await search('schneeeule', 'en')).totalCount).toBe(0);
    expect((await search('schneeeule', 'fr')).totalCount).toBe(0);
    expect((await search('schneeeule')).totalCount).toBe(0);
  });

  it('reads a page in a language in as many queries whatever its size (translations batched)', async () => {
    const page = `query($locale: String) { searchProducts(first: 50, locale: $locale) { edges { node { id name description eGreetingCard { defaultMessage } } } } }`;
    const run = (locale: string) => async () => {
      const res = await app.graphql(page, { locale }, admin);
      expect(res.body.errors).toBeUndefined();
    };
    const few = await fewestQueries(app, run('de'), (q) => selects(q).length);
    for (let i = 0; i < 6; i++) await create(card({ name: `Owl ${i}` }));
    const many = await fewestQueries(app, run('de'), (q) => selects(q).length);
    expect(many).toBe(few);
    // English reads no translation at all.
    expect(await fewestQueries(app, run('en'), (q) => selects(q).filter((s) => s.includes('product_translation')).length)).toBe(0);
  });
});
