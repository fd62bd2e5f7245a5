import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Product status (contract section 16): drafts and archived products are absent from every read a
 * shopper makes (REST, GraphQL, the server's pages, the sitemap, the read cache), are dropped from a
 * cart's quote and refused at checkout (PRODUCT_UNAVAILABLE), and are seen by admins alone.
 */
let app: TestApp;
let shop: Shop;
let admin: string;
let categoryId: number;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  shop = await seedShop(app, admin);
  categoryId = (await (await app.request(`/api/products/${shop.cardId}`)).json()).product.category_id;
});
afterAll(async () => {
  await app?.stop();
});

const setStatus = (id: number, status: string) => app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json: { product: { status } } });

/** Everything a shopper (no token) can see of the card, read twice so that cached answers are read too. */
async function shopperSees(): Promise<Record<string, boolean>> {
  const seen: Record<string, boolean>[] = [];
  for (let round = 0; round < 2; round++) {
    const search = await app.graphql(`{ searchProducts(first: 50) { edges { node { id } } } }`);
    const inCategory = await app.graphql(`query($c: Int!) { products(categoryId: $c) { edges { node { id } } } }`, { c: categoryId });
    const product = await app.graphql(`query($id: Int!) { product(id: $id) { id } }`, { id: shop.cardId });
    const restSearch = await (await app.request('/api/products/search')).json();
    const restList = await (await app.request(`/api/products/category/${categoryId}`)).json();
    const detail = await app.request(`/api/products/${shop.cardId}`);
    const page = await (await app.request(`/product/${shop.cardId}`)).text();
    const sitemap = await (await app.request('/sitemap.xml')).text();
    const quote = await app.graphql(`query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { droppedProductIds } }`, { lines: [{ productId: shop.cardId, quantity: 1 }] });
    const has = (edges: { node: { id: number } }[]) => edges.some((e) => e.node.id === shop.cardId);
    seen.push({
      searchProducts: has(search.body.data.searchProducts.edges),
      products: has(inCategory.body.data.products.edges),
      product: Boolean(product.body.data?.product),
      'GET /api/products/search': restSearch.items.some((i: { id: number }) => i.id === shop.cardId),
      'GET /api/products/category/:id': restList.some((p: { id: number }) => p.id === shop.cardId),
      'GET /api/products/:id': detail.status === 200,
      'product page': page.includes('Balloon Birthday'),
      sitemap: sitemap.includes(`/product/${shop.cardId}<`),
      cartQuote: !quote.body.data.cartQuote.droppedProductIds.includes(shop.cardId),
    });
  }
  expect(seen[1]).toEqual(seen[0]);
  return seen[0]!;
}

const everywhere = (value: boolean) => Object.fromEntries(['searchProducts', 'products', 'product', 'GET /api/products/search', 'GET /api/products/category/:id', 'GET /api/products/:id', 'product page', 'sitemap', 'cartQuote'].map((k) => [k, value]));

describe('product status', () => {
  it('is active unless said otherwise, over REST and GraphQL', async () => {
    const detail = await (await app.request(`/api/products/${shop.cardId}`)).json();
    expect(detail.product.status).toBe('active');
    const { body } = await app.graphql(`query($id: Int!) { product(id: $id) { status } }`, { id: shop.cardId });
    expect(body.data.product.status).toBe('ACTIVE');
    const created = await app.graphql(`mutation($input: ProductInput!) { createProduct(input: $input) { id status } }`, { input: { name: 'Drafted Album', price: '9.00', categoryId, productTypeId: 2, status: 'DRAFT' } }, admin);
    expect(created.body.data.createProduct.status).toBe('DRAFT');
    const refused = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'X', price: 1, category_id: categoryId, product_type_id: 2, status: 'hidden' }, tags: [] } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'status' });
  });

  it('hides a draft and an archived product from every shopper read, cached or not, and shows them again when active', async () => {
    expect(await shopperSees()).toEqual(everywhere(true));
    for (const status of ['draft', 'archived']) {
      expect((await setStatus(shop.cardId, status)).status).toBe(200);
      expect(await shopperSees()).toEqual(everywhere(false));
      expect((await setStatus(shop.cardId, 'active')).status).toBe(200);
      expect(await shopperSees()).toEqual(everywhere(true));
    }
  });

  it('shows admins a draft: by id over REST and GraphQL, in its category, with its status', async () => {
    expect((await setStatus(shop.cardId, 'draft')).status).toBe(200);
    try {
      const detail = await app.request(`/api/products/${shop.cardId}`, { token: admin });
      expect(detail.status).toBe(200);
      expect((await detail.json()).product.status).toBe('draft');
      const { body } = await app.graphql(`query($id: Int!) { product(id: $id) { name status } }`, { id: shop.cardId }, admin);
      expect(body.data.product).toEqual({ name: 'Balloon Birthday', status: 'DRAFT' });
      const list = await app.graphql(`query($c: Int!) { products(categoryId: $c) { edges { node { id status } } } }`, { c: categoryId }, admin);
      expect(list.body.data.products.edges).toContainEqual({ node: { id: shop.cardId, status: 'DRAFT' } });
      // A customer is a shopper.
      const customer = await app.customer();
      expect((await app.request(`/api/products/${shop.cardId}`, { token: customer })).status).toBe(404);
      // The shop's own search stays the shop's, for admins too.
      const search = await app.graphql(`{ searchProducts(first: 50) { edges { node { id } } } }`, {}, admin);
      expect(search.body.data.searchProducts.edges.map((e: { node: { id: number } }) => e.node.id)).not.toContain(shop.cardId);
    } finally {
      expect((await setStatus(shop.cardId, 'active')).status).toBe(200);
    }
  });

  it('refuses an order with a product that left the shop: 400 PRODUCT_UNAVAILABLE, nothing written', async () => {
    expect((await setStatus(shop.albumId, 'archived')).status).toBe(200);
    try {
      const before = await app.sql<{ n: string }>('select count(*) as n from "order"');
      const { body } = await placeOrder(app, orderInput(shop));
      expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'PRODUCT_UNAVAILABLE', field: 'lines' });
      expect(body.errors?.[0]?.message).toBe('Some products in your cart are no longer available; review your cart.');
      expect(await app.sql('select count(*) as n from "order"')).toEqual(before);
      // The preview of a card that left is not found either.
      expect((await setStatus(shop.cardId, 'draft')).status).toBe(200);
      const preview = await app.request('/api/ecards/preview', { method: 'POST', json: { product_id: shop.cardId, personalisation: { recipientName: 'G', recipientEmail: 'g@example.com', senderName: 'A', message: '' } } });
      expect(preview.status).toBe(404);
    } finally {
      expect((await setStatus(shop.albumId, 'active')).status).toBe(200);
      expect((await setStatus(shop.cardId, 'active')).status).toBe(200);
    }
    const { body } = await placeOrder(app, orderInput(shop));
    expect(body.data.placeOrder.status).toBe('PAID');
  });

  it('keeps the status change in the audit log', async () => {
    expect((await setStatus(shop.albumId, 'draft')).status).toBe(200);
    expect((await setStatus(shop.albumId, 'active')).status).toBe(200);
    const rows = await app.sql<{ summary: string }>(`select summary from audit_entry where entity = 'product' and entity_id = $1 order by id`, [String(shop.albumId)]);
    expect(rows.map((r) => r.summary)).toEqual(expect.arrayContaining(['“Summer Songs Album”: status “active” → “draft”', '“Summer Songs Album”: status “draft” → “active”']));
  });
});
