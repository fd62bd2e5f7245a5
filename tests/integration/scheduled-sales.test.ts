import pg from 'pg';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { manualClock, orderInput, outbox, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { fewestQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Scheduled sales (contract section 17) with the shop's clock in the test's hands: a sale's start and
 * end move every read at once (REST, GraphQL, the search, the cached reads and pages, the cart and
 * checkout), overlapping sales give the lowest price, and the rule of a sale price holds for any price.
 */
let app: TestApp;
let admin: string;
let shop: Shop;
let customer: string;
/** The shop's clock: the sales below run from 10:00 to 12:00 of this day. */
const clock = manualClock('2027-05-01T08:00:00Z');
const payments = new TestPaymentProvider();
const AT = (time: string) => `2027-05-01T${time}Z`;

/** Moves the shop's clock and lets the process do what its timer would do at that moment. */
async function moveTo(time: string): Promise<void> {
  clock.set(AT(time));
  await app.saleClock.wake();
}

beforeAll(async () => {
  app = await startTestApp({}, { paymentProviders: [payments], clock: clock.now });
  admin = await app.login();
  customer = await app.customer('shopper');
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

async function createSale(json: Record<string, unknown>): Promise<{ id: number } & Record<string, unknown>> {
  const res = await app.request('/api/admin/sales', { method: 'POST', token: admin, json });
  if (res.status !== 201) throw new Error(`sale failed: ${res.status} ${await res.text()}`);
  return res.json();
}
const deleteSale = async (id: number) => expect((await app.request(`/api/admin/sales/${id}`, { method: 'DELETE', token: admin })).status).toBe(204);

/** What REST says a product sells for now, and the price struck through beside it. */
async function restPrice(id: number): Promise<{ price: number; compare_at_price: number | null }> {
  const res = await app.request(`/api/products/${id}`);
  expect(res.status).toBe(200);
  const { product } = await res.json();
  return { price: product.price, compare_at_price: product.compare_at_price };
}

const PRODUCT = `query($id: Int!) { product(id: $id) { price compareAtPrice regularPrice regularCompareAtPrice } }`;
const QUOTE = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { subtotal total lines { unitPrice } } }`;

describe('REST /api/admin/sales', () => {
  it('creates, lists, edits and deletes sales with the fields of the contract', async () => {
    const created = await createSale({ name: 'Mother’s Day', percent_off: 15, product_ids: [shop.cardId], category_ids: [], starts_at: AT('10:00:00'), ends_at: AT('12:00:00'), banner: '15 % off cards until noon' });
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Mother’s Day',
      percent_off: 15,
      amount_off: null,
      product_ids: [shop.cardId],
      category_ids: [],
      starts_at: '2027-05-01T10:00:00.000Z',
      ends_at: '2027-05-01T12:00:00.000Z',
      banner: '15 % off cards until noon',
      state: 'scheduled',
      priced_products: 0,
    });
    const list = await (await app.request('/api/admin/sales', { token: admin })).json();
    expect(list).toContainEqual(created);
    // GraphQL names the products with the sale (the console's dialog shows them without a read each).
    const { body } = await app.graphql('{ sales { id products { id name } } }', {}, admin);
    expect(body.data.sales.find((s: { id: number }) => s.id === created.id).products).toEqual([{ id: shop.cardId, name: 'Balloon Birthday' }]);

    const put = await app.request(`/api/admin/sales/${created.id}`, { method: 'PUT', token: admin, json: { name: 'Mother’s Day', amount_off: 1.25, product_ids: [shop.cardId, shop.albumId], starts_at: AT('10:00:00'), ends_at: AT('11:00:00') } });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ percent_off: null, amount_off: 1.25, product_ids: [shop.cardId, shop.albumId].sort((a, b) => a - b), banner: null, ends_at: '2027-05-01T11:00:00.000Z' });

    const audit = await app.sql<{ action: string; summary: string }>(`select action, summary from audit_entry where entity = 'sale' and entity_id = $1 order by id`, [String(created.id)]);
    expect(audit.map((entry) => entry.action)).toEqual(['created', 'updated']);
    expect(audit[1]!.summary).toContain('discount “15% off” → “$1.25 off”');

    await deleteSale(created.id);
    expect((await app.request(`/api/admin/sales/${created.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await app.request(`/api/admin/sales/${created.id}`, { method: 'PUT', token: admin, json: { name: 'x', percent_off: 5, product_ids: [shop.cardId], starts_at: AT('10:00:00'), ends_at: AT('11:00:00') } })).status).toBe(404);
  });

  it.each([
    ['no name', { name: ' ' }, 'name'],
    ['a percentage of 0', { percent_off: 0 }, 'percent_off'],
    ['a percentage of 91', { percent_off: 91 }, 'percent_off'],
    ['a percentage and an amount', { percent_off: 10, amount_off: 1 }, 'amount_off'],
    ['neither', { percent_off: null }, 'percent_off'],
    ['an amount of 0', { percent_off: null, amount_off: 0 }, 'amount_off'],
    ['an amount of three decimals', { percent_off: null, amount_off: 1.234 }, 'amount_off', 'The amount off must have at most two decimals.'],
    ['no products or categories', { product_ids: [] }, 'product_ids'],
    ['an unknown product', { product_ids: [999999] }, 'product_ids'],
    ['an unknown category', { product_ids: [], category_ids: [999999] }, 'category_ids'],
    ['an end before the start', { ends_at: AT('09:00:00') }, 'ends_at'],
    ['no start', { starts_at: null }, 'starts_at'],
    ['a banner on two lines', { banner: 'a\nb' }, 'banner'],
  ] as [string, Record<string, unknown>, string, string?][])('refuses %s (400 naming the field) and writes nothing', async (_label, change, field, message) => {
    const before = await app.sql('select count(*)::int as n from sale');
    const res = await app.request('/api/admin/sales', { method: 'POST', token: admin, json: { name: 'Bad', percent_off: 10, product_ids: [shop.cardId], starts_at: AT('10:00:00'), ends_at: AT('11:00:00'), ...change } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field, ...(message ? { message } : {}) });
    expect(await app.sql('select count(*)::int as n from sale')).toEqual(before);
  });

  it('is for admins: 401 signed out, 403 for a shopper, over REST and GraphQL', async () => {
    expect((await app.request('/api/admin/sales')).status).toBe(401);
    expect((await app.request('/api/admin/sales', { token: customer })).status).toBe(403);
    expect((await app.request('/api/admin/sales', { method: 'POST', token: customer, json: {} })).status).toBe(403);
    expect((await app.request('/api/admin/sales/1', { method: 'DELETE' })).status).toBe(401);
    const { body } = await app.graphql('{ sales { id } }', {}, customer);
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('a sale over a category, at its start and its end', () => {
  let parent: number;
  let child: number;
  let childCard: number;
  let sale: number;

  beforeAll(async () => {
    clock.set(AT('08:00:00'));
    parent = await restCategory(app, admin, 'Spring');
    child = await restCategory(app, admin, 'Tulips', parent);
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Tulip Card', price: 10, category_id: child, product_type_id: 2 }, tags: ['tulips'] } });
    childCard = (await res.json()).product.id;
    sale = (await createSale({ name: 'Spring sale', percent_off: 25, category_ids: [parent], starts_at: AT('10:00:00'), ends_at: AT('12:00:00'), banner: 'Spring sale: 25 % off' })).id;
  });

  it('changes nothing before it starts', async () => {
    expect(await restPrice(childCard)).toEqual({ price: 10, compare_at_price: null });
    // Read twice: the second answer comes from the cache, which the start must then drop.
    expect(await restPrice(childCard)).toEqual({ price: 10, compare_at_price: null });
    await moveTo('09:59:59');
    expect(await restPrice(childCard)).toEqual({ price: 10, compare_at_price: null });
  });

  it('at its start prices the products of the category and its subcategories everywhere, with the regular price struck through', async () => {
    await moveTo('10:00:00');
    expect(await restPrice(childCard)).toEqual({ price: 7.5, compare_at_price: 10 });

    const { body } = await app.graphql(PRODUCT, { id: childCard });
    expect(body.data.product).toEqual({ price: '7.50', compareAtPrice: '10.00', regularPrice: '10.00', regularCompareAtPrice: null });

    // The shop's search finds it on sale, by its sale price.
    const onSale = await (await app.request('/api/products/search?on_sale=1&max_price=8')).json();
    expect(onSale.items).toContainEqual(expect.objectContaining({ id: childCard, price: 7.5, compare_at_price: 10 }));
    const dearer = await (await app.request('/api/products/search?min_price=8&q=tulip')).json();
    expect(dearer.items).toEqual([]);

    // The product's page (drawn by the server and cached) shows it too, and its structured data sells at the sale price.
    const page = await (await app.request(`/product/${childCard}`)).text();
    expect(page).toContain('"price":"7.50"');
    expect(page).toContain('content="7.50"');

    // The cart is priced so, and the banner is in the announcement bar.
    const quote = await app.graphql(QUOTE, { lines: [{ productId: childCard, quantity: 2 }] });
    expect(quote.body.data.cartQuote).toMatchObject({ subtotal: '15.00', total: '15.00', lines: [{ unitPrice: '7.50' }] });
    const settings = await app.graphql('{ settings { announcement { text link } } }');
    expect(settings.body.data.settings.announcement).toEqual({ text: 'Spring sale: 25 % off', link: '/shop?on_sale=1' });
    expect((await app.graphql('{ runningSales { name banner endsAt } }')).body.data.runningSales).toEqual([{ name: 'Spring sale', banner: 'Spring sale: 25 % off', endsAt: '2027-05-01T12:00:00.000Z' }]);

    // The admin's list says so.
    const list = await (await app.request('/api/admin/sales', { token: admin })).json();
    expect(list.find((s: { id: number }) => s.id === sale)).toMatchObject({ state: 'running', priced_products: 1 });
  });

  it('serves the sale price from the cache without a statement once read', async () => {
    await restPrice(childCard);
    // The fewest of a few runs: what the shop does on its own meanwhile (the mail queue's look-up) lands in one, not all.
    const statements = await fewestQueries(app, async () => {
      expect(await restPrice(childCard)).toEqual({ price: 7.5, compare_at_price: 10 });
    }, (queries) => queries.length);
    expect(statements).toBe(0);
  });

  it('prices a product added to, moved into or repriced in the category while it runs', async () => {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Late Tulip', price: 8, category_id: child, product_type_id: 2 }, tags: [] } });
    const late = (await res.json()).product.id;
    expect(await restPrice(late)).toEqual({ price: 6, compare_at_price: 8 });

    const put = await app.request(`/api/products/${late}`, { method: 'PUT', token: admin, json: { product: { price: 12 } } });
    expect(put.status).toBe(200);
    expect(await restPrice(late)).toEqual({ price: 9, compare_at_price: 12 });

    // A category moved under the sale's category brings its products into the sale.
    const outside = await restCategory(app, admin, 'Roses');
    const rose = (await (await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Rose Card', price: 4, category_id: outside, product_type_id: 2 }, tags: [] } })).json()).product.id;
    expect(await restPrice(rose)).toEqual({ price: 4, compare_at_price: null });
    const move = await app.graphql(`mutation($id: Int!, $parent: Int) { updateCategory(id: $id, input: { parentId: $parent }) { id } }`, { id: outside, parent }, admin);
    expect(move.body.errors).toBeUndefined();
    expect(await restPrice(rose)).toEqual({ price: 3, compare_at_price: 4 });
  });

  it('checkout charges the sale price of the moment the order is placed; the order keeps the price it was compared with and the sale', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'saver@example.com', lines: [{ productId: childCard, quantity: 2 }] }));
    expect(body.errors).toBeUndefined();
    expect(body.data.placeOrder).toMatchObject({ total: '15.00', items: [{ price: '7.50', quantity: 2 }] });
    const orderId = body.data.placeOrder.id;
    expect(await app.sql(`select compare_at_price::text, sale_id, sale_name from order_item where order_id = $1`, [orderId])).toEqual([{ compare_at_price: '10.00', sale_id: sale, sale_name: 'Spring sale' }]);
    const item = await app.graphql(`query($id: ID!) { order(id: $id) { items { price compareAtPrice saleName } } }`, { id: orderId }, admin);
    expect(item.body.data.order.items).toEqual([{ price: '7.50', compareAtPrice: '10.00', saleName: 'Spring sale' }]);

    // The receipt strikes the regular price through and says what was saved.
    let receipt: string | undefined;
    await expect.poll(() => (receipt = [...outbox(app).values()].find((mail) => mail.includes('To: saver@example.com') && mail.includes('Thank you for your order'))), { timeout: 30_000 }).toBeDefined();
    expect(receipt).toContain('2 × Tulip Card  $15.00 (was $20.00)');
    expect(receipt).toContain('You saved: $5.00');
    expect(receipt).toContain('<s style="color:#7a6f66">$20.00</s> $15.00');

    // Sales counts the sale's orders, revenue and savings.
    const summary = await app.graphql(`{ salesSummary(from: "2027-05-01", to: "2027-05-01", timeZone: "UTC") { promotions { kind name orders revenue saved } } }`, {}, admin);
    expect(summary.body.errors).toBeUndefined();
    expect(summary.body.data.salesSummary.promotions).toEqual([{ kind: 'SALE', name: 'Spring sale', orders: 1, revenue: '15.00', saved: '5.00' }]);
  });

  it('at its end gives every read the regular price back, and the banner goes', async () => {
    await restPrice(childCard);
    await moveTo('12:00:00');
    expect(await restPrice(childCard)).toEqual({ price: 10, compare_at_price: null });
    expect((await app.graphql(PRODUCT, { id: childCard })).body.data.product).toMatchObject({ price: '10.00', compareAtPrice: null });
    expect(await (await app.request(`/product/${childCard}`)).text()).toContain('"price":"10.00"');
    expect((await app.graphql('{ settings { announcement { text } } }')).body.data.settings.announcement).toBeNull();
    const onSale = await (await app.request('/api/products/search?on_sale=1&q=tulip')).json();
    expect(onSale.items).toEqual([]);
    expect(await app.sql('select count(*)::int as n from product where sale_price is not null')).toEqual([{ n: 0 }]);
  });

  it('checkout prices by the sale running when the order is placed, even before the shop has moved its kept prices', async () => {
    // The clock is in the sale again, but nothing woke the process: its kept prices are still the regular ones.
    clock.set(AT('11:00:00'));
    expect(await restPrice(childCard)).toEqual({ price: 10, compare_at_price: null });
    const quote = await app.graphql(QUOTE, { lines: [{ productId: childCard, quantity: 1 }] });
    expect(quote.body.data.cartQuote.total).toBe('7.50');
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: childCard, quantity: 1 }] }));
    expect(body.data.placeOrder.total).toBe('7.50');
    await moveTo('12:30:00');
    await deleteSale(sale);
  });
});

