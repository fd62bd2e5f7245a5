import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { recordQueries, selects } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Browsing the shop (contract section 15): `searchProducts` and `GET /api/products/search` sorted by
 * name, newest first or by price, between two prices, paged without gaps or repeats in every order.
 */
let app: TestApp;
let admin: string;
/** Name → id, for the products below. */
const ids = new Map<string, number>();

// Name, price, type (2 = album), minutes ago it was added. Two share a price, two a moment.
const PRODUCTS = [
  ['Autumn Leaves', '7.00', 2, 50],
  ['birthday balloons', '4.50', 2, 40],
  ['Cello Suite', '12.00', 2, 30],
  ['Dawn Chorus', '4.50', 2, 20],
  ['Evening Bells', '19.99', 2, 20],
  ['Festival Mix', '0.99', 2, 10],
] as const;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  const categoryId = await restCategory(app, admin, 'Music');
  for (const [name, price, type, minutesAgo] of PRODUCTS) {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { category_id: categoryId, name, price, product_type_id: type }, tags: [] } });
    expect(res.status).toBe(201);
    const id = (await res.json()).product.id as number;
    ids.set(name, id);
    await app.sql(`update product set created_at = timestamptz '2026-11-01 12:00:00+00' - make_interval(mins => $2) where id = $1`, [id, minutesAgo]);
  }
});
afterAll(async () => {
  await app?.stop();
});

const SEARCH = `query($sort: ProductSort, $minPrice: Decimal, $maxPrice: Decimal, $onSale: Boolean, $first: Int, $after: String) {
  searchProducts(sort: $sort, minPrice: $minPrice, maxPrice: $maxPrice, onSale: $onSale, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { name price } } }
}`;

interface SearchBody {
  errors?: unknown;
  data: { searchProducts: { pageInfo: { hasNextPage: boolean; endCursor: string }; edges: { node: { name: string } }[] } };
}

/** Every page of a search, two at a time: the names in order. */
async function allPages(variables: Record<string, unknown>): Promise<string[]> {
  const names: string[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 10; guard++) {
    const answer = await app.graphql(SEARCH, { ...variables, first: 2, after });
    const body = answer.body as SearchBody;
    expect(body.errors).toBeUndefined();
    const page: SearchBody['data']['searchProducts'] = body.data.searchProducts;
    names.push(...page.edges.map((e: { node: { name: string } }) => e.node.name));
    if (!page.pageInfo.hasNextPage) return names;
    after = page.pageInfo.endCursor;
  }
  throw new Error('too many pages');
}

