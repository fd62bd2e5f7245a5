import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { PAY_DECLINED, orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Discount codes with rules (contract section 17): products, categories, minimum subtotal, once per customer, first order only. */

let app: TestApp;
let admin: string;
let shop: Shop;
/** A category with a subcategory holding an album at 10.00. */
let parentId: number;
let subAlbumId: number;
const payments = new TestPaymentProvider();

beforeAll(async () => {
  app = await startTestApp({}, { paymentProviders: [payments] });
  admin = await app.login();
  shop = await seedShop(app, admin);
  parentId = await restCategory(app, admin, 'Seasons');
  const subId = await restCategory(app, admin, 'Winter', parentId);
  const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { category_id: subId, name: 'Winter Songs', description: 'Snow.', price: 10, product_type_id: 2 }, tags: [], e_greeting_card_data: null } });
  if (res.status !== 201) throw new Error(`product failed: ${res.status} ${await res.text()}`);
  subAlbumId = (await res.json()).product.id;
});
afterAll(async () => {
  await app?.stop();
});

const UNUSABLE = /^This discount code cannot be used: it is unknown, not valid yet, expired or used up\.$/;
const QUOTE = `query($lines: [CartLineInput!]!, $code: String) { cartQuote(lines: $lines, discountCode: $code) { subtotal discount discountCode discountName discountKind total } }`;
const uniqueCode = (prefix: string) => `${prefix}${crypto.randomBytes(3).toString('hex')}`.toUpperCase();
const uniqueEmail = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;

async function createCode(json: Record<string, unknown>): Promise<{ id: number; code: string }> {
  const res = await app.request('/api/admin/discounts', { method: 'POST', token: admin, json });
  if (res.status !== 201) throw new Error(`discount failed: ${res.status} ${await res.text()}`);
  return res.json();
}
const uses = async (id: number) => (await app.sql<{ uses: number }>('select uses from discount_code where id = $1', [id]))[0]!.uses;
const redemptions = async (id: number) => Number((await app.sql<{ n: string }>('select count(*) as n from discount_redemption where discount_code_id = $1', [id]))[0]!.n);

/** Expects a placing or a quote to be refused: DISCOUNT_NOT_APPLICABLE with `reason` for a shopper, the one message for anyone else. */
function expectNotApplicable(body: { errors?: { message: string; extensions?: { code?: string; field?: string } }[] }, reason: RegExp) {
  expect(body.errors?.[0]?.extensions, JSON.stringify(body.errors)).toMatchObject({ code: 'DISCOUNT_NOT_APPLICABLE', field: 'discountCode' });
  expect(body.errors![0]!.message).toMatch(reason);
}
function expectUnusable(body: { errors?: { message: string; extensions?: { code?: string; field?: string } }[] }) {
  expect(body.errors?.[0]?.extensions, JSON.stringify(body.errors)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'discountCode' });
  expect(body.errors![0]!.message).toMatch(UNUSABLE);
}

