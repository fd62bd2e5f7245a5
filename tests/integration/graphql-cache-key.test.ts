import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The GraphQL GET cache cannot be made to hold what nobody else asks for (issue 24, item 1): its key
 * is the parsed document, the operation name and the declared variables, nothing else of the address;
 * a key too long is not kept, `__typename`-only answers are not kept, and the address is read exactly
 * as Apollo reads it, however many parameters it has.
 */

let app: TestApp;
let admin: string;
let products: number[];

const PRODUCT = 'query P($id: Int!) { product(id: $id) { id name } }';
const GQL = { 'apollo-require-preflight': 'true' };
const get = (search: string) => app.request(`/graphql?${search}`, { headers: GQL });
const params = (query: string, variables?: Record<string, unknown>, extra = '') =>
  `query=${encodeURIComponent(query)}${variables ? `&variables=${encodeURIComponent(JSON.stringify(variables))}` : ''}${extra}`;
const fromCache = () => app.cachedReads!.stats.served.graphql;
const cached = () => app.services.cache.size;
const padding = (length: number) => crypto.randomBytes(length).toString('base64url').slice(0, length);

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  const shelf = await restCategory(app, admin, 'Keys');
  products = [];
  for (const name of ['First Album', 'Second Album']) {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name, price: 5, category_id: shelf, product_type_id: 2 } } });
    products.push((await res.json()).product.id);
  }
  await app.request('/api/settings');
});
afterAll(async () => {
  await app?.stop();
});

describe('the GraphQL GET cache', () => {
  it('keeps nothing for 300 `{__typename}` GETs padded with 6,000 random characters each', async () => {
    await get(params('{ __typename }'));
    const before = { size: cached(), bytes: app.services.cache.bytes };
    const statuses: number[] = [];
    for (let batch = 0; batch < 30; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => get(`${params('{ __typename }')}&p=${padding(6000)}`).then((res) => res.status)))));
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(cached()).toBe(before.size);
    expect(app.services.cache.bytes).toBe(before.bytes);
  });

  it('reads one entry whatever else the address carries: other parameters, undeclared variables, spaces and comments', async () => {
    const id = products[0]!;
    const first = await get(params(PRODUCT, { id }));
    expect((await first.json()).data.product.name).toBe('First Album');
    const size = cached();
    const spellings = [
      params(PRODUCT, { id }, `&p=${padding(3000)}`),
      `utm_source=x&${params(PRODUCT, { id })}`,
      params(PRODUCT, { id, junk: padding(500) }),
      params(`# a comment\n${PRODUCT.replace(/ /g, '   ')}`, { id }),
    ];
    for (const spelling of spellings) {
      // A document spelt anew is learnt through Express the first time; from then on it is answered ahead of it.
      for (let visit = 0; visit < 2; visit++) {
        const before = fromCache();
        const res = await get(spelling);
        expect(res.status).toBe(200);
        expect((await res.json()).data.product.name).toBe('First Album');
        if (visit) expect(fromCache(), spelling.slice(0, 60)).toBe(before + 1);
      }
    }
    // All of them read the one entry the first request made.
    expect(cached()).toBe(size);
    // The operation name is part of the key (a wrong one is an error, never served from the cache).
    const named = await get(params(PRODUCT, { id }, '&operationName=P'));
    expect((await named.json()).data.product.name).toBe('First Album');
    const wrong = await get(params(PRODUCT, { id }, '&operationName=Q'));
    expect(wrong.status).toBe(400);
  });

  it('takes a POST’s answer for the same GET, and the other way round', async () => {
    const id = products[1]!;
    const posted = await app.request('/graphql', { method: 'POST', json: { query: PRODUCT, variables: { id } } });
    expect((await posted.json()).data.product.name).toBe('Second Album');
    const before = fromCache();
    expect((await (await get(params(PRODUCT, { id }))).json()).data.product.name).toBe('Second Album');
    expect(fromCache()).toBe(before + 1);
  });

  it('keeps no answer whose key would be too long, and no `__typename`-only answer', async () => {
    const size = cached();
    const search = 'query S($q: String) { searchProducts(query: $q, first: 5) { totalCount } }';
    const long = await get(params(search, { q: `album ${'x'.repeat(600)}` }));
    expect(long.status).toBe(200);
    expect((await long.json()).data.searchProducts.totalCount).toBe(0);
    expect((await get(params('{ __typename }'))).status).toBe(200);
    expect(cached()).toBe(size);
  });

  it('reads an address of more than 1,000 parameters as Apollo does: each answer under its own variables', async () => {
    // Past 8 kB of address, and with the variables after a thousand other parameters (where Express's query parser stops reading).
    const pad = Array.from({ length: 1200 }, (_, i) => `&p${i}=1234`).join('');
    const answers: string[] = [];
    for (const id of [products[0]!, products[1]!, products[0]!]) {
      const res = await get(`query=${encodeURIComponent(PRODUCT)}${pad}&variables=${encodeURIComponent(JSON.stringify({ id }))}`);
      expect(res.status).toBe(200);
      answers.push((await res.json()).data.product.name);
    }
    expect(answers).toEqual(['First Album', 'Second Album', 'First Album']);
  });
});