describe('overlapping sales', () => {
  it('give each product the lowest price, and a sale deleted while running gives its products back at once', async () => {
    await moveTo('13:00:00');
    // The album costs 12.00: 10 % off is 10.80, 3.00 off is 9.00; the card costs 4.50: 10 % off is 4.05, 3.00 off is 1.50.
    const percent = await createSale({ name: 'Ten', percent_off: 10, product_ids: [shop.albumId, shop.cardId], starts_at: AT('12:00:00'), ends_at: AT('15:00:00') });
    expect(await restPrice(shop.albumId)).toEqual({ price: 10.8, compare_at_price: 12 });
    const amount = await createSale({ name: 'Three off', amount_off: 3, product_ids: [shop.albumId], starts_at: AT('12:00:00'), ends_at: AT('15:00:00') });
    expect(await restPrice(shop.albumId)).toEqual({ price: 9, compare_at_price: 12 });
    expect(await restPrice(shop.cardId)).toEqual({ price: 4.05, compare_at_price: 4.5 });
    expect(await app.sql('select sale_id from product where id = $1', [shop.albumId])).toEqual([{ sale_id: amount.id }]);

    await deleteSale(amount.id);
    expect(await restPrice(shop.albumId)).toEqual({ price: 10.8, compare_at_price: 12 });
    await deleteSale(percent.id);
    expect(await restPrice(shop.albumId)).toEqual({ price: 12, compare_at_price: null });
  });

  it('a sale that would not lower a price leaves it as it is (an amount off a price of 0.01)', async () => {
    const penny = (await (await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Penny Song', price: 0.01, category_id: (await app.sql<{ id: number }>('select min(id) as id from category'))[0]!.id, product_type_id: 2 }, tags: [] } })).json()).product.id;
    const sale = await createSale({ name: 'Deep', amount_off: 5, product_ids: [penny], starts_at: AT('12:00:00'), ends_at: AT('15:00:00') });
    expect(await restPrice(penny)).toEqual({ price: 0.01, compare_at_price: null });
    await deleteSale(sale.id);
  });
});

describe('two processes at the moment of a start', () => {
  it("a process that read the time while another was switching does not move the shop back before the start", async () => {
    await moveTo('13:00:00');
    const sale = await createSale({ name: 'Flash', percent_off: 50, product_ids: [shop.albumId], starts_at: AT('14:00:00'), ends_at: AT('15:00:00') });
    const kept = async () => (await app.sql<{ shop_price: string }>('select shop_price from product where id = $1', [shop.albumId]))[0]!.shop_price;
    // This process's timer fires a moment before the start (timers may), while another process holds
    // the switch's lock and moves the shop to a moment after it.
    clock.set(AT('13:59:59.999'));
    const other = new pg.Client({ connectionString: app.config.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`select pg_advisory_xact_lock(hashtext('refresh_sale_prices'))`);
      const waiting = app.saleClock.switchIfDue();
      waiting.catch(() => undefined); // awaited below; a failure before then must not go unheard
      // Waiting for the lock (pg_locks shows the whole cluster: this file's database only).
      const waiters = `select 1 from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`;
      await expect.poll(async () => (await app.sql(waiters)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
      await other.query(`select * from refresh_sale_prices($1)`, [AT('14:00:00.002')]);
      clock.set(AT('14:00:00.003'));
      await other.query('commit');
      await waiting;
    } finally {
      await other.end();
    }
    // The other process's switch stands: the sale runs.
    expect(await kept()).toBe('6.00');
    expect((await app.sql<{ at: Date }>('select at from sale_clock'))[0]!.at.toISOString()).toBe(AT('14:00:00.002'));
    await deleteSale(sale.id);
  });
});

describe('the rule of a sale price', () => {
  it('rounds to the cent, never goes below 0.01 and never above the regular price (property)', async () => {
    const cases = fc.sample(
      fc.record({
        cents: fc.integer({ min: 1, max: 9_999_999 }),
        percent: fc.option(fc.integer({ min: 1, max: 90 }), { nil: null }),
        amountCents: fc.integer({ min: 1, max: 1_000_000 }),
      }),
      { numRuns: 500, seed: 46 },
    );
    const rows = await app.sql<{ i: number; price: string }>(
      `select c.i, sale_price_of(c.price, c.percent, c.amount)::text as price
         from jsonb_to_recordset($1::jsonb) as c(i int, price numeric, percent int, amount numeric)`,
      [JSON.stringify(cases.map((c, i) => ({ i, price: (c.cents / 100).toFixed(2), percent: c.percent, amount: c.percent === null ? (c.amountCents / 100).toFixed(2) : null })))],
    );
    expect(rows).toHaveLength(cases.length);
    for (const row of rows) {
      const { cents, percent, amountCents } = cases[row.i]!;
      const sale = Math.round(Number(row.price) * 100);
      expect(row.price).toMatch(/^\d+\.\d{2}$/);
      expect(sale).toBeGreaterThanOrEqual(1);
      expect(sale).toBeLessThanOrEqual(cents);
      // Half a cent rounds away from zero, in exact integers.
      const expected = percent !== null ? Math.floor((cents * (100 - percent) * 2 + 100) / 200) : cents - amountCents;
      expect(sale, JSON.stringify(cases[row.i])).toBe(Math.max(1, expected));
    }
  });
});