describe('the rules of a code, REST and GraphQL', () => {
  it('takes and answers product_ids, category_ids, min_subtotal, once_per_customer, first_order_only, starts_at and ends_at', async () => {
    const code = uniqueCode('RULES');
    const res = await app.request('/api/admin/discounts', {
      method: 'POST',
      token: admin,
      json: { code, percent_off: 10, product_ids: [shop.albumId], category_ids: [parentId], min_subtotal: 30, once_per_customer: true, first_order_only: true, starts_at: '2026-01-01T00:00:00Z', ends_at: '2099-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ code, product_ids: [shop.albumId], category_ids: [parentId], min_subtotal: 30, once_per_customer: true, first_order_only: true, starts_at: '2026-01-01T00:00:00.000Z', ends_at: '2099-01-01T00:00:00.000Z' });
    const put = await app.request(`/api/admin/discounts/${created.id}`, { method: 'PUT', token: admin, json: { code, amount_off: 5, product_ids: [], min_subtotal: null } });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ amount_off: 5, product_ids: [], category_ids: [], min_subtotal: null, once_per_customer: false, first_order_only: false });
    const audit = await app.sql<{ summary: string }>(`select summary from audit_entry where entity = 'discount' and entity_id = $1 and action = 'updated'`, [String(created.id)]);
    expect(audit[0]!.summary).toMatch(/minimum subtotal/);

    const gql = await app.graphql(
      `mutation($input: DiscountCodeInput!) { createDiscountCode(input: $input) { code productIds categoryIds minSubtotal oncePerCustomer firstOrderOnly } }`,
      { input: { code: uniqueCode('GQLR'), percentOff: 5, productIds: [shop.cardId], categoryIds: [parentId], minSubtotal: '12.50', oncePerCustomer: true, firstOrderOnly: false } },
      admin,
    );
    expect(gql.body.data.createDiscountCode).toMatchObject({ productIds: [shop.cardId], categoryIds: [parentId], minSubtotal: '12.50', oncePerCustomer: true, firstOrderOnly: false });
  });

  it('refuses bad rules with 400 on the REST field name', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'MINBAD', percent_off: 5, min_subtotal: -3 }, 'min_subtotal'],
      [{ code: 'MINTEXT', percent_off: 5, min_subtotal: 'lots' }, 'min_subtotal'],
      [{ code: 'ONCEBAD', percent_off: 5, once_per_customer: 'yes' }, 'once_per_customer'],
      [{ code: 'FIRSTBAD', percent_off: 5, first_order_only: 1 }, 'first_order_only'],
      [{ code: 'PRODBAD', percent_off: 5, product_ids: 'all' }, 'product_ids'],
    ];
    for (const [json, field] of cases) {
      const res = await app.request('/api/admin/discounts', { method: 'POST', token: admin, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).field, JSON.stringify(json)).toBe(field);
    }
  });
});

describe('products and categories', () => {
  it('takes a percentage off the products it names only', async () => {
    const code = uniqueCode('ALBUM');
    await createCode({ code, percent_off: 50, product_ids: [shop.albumId] });
    const lines = [{ productId: shop.cardId, quantity: 1 }, { productId: shop.albumId, quantity: 2 }];
    const { body } = await app.graphql(QUOTE, { lines, code });
    // 4.50 + 24.00; half of the albums' 24.00.
    expect(body.data.cartQuote).toEqual({ subtotal: '28.50', discount: '12.00', discountCode: code, discountName: code, discountKind: 'CODE', total: '16.50' });
  });

  it('takes an amount off the products of a category and its subcategories, capped at their sum', async () => {
    const five = uniqueCode('SEASON');
    const fifty = uniqueCode('SEASONBIG');
    await createCode({ code: five, amount_off: 5, category_ids: [parentId] });
    await createCode({ code: fifty, amount_off: 50, category_ids: [parentId] });
    const lines = [{ productId: shop.cardId, quantity: 1 }, { productId: subAlbumId, quantity: 1 }];
    expect((await app.graphql(QUOTE, { lines, code: five })).body.data.cartQuote).toMatchObject({ subtotal: '14.50', discount: '5.00', total: '9.50' });
    // The album of the subcategory is 10.00: the card's 4.50 is not the code's to take.
    expect((await app.graphql(QUOTE, { lines, code: fifty })).body.data.cartQuote).toMatchObject({ subtotal: '14.50', discount: '10.00', total: '4.50' });
  });

  it('says to a shopper that the code is for none of the cart, and to anyone else the one message', async () => {
    const code = uniqueCode('NOTHERE');
    await createCode({ code, percent_off: 20, category_ids: [parentId] });
    const shopper = await app.customer();
    const lines = [{ productId: shop.cardId, quantity: 1 }];
    expectNotApplicable((await app.graphql(QUOTE, { lines, code }, shopper)).body, /^This code applies to none of the products in your cart\.$/);
    expectUnusable((await app.graphql(QUOTE, { lines, code })).body);
    // At checkout too (the seeded cart has no product of the category).
    expectNotApplicable((await placeOrder(app, orderInput(shop, { discountCode: code }), shopper)).body, /none of the products/);
    expectUnusable((await placeOrder(app, orderInput(shop, { discountCode: code }))).body);
  });
});