describe('searchProducts: sort and prices', () => {
  it('sorts by name unless asked, newest first, and by price either way, ties broken alike on every page', async () => {
    const byName = ['Autumn Leaves', 'birthday balloons', 'Cello Suite', 'Dawn Chorus', 'Evening Bells', 'Festival Mix'];
    expect(await allPages({})).toEqual(byName);
    expect(await allPages({ sort: 'NAME' })).toEqual(byName);
    // Dawn Chorus and Evening Bells were added at the same moment: the later id comes first going down.
    expect(await allPages({ sort: 'NEWEST' })).toEqual(['Festival Mix', 'Evening Bells', 'Dawn Chorus', 'Cello Suite', 'birthday balloons', 'Autumn Leaves']);
    expect(await allPages({ sort: 'PRICE_ASC' })).toEqual(['Festival Mix', 'birthday balloons', 'Dawn Chorus', 'Autumn Leaves', 'Cello Suite', 'Evening Bells']);
    expect(await allPages({ sort: 'PRICE_DESC' })).toEqual(['Evening Bells', 'Cello Suite', 'Autumn Leaves', 'Dawn Chorus', 'birthday balloons', 'Festival Mix']);
  });

  it('keeps prices between the bounds, both inclusive, and counts what it keeps', async () => {
    const { body } = await app.graphql(SEARCH, { sort: 'PRICE_ASC', minPrice: '4.50', maxPrice: 12 });
    expect(body.data.searchProducts.totalCount).toBe(4);
    expect(body.data.searchProducts.edges.map((e: { node: { price: string } }) => e.node.price)).toEqual(['4.50', '4.50', '7.00', '12.00']);
    expect(await allPages({ minPrice: '0' })).toHaveLength(6);
    expect(await allPages({ maxPrice: '1' })).toEqual(['Festival Mix']);
  });

  it.each([
    [{ minPrice: '-1' }, 'minPrice', 'The price must be greater than zero.'],
    [{ maxPrice: '1.234' }, 'maxPrice', 'The price must have at most two decimals.'],
    [{ minPrice: 'cheap' }, 'minPrice', 'The price must be a number.'],
    [{ minPrice: '10', maxPrice: '5' }, 'minPrice', 'The lowest price must not be above the highest.'],
  ])('refuses %j as BAD_USER_INPUT on its field', async (variables, field, message) => {
    const { body } = await app.graphql(SEARCH, variables);
    expect(body.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT', field } });
  });

  it("refuses a cursor of another order's keys", async () => {
    const { body } = await app.graphql(SEARCH, { sort: 'NAME', first: 2 });
    const cursor = body.data.searchProducts.pageInfo.endCursor;
    const other = await app.graphql(SEARCH, { sort: 'PRICE_ASC', first: 2, after: cursor });
    expect(other.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
  });
});

describe('GET /api/products/search', () => {
  it('answers the contract shape, sorted and filtered, and pages by next_cursor', async () => {
    const res = await app.request('/api/products/search?sort=price_desc&min_price=4.5&first=2');
    expect(res.status).toBe(200);
    const first = await res.json();
    expect(first).toEqual({
      items: [
        { id: ids.get('Evening Bells'), name: 'Evening Bells', price: 19.99, compare_at_price: null, product_type_id: 2, main_image_path: null },
        { id: ids.get('Cello Suite'), name: 'Cello Suite', price: 12, compare_at_price: null, product_type_id: 2, main_image_path: null },
      ],
      next_cursor: expect.any(String),
    });
    const names: string[] = first.items.map((i: { name: string }) => i.name);
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const page = await (await app.request(`/api/products/search?sort=price_desc&min_price=4.5&first=2&after=${encodeURIComponent(cursor)}`)).json();
      names.push(...page.items.map((i: { name: string }) => i.name));
      cursor = page.next_cursor;
    }
    expect(names).toEqual(['Evening Bells', 'Cello Suite', 'Autumn Leaves', 'Dawn Chorus', 'birthday balloons']);
    const searched = await (await app.request('/api/products/search?q=BELLS&type_id=2&sort=newest')).json();
    expect(searched).toEqual({ items: [expect.objectContaining({ name: 'Evening Bells' })], next_cursor: null });
  });

  it.each([
    ['sort=cheapest', 'sort'],
    ['category_id=abc', 'category_id'],
    ['type_id=0', 'type_id'],
    ['first=-3', 'first'],
    ['min_price=-1', 'minPrice'],
    ['min_price=9&max_price=3', 'minPrice'],
    ['on_sale=yes', 'on_sale'],
  ])('answers 400 for ?%s', async (query, field) => {
    const res = await app.request(`/api/products/search?${query}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });

  it('reads one page in one statement, counting nothing (its answer has no total)', async () => {
    const queries = selects(await recordQueries(app, async () => {
      expect((await app.request('/api/products/search?sort=price_asc&type_id=2&min_price=1')).status).toBe(200);
    })).filter((q) => /from "product"/.test(q));
    expect(queries).toHaveLength(1);
    expect(queries[0]).not.toMatch(/count\(/);
  });

  it('keeps a page in the read cache until the catalogue changes', async () => {
    const url = '/api/products/search?sort=newest&type_id=2&first=3';
    const first = await (await app.request(url)).json();
    const again = selects(await recordQueries(app, async () => {
      expect(await (await app.request(url)).json()).toEqual(first);
    })).filter((q) => /from "product"/.test(q));
    expect(again).toEqual([]);
    // A new album is the newest: the next answer shows it.
    const categoryId = (await (await app.request(`/api/products/${ids.get('Festival Mix')}`)).json()).product.category_id;
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { category_id: categoryId, name: 'Zither Dreams', price: 5, product_type_id: 2 }, tags: [] } });
    expect(res.status).toBe(201);
    await expect.poll(async () => (await (await app.request(url)).json()).items[0].name, { timeout: 10_000 }).toBe('Zither Dreams');
    expect((await app.request(`/api/products/${(await res.json()).product.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
  });

  it('is not the product whose id is "search"', async () => {
    expect((await app.request('/api/products/search')).status).toBe(200);
    expect((await app.request('/api/products/999999')).status).toBe(404);
  });
});

describe('compare-at prices and "On sale"', () => {
  const PRODUCT = `query($id: Int!) { product(id: $id) { price compareAtPrice } }`;
  const UPDATE = `mutation($id: Int!, $input: ProductInput!) { updateProduct(id: $id, input: $input) { price compareAtPrice } }`;
  const rest = (id: number) => app.request(`/api/products/${id}`).then((res) => res.json());

  it('keeps a compare-at price above the price, refuses one at or below it (on either change), and clears it with null', async () => {
    const id = ids.get('Autumn Leaves')!;
    const set = (product: Record<string, unknown>) => app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json: { product } });
    const res = await set({ compare_at_price: 9.5 });
    expect(res.status).toBe(200);
    expect((await rest(id)).product).toMatchObject({ price: 7, compare_at_price: 9.5 });
    expect((await app.graphql(PRODUCT, { id })).body.data.product).toEqual({ price: '7.00', compareAtPrice: '9.50' });

    for (const product of [{ compare_at_price: 7 }, { compare_at_price: 3 }, { price: 9.5 }, { price: 12 }]) {
      const refused = await set(product);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'compare_at_price', message: expect.stringContaining('The compare-at price must be above the price') });
    }
    expect((await rest(id)).product).toMatchObject({ price: 7, compare_at_price: 9.5 });
    expect((await app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json: { product: { compare_at_price: 'ten' } } })).status).toBe(400);
    // The database holds the rule too, whatever writes to it.
    await expect(app.sql('update product set compare_at_price = 1 where id = $1', [id])).rejects.toThrow(/product_compare_at_above_price/);

    const current = await (await app.request(`/api/products/${id}`)).json();
    const input = { name: 'Autumn Leaves', price: '7.00', categoryId: current.product.category_id, productTypeId: 2, compareAtPrice: null };
    const cleared = await app.graphql(UPDATE, { id, input }, admin);
    expect(cleared.body.data.updateProduct).toEqual({ price: '7.00', compareAtPrice: null });
    const again = await app.graphql(UPDATE, { id, input: { ...input, compareAtPrice: '8.00' } }, admin);
    expect(again.body.data.updateProduct).toEqual({ price: '7.00', compareAtPrice: '8.00' });
    const below = await app.graphql(UPDATE, { id, input: { ...input, compareAtPrice: '6.99' } }, admin);
    expect(below.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'compareAtPrice' });
  });

  it('finds only the products on sale, in every order, over GraphQL and REST', async () => {
    const id = ids.get('Cello Suite')!;
    expect((await app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json: { product: { compare_at_price: 15 } } })).status).toBe(200);
    expect(await allPages({ onSale: true })).toEqual(['Autumn Leaves', 'Cello Suite']);
    expect(await allPages({ onSale: true, sort: 'PRICE_DESC' })).toEqual(['Cello Suite', 'Autumn Leaves']);
    expect(await allPages({ onSale: true, maxPrice: '10' })).toEqual(['Autumn Leaves']);
    expect(await allPages({ onSale: false })).toHaveLength(6);
    const answer = await (await app.request('/api/products/search?on_sale=1&sort=price_asc')).json();
    expect(answer.items.map((i: { name: string; price: number; compare_at_price: number }) => [i.name, i.price, i.compare_at_price])).toEqual([
      ['Autumn Leaves', 7, 8],
      ['Cello Suite', 12, 15],
    ]);
  });
});
