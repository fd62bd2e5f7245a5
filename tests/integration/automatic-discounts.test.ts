import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CacheKeys } from '../../server/src/core/read-cache.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Automatic discounts (contract section 17): no code, the best one applies, a code only when it takes more. */

let app: TestApp;
let admin: string;
let shop: Shop;
const payments = new TestPaymentProvider();

beforeAll(async () => {
  app = await startTestApp({}, { paymentProviders: [payments] });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});
// Every cart of the shop gets them: each test starts without any (removed behind the service's back, so its cache is emptied too).
afterEach(async () => {
  await app.sql('delete from automatic_discount');
  await app.services.cache.changed([CacheKeys.automaticDiscounts]);
});

const QUOTE = `query($lines: [CartLineInput!]!, $code: String) { cartQuote(lines: $lines, discountCode: $code) { subtotal discount discountCode discountName discountKind total } }`;
const uniqueCode = (prefix: string) => `${prefix}${crypto.randomBytes(3).toString('hex')}`.toUpperCase();
const recipients = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Friend ${i}`, email: `friend${i}@example.com` }));
/** A card line for `n` recipients and `albums` albums. */
const cart = (n: number, albums = 0) => [
  { productId: shop.cardId, quantity: n, personalisation: personalisation({ recipientName: null, recipientEmail: null, recipients: recipients(n) }) },
  ...(albums ? [{ productId: shop.albumId, quantity: albums }] : []),
];
const quoteLines = (cards: number, albums = 0) => [...(cards ? [{ productId: shop.cardId, quantity: cards }] : []), ...(albums ? [{ productId: shop.albumId, quantity: albums }] : [])];

async function automatic(json: Record<string, unknown>): Promise<{ id: number; name: string }> {
  const res = await app.request('/api/admin/automatic-discounts', { method: 'POST', token: admin, json });
  if (res.status !== 201) throw new Error(`automatic discount failed: ${res.status} ${await res.text()}`);
  return res.json();
}
const THREE_CARDS = { name: '3 cards, 15 % off', min_cards: 3, percent_off: 15 };
const FROM_20 = { name: 'Orders from $20: $3 off', min_subtotal: 20, amount_off: 3 };

describe('REST /api/admin/automatic-discounts', () => {
  it('creates both kinds (201), lists and deletes them (204), audited', async () => {
    const res = await app.request('/api/admin/automatic-discounts', { method: 'POST', token: admin, json: THREE_CARDS });
    expect(res.status).toBe(201);
    const cards = await res.json();
    expect(cards).toEqual({ id: expect.any(Number), name: '3 cards, 15 % off', kind: 'cards', min_cards: 3, percent_off: 15, min_subtotal: null, amount_off: null, starts_at: null, ends_at: null });
    const subtotal = await automatic({ ...FROM_20, starts_at: '2026-01-01T00:00:00Z', ends_at: '2099-01-01T00:00:00Z' });
    expect(subtotal).toMatchObject({ kind: 'subtotal', min_cards: null, percent_off: null, min_subtotal: 20, amount_off: 3, starts_at: '2026-01-01T00:00:00.000Z', ends_at: '2099-01-01T00:00:00.000Z' });
    const list = await (await app.request('/api/admin/automatic-discounts', { token: admin })).json();
    expect(list.map((d: { id: number }) => d.id).sort()).toEqual([cards.id, subtotal.id].sort());
    expect((await app.request(`/api/admin/automatic-discounts/${cards.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await app.request(`/api/admin/automatic-discounts/${cards.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await app.request('/api/admin/automatic-discounts/abc', { method: 'DELETE', token: admin })).status).toBe(404);
    const audit = await app.sql<{ action: string; summary: string }>(`select action, summary from audit_entry where entity = 'discount' and entity_id = $1 order by id`, [`automatic-${cards.id}`]);
    expect(audit).toEqual([
      { action: 'created', summary: 'Created automatic discount “3 cards, 15 % off”: 3 or more cards: 15% off the cards' },
      { action: 'deleted', summary: 'Deleted automatic discount “3 cards, 15 % off”' },
    ]);
  });

  it('refuses bad fields with 400 on the REST field name', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ min_cards: 3, percent_off: 10 }, 'name'],
      [{ name: 'Both', min_cards: 3, percent_off: 10, min_subtotal: 20, amount_off: 2 }, 'min_subtotal'],
      [{ name: 'Neither' }, 'min_cards'],
      [{ name: 'No cards', min_cards: 0, percent_off: 10 }, 'min_cards'],
      [{ name: 'Too much', min_cards: 2, percent_off: 101 }, 'percent_off'],
      [{ name: 'No amount', min_subtotal: 20 }, 'amount_off'],
      [{ name: 'Negative', min_subtotal: 20, amount_off: -2 }, 'amount_off'],
      [{ ...FROM_20, name: 'Dates', starts_at: '2030-01-01T00:00:00Z', ends_at: '2029-01-01T00:00:00Z' }, 'ends_at'],
    ];
    for (const [json, field] of cases) {
      const res = await app.request('/api/admin/automatic-discounts', { method: 'POST', token: admin, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).field, JSON.stringify(json)).toBe(field);
    }
  });

  it('is for admins only (401 signed out, 403 shoppers)', async () => {
    const customer = await app.customer();
    expect((await app.request('/api/admin/automatic-discounts')).status).toBe(401);
    expect((await app.request('/api/admin/automatic-discounts', { method: 'POST', json: THREE_CARDS })).status).toBe(401);
    expect((await app.request('/api/admin/automatic-discounts', { token: customer })).status).toBe(403);
    expect((await app.request('/api/admin/automatic-discounts', { method: 'POST', token: customer, json: THREE_CARDS })).status).toBe(403);
    expect((await app.request('/api/admin/automatic-discounts/1', { method: 'DELETE', token: customer })).status).toBe(403);
  });
});

describe('GraphQL for the console', () => {
  it('creates, lists and deletes automatic discounts; shoppers are refused', async () => {
    const created = await app.graphql(
      `mutation($input: AutomaticDiscountInput!) { createAutomaticDiscount(input: $input) { id name kind minCards percentOff minSubtotal amountOff } }`,
      { input: { name: 'Big orders', minSubtotal: '50', amountOff: '7.50' } },
      admin,
    );
    expect(created.body.data.createAutomaticDiscount).toMatchObject({ name: 'Big orders', kind: 'SUBTOTAL', minCards: null, minSubtotal: '50.00', amountOff: '7.50' });
    const id = created.body.data.createAutomaticDiscount.id;
    expect((await app.graphql('{ automaticDiscounts { id name } }', {}, admin)).body.data.automaticDiscounts).toEqual([{ id, name: 'Big orders' }]);
    const bad = await app.graphql(`mutation($input: AutomaticDiscountInput!) { createAutomaticDiscount(input: $input) { id } }`, { input: { name: 'Bad', minCards: 2 } }, admin);
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'percentOff' });
    const customer = await app.customer();
    expect((await app.graphql('{ automaticDiscounts { id } }', {}, customer)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await app.graphql('{ automaticDiscounts { id } }')).body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect((await app.graphql(`mutation($id: Int!) { deleteAutomaticDiscount(id: $id) }`, { id }, customer)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await app.graphql(`mutation($id: Int!) { deleteAutomaticDiscount(id: $id) }`, { id }, admin)).body.data.deleteAutomaticDiscount).toBe(String(id));
    expect((await app.graphql(`mutation($id: Int!) { deleteAutomaticDiscount(id: $id) }`, { id }, admin)).body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
  });
});

describe('the cart quote', () => {
  it('shows the automatic discount that applies by name, with its saving', async () => {
    await automatic(THREE_CARDS);
    // Two cards: not yet.
    expect((await app.graphql(QUOTE, { lines: quoteLines(2) })).body.data.cartQuote).toEqual({ subtotal: '9.00', discount: '0.00', discountCode: null, discountName: null, discountKind: null, total: '9.00' });
    // Three cards of 4.50: 15 % of 13.50 is 2.03 (to the cent); albums are not cards.
    expect((await app.graphql(QUOTE, { lines: quoteLines(3, 1) })).body.data.cartQuote).toEqual({ subtotal: '25.50', discount: '2.03', discountCode: null, discountName: '3 cards, 15 % off', discountKind: 'CARDS', total: '23.47' });
  });

  it('applies the best of several', async () => {
    await automatic(THREE_CARDS);
    await automatic(FROM_20);
    // 3 cards + 2 albums = 37.50: 2.03 off the cards, or 3.00 off the order.
    expect((await app.graphql(QUOTE, { lines: quoteLines(3, 2) })).body.data.cartQuote).toMatchObject({ discount: '3.00', discountName: 'Orders from $20: $3 off', discountKind: 'SUBTOTAL', total: '34.50' });
    // 10 cards = 45.00: 6.75 off the cards beats 3.00.
    expect((await app.graphql(QUOTE, { lines: quoteLines(10) })).body.data.cartQuote).toMatchObject({ discount: '6.75', discountName: '3 cards, 15 % off', total: '38.25' });
  });

  it('applies only from its start and until its end', async () => {
    await automatic({ ...FROM_20, name: 'Later', starts_at: '2099-01-01T00:00:00Z' });
    await automatic({ ...FROM_20, name: 'Over', starts_at: '2020-01-01T00:00:00Z', ends_at: '2021-01-01T00:00:00Z' });
    expect((await app.graphql(QUOTE, { lines: quoteLines(0, 2) })).body.data.cartQuote).toMatchObject({ discount: '0.00', discountName: null });
    await automatic({ ...FROM_20, name: 'Now', starts_at: '2020-01-01T00:00:00Z', ends_at: '2099-01-01T00:00:00Z' });
    expect((await app.graphql(QUOTE, { lines: quoteLines(0, 2) })).body.data.cartQuote).toMatchObject({ discount: '3.00', discountName: 'Now' });
  });
});

describe('an automatic discount and a code', () => {
  it('apply the better of the two, never both, and count the code only when it applied', async () => {
    await automatic(FROM_20);
    const better = uniqueCode('BETTER');
    const worse = uniqueCode('WORSE');
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: better, percent_off: 20 } });
    const worseRow = await (await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: worse, percent_off: 5 } })).json();
    const lines = quoteLines(1, 2);
    // 28.50: 20 % is 5.70 (more than 3.00); 5 % is 1.43 (less).
    expect((await app.graphql(QUOTE, { lines, code: better })).body.data.cartQuote).toEqual({ subtotal: '28.50', discount: '5.70', discountCode: better, discountName: better, discountKind: 'CODE', total: '22.80' });
    expect((await app.graphql(QUOTE, { lines, code: worse })).body.data.cartQuote).toEqual({ subtotal: '28.50', discount: '3.00', discountCode: null, discountName: 'Orders from $20: $3 off', discountKind: 'SUBTOTAL', total: '25.50' });
    const { body } = await placeOrder(app, orderInput(shop, { discountCode: worse }));
    expect(body.errors).toBeUndefined();
    expect(body.data.placeOrder.total).toBe('25.50');
    expect(await app.sql('select uses from discount_code where id = $1', [worseRow.id])).toEqual([{ uses: 0 }]);
    const [row] = await app.sql('select discount_code, discount_name, discount_kind, discount_amount::text from "order" where id = $1', [body.data.placeOrder.id]);
    expect(row).toEqual({ discount_code: null, discount_name: 'Orders from $20: $3 off', discount_kind: 'subtotal', discount_amount: '3.00' });
  });

  it('still checks the code: one whose rules refuse the cart is refused, though an automatic discount applies', async () => {
    await automatic(FROM_20);
    const code = uniqueCode('BIGONLY');
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code, percent_off: 50, min_subtotal: 100 } });
    const { body } = await app.graphql(QUOTE, { lines: quoteLines(1, 2), code }, await app.customer());
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'DISCOUNT_NOT_APPLICABLE', field: 'discountCode' });
    expect(body.errors![0]!.message).toBe('This code needs a subtotal of at least $100.00.');
  });
});

describe('the order', () => {
  it('records the discount that applied (name, kind, amount): GraphQL, REST, the receipt, and refunds give back what was paid', async () => {
    await automatic(THREE_CARDS);
    const input = orderInput(shop, { purchaserEmail: 'three-cards@example.com', lines: cart(3, 1) });
    const { body } = await placeOrder(app, input);
    expect(body.errors).toBeUndefined();
    const order = body.data.placeOrder;
    expect(order.total).toBe('23.47');
    const fields = await app.graphql(`query($id: ID!) { order(id: $id) { discountCode discountName discountKind discountAmount total } }`, { id: order.id }, admin);
    expect(fields.body.data.order).toEqual({ discountCode: null, discountName: '3 cards, 15 % off', discountKind: 'CARDS', discountAmount: '2.03', total: '23.47' });
    await expect.poll(() => [...outbox(app).values()].find((mail) => mail.includes('To: three-cards@example.com') && mail.includes('Thank you for your order')) ?? '', { timeout: 20_000 }).toMatch(/3 cards, 15 % off\s+-\$2\.03/);
    const refunded = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin });
    expect(refunded.status).toBe(200);
    expect(await refunded.json()).toMatchObject({ order_status: 'refunded', refunded_amount: 23.47, discount_name: '3 cards, 15 % off', discount_kind: 'cards', discount_amount: 2.03, discount_code: null });
  });

  it('keeps its discount when the automatic discount is deleted', async () => {
    const { id } = await automatic(FROM_20);
    const { body } = await placeOrder(app, orderInput(shop));
    await app.request(`/api/admin/automatic-discounts/${id}`, { method: 'DELETE', token: admin });
    const [row] = await app.sql('select discount_name, discount_amount::text, total::text from "order" where id = $1', [body.data.placeOrder.id]);
    expect(row).toEqual({ discount_name: 'Orders from $20: $3 off', discount_amount: '3.00', total: '25.50' });
  });
});