describe('guessing', () => {
  it('keeps the point of a refused rule for an anonymous caller (as any unusable code) and gives it back to a shopper who heard why', async () => {
    const code = uniqueCode('POINTS');
    await createCode({ code, percent_off: 10, min_subtotal: 500 });
    const points = async () => (await app.sql<{ points: number }>(`select coalesce(sum(points), 0)::int as points from rate_limit where key like 'discount-code:%'`))[0]!.points;
    const lines = [{ productId: shop.albumId, quantity: 1 }];
    const before = await points();
    expectNotApplicable((await app.graphql(QUOTE, { lines, code }, await app.customer())).body, /at least \$500\.00/);
    expect(await points()).toBe(before);
    expectUnusable((await app.graphql(QUOTE, { lines, code })).body);
    expect(await points()).toBe(before + 1);
  });
});

describe('a minimum subtotal', () => {
  it('applies from the subtotal it needs and says so below it', async () => {
    const code = uniqueCode('MIN');
    await createCode({ code, percent_off: 10, min_subtotal: 30 });
    const shopper = await app.customer();
    // 28.50: below.
    expectNotApplicable((await placeOrder(app, orderInput(shop, { discountCode: code }), shopper)).body, /^This code needs a subtotal of at least \$30\.00\.$/);
    expectUnusable((await placeOrder(app, orderInput(shop, { discountCode: code }))).body);
    // 4.50 + 3 × 12.00 = 40.50: 4.05 off.
    const { body } = await placeOrder(app, orderInput(shop, { discountCode: code, lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation() }, { productId: shop.albumId, quantity: 3 }] }), shopper);
    expect(body.errors).toBeUndefined();
    expect(body.data.placeOrder.total).toBe('36.45');
  });
});

describe('once per customer', () => {
  it('lets an account use it once, whatever address it gives', async () => {
    const code = uniqueCode('ONCEACC');
    const { id } = await createCode({ code, percent_off: 10, once_per_customer: true });
    const shopper = await app.customer();
    const first = await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: uniqueEmail('acc') }), shopper);
    expect(first.body.errors).toBeUndefined();
    expectNotApplicable((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: uniqueEmail('other') }), shopper)).body, /^This code can be used once per customer, and you have used it\.$/);
    // Their cart says so before checkout too.
    expectNotApplicable((await app.graphql(QUOTE, { lines: [{ productId: shop.albumId, quantity: 1 }], code }, shopper)).body, /once per customer/);
    expect(await uses(id)).toBe(1);
    // Another account may.
    expect((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: uniqueEmail('acc2') }), await app.customer())).body.errors).toBeUndefined();
  });

  it('lets an address use it once, in any case, signed in or not', async () => {
    const code = uniqueCode('ONCEMAIL');
    await createCode({ code, amount_off: 2, once_per_customer: true });
    const email = uniqueEmail('mail');
    expect((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email }))).body.errors).toBeUndefined();
    expectUnusable((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email.toUpperCase() }))).body);
    expectNotApplicable((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email }), await app.customer())).body, /once per customer/);
  });

  it('gives the use back when the payment is declined', async () => {
    const code = uniqueCode('ONCEDECL');
    const { id } = await createCode({ code, percent_off: 10, once_per_customer: true });
    const email = uniqueEmail('declined');
    const declined = await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email, payment: PAY_DECLINED }));
    expect(declined.body.errors![0]!.extensions!.code).toBe('PAYMENT_DECLINED');
    expect(await redemptions(id)).toBe(0);
    expect(await uses(id)).toBe(0);
    expect((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email }))).body.errors).toBeUndefined();
    expect(await redemptions(id)).toBe(1);
  });

  it('lets exactly one of 12 concurrent checkouts of one address through', async () => {
    const code = uniqueCode('RACEMAIL');
    const { id } = await createCode({ code, percent_off: 25, once_per_customer: true });
    const email = uniqueEmail('race');
    const results = await Promise.all(Array.from({ length: 12 }, () => placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email }))));
    expect(results.filter((r) => r.body.data?.placeOrder)).toHaveLength(1);
    const refused = results.filter((r) => r.body.errors);
    expect(refused).toHaveLength(11);
    for (const r of refused) expectUnusable(r.body);
    expect(await uses(id)).toBe(1);
    expect(await redemptions(id)).toBe(1);
    const [{ n }] = await app.sql<{ n: string }>('select count(*) as n from "order" where discount_code = $1', [code]);
    expect(Number(n)).toBe(1);
  });

  it('lets exactly one of 12 concurrent checkouts of one account through, each with its own address', async () => {
    const code = uniqueCode('RACEACC');
    const { id } = await createCode({ code, percent_off: 25, once_per_customer: true });
    const shopper = await app.customer();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: uniqueEmail(`race${i}`) }), shopper)));
    expect(results.filter((r) => r.body.data?.placeOrder)).toHaveLength(1);
    const refused = results.filter((r) => r.body.errors);
    expect(refused).toHaveLength(11);
    for (const r of refused) expectNotApplicable(r.body, /once per customer/);
    expect(await uses(id)).toBe(1);
  });
});

describe('a first order only', () => {
  it('is for an address or an account without an earlier paid order', async () => {
    const code = uniqueCode('FIRST');
    await createCode({ code, percent_off: 15, first_order_only: true });
    const email = uniqueEmail('first');
    // A declined payment is no order.
    await placeOrder(app, orderInput(shop, { purchaserEmail: email, payment: PAY_DECLINED }));
    expect((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email }))).body.errors).toBeUndefined();
    expectUnusable((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email }))).body);
    const shopper = await app.customer();
    expectNotApplicable((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: email }), shopper)).body, /^This code is for a first order only\.$/);
    // An account with a paid order (under any address) is no first-time customer either.
    const regular = await app.customer();
    expect((await placeOrder(app, orderInput(shop, { purchaserEmail: uniqueEmail('reg') }), regular)).body.errors).toBeUndefined();
    expectNotApplicable((await placeOrder(app, orderInput(shop, { discountCode: code, purchaserEmail: uniqueEmail('new') }), regular)).body, /first order only/);
    expectNotApplicable((await app.graphql(QUOTE, { lines: [{ productId: shop.albumId, quantity: 1 }], code }, regular)).body, /first order only/);
  });
});

describe('start and end', () => {
  it('is refused before its start and from its end', async () => {
    const soon = uniqueCode('SOON');
    const over = uniqueCode('OVER');
    await createCode({ code: soon, percent_off: 5, product_ids: [shop.albumId], starts_at: '2099-01-01T00:00:00Z' });
    await createCode({ code: over, percent_off: 5, min_subtotal: 1, starts_at: '2020-01-01T00:00:00Z', ends_at: '2021-01-01T00:00:00Z' });
    const shopper = await app.customer();
    const lines = [{ productId: shop.albumId, quantity: 1 }];
    expect((await app.graphql(QUOTE, { lines, code: soon }, shopper)).body.errors![0]!.message).toMatch(/not valid yet/);
    expect((await app.graphql(QUOTE, { lines, code: over }, shopper)).body.errors![0]!.message).toMatch(/expired/);
  });
});

describe('refunds of an order a code discounted', () => {
  it('give back what was paid, line by line and whole', async () => {
    const code = uniqueCode('REFUND');
    await createCode({ code, percent_off: 50, product_ids: [shop.albumId] });
    const { body } = await placeOrder(app, orderInput(shop, { discountCode: code }));
    const order = body.data.placeOrder;
    // 4.50 + 24.00 - 12.00.
    expect(order.total).toBe('16.50');
    const card = order.items.find((item: { itemUrlUuid: string | null }) => item.itemUrlUuid);
    const first = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin, json: { item_ids: [Number(card.id)] } });
    expect(first.status).toBe(200);
    const partly = await first.json();
    // The card's share of what was charged: 4.50 × 16.50 / 28.50.
    expect(partly).toMatchObject({ order_status: 'partially_refunded', refunded_amount: 2.61, discount_code: code, discount_name: code, discount_kind: 'code', discount_amount: 12 });
    const rest = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin });
    expect(await rest.json()).toMatchObject({ order_status: 'refunded', refunded_amount: 16.5 });
  });
});
