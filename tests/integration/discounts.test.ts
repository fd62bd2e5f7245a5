import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { PAY_DECLINED, orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

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

/** What an anonymous caller hears of every code that cannot be used. */
const UNUSABLE = /^This discount code cannot be used: it is unknown, not valid yet, expired or used up\.$/;
const QUOTE = `query($lines: [CartLineInput!]!, $code: String) { cartQuote(lines: $lines, discountCode: $code) { subtotal discount discountCode total } }`;
const albumLines = () => [{ productId: shop.albumId, quantity: 2 }];

async function createCode(json: Record<string, unknown>): Promise<{ id: number; code: string }> {
  const res = await app.request('/api/admin/discounts', { method: 'POST', token: admin, json });
  if (res.status !== 201) throw new Error(`discount failed: ${res.status} ${await res.text()}`);
  return res.json();
}
const uniqueCode = (prefix: string) => `${prefix}${crypto.randomBytes(3).toString('hex')}`.toUpperCase();

describe('REST /api/admin/discounts', () => {
  it('creates, lists, edits and deletes codes with the fields of the contract', async () => {
    const res = await app.request('/api/admin/discounts', {
      method: 'POST',
      token: admin,
      json: { code: 'Spring-10', percent_off: 10, starts_at: '2026-01-01T00:00:00Z', ends_at: '2030-01-01T00:00:00Z', max_uses: 100 },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toEqual({ id: expect.any(Number), code: 'Spring-10', percent_off: 10, amount_off: null, starts_at: '2026-01-01T00:00:00.000Z', ends_at: '2030-01-01T00:00:00.000Z', max_uses: 100, uses: 0, product_ids: [], category_ids: [], min_subtotal: null, once_per_customer: false, first_order_only: false });

    const list = await (await app.request('/api/admin/discounts', { token: admin })).json();
    expect(list).toContainEqual(created);

    const put = await app.request(`/api/admin/discounts/${created.id}`, { method: 'PUT', token: admin, json: { code: 'SPRING-5', amount_off: 5, starts_at: null, ends_at: null, max_uses: null } });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ code: 'SPRING-5', percent_off: null, amount_off: 5, starts_at: null, max_uses: null });

    expect((await app.request(`/api/admin/discounts/${created.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await app.request(`/api/admin/discounts/${created.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('keeps codes unique whatever their case (409)', async () => {
    await createCode({ code: 'Unique1', percent_off: 5 });
    const res = await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: 'UNIQUE1', amount_off: 1 } });
    expect(res.status).toBe(409);
    const other = await createCode({ code: 'Unique2', percent_off: 5 });
    const put = await app.request(`/api/admin/discounts/${other.id}`, { method: 'PUT', token: admin, json: { code: 'unique1', percent_off: 5 } });
    expect(put.status).toBe(409);
  });

  it('refuses bad fields with 400 on the REST field name', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'x', percent_off: 10 }, 'code'],
      [{ code: 'BOTH', percent_off: 10, amount_off: 2 }, 'amount_off'],
      [{ code: 'NEITHER' }, 'percent_off'],
      [{ code: 'PCT', percent_off: 120 }, 'percent_off'],
      [{ code: 'AMT', amount_off: -1 }, 'amount_off'],
      [{ code: 'DATES', percent_off: 5, starts_at: '2030-01-01T00:00:00Z', ends_at: '2029-01-01T00:00:00Z' }, 'ends_at'],
      [{ code: 'WHEN', percent_off: 5, starts_at: 'soon' }, 'starts_at'],
      [{ code: 'MAX', percent_off: 5, max_uses: 0 }, 'max_uses'],
    ];
    for (const [json, field] of cases) {
      const res = await app.request('/api/admin/discounts', { method: 'POST', token: admin, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).field, JSON.stringify(json)).toBe(field);
    }
    expect((await app.request('/api/admin/discounts/999999', { method: 'PUT', token: admin, json: { code: 'GONE', percent_off: 5 } })).status).toBe(404);
    expect((await app.request('/api/admin/discounts/abc', { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('is for admins only (401 anonymous, 403 customers)', async () => {
    const customer = await app.customer();
    expect((await app.request('/api/admin/discounts')).status).toBe(401);
    expect((await app.request('/api/admin/discounts', { token: customer })).status).toBe(403);
    expect((await app.request('/api/admin/discounts', { method: 'POST', token: customer, json: { code: 'HACK', percent_off: 100 } })).status).toBe(403);
    const { body } = await app.graphql('{ discountCodes { id } }', {}, customer);
    expect(body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});

describe('GraphQL for the console', () => {
  it('creates, edits, lists and deletes codes', async () => {
    const code = uniqueCode('GQL');
    const created = await app.graphql(`mutation($input: DiscountCodeInput!) { createDiscountCode(input: $input) { id code percentOff amountOff maxUses uses } }`, { input: { code, amountOff: '2.50', maxUses: 3 } }, admin);
    expect(created.body.data.createDiscountCode).toMatchObject({ code, percentOff: null, amountOff: '2.50', maxUses: 3, uses: 0 });
    const id = created.body.data.createDiscountCode.id;
    const updated = await app.graphql(`mutation($id: Int!, $input: DiscountCodeInput!) { updateDiscountCode(id: $id, input: $input) { percentOff amountOff } }`, { id, input: { code, percentOff: 15 } }, admin);
    expect(updated.body.data.updateDiscountCode).toEqual({ percentOff: 15, amountOff: null });
    const list = await app.graphql('{ discountCodes { id code } }', {}, admin);
    expect(list.body.data.discountCodes).toContainEqual({ id, code });
    const dup = await app.graphql(`mutation($input: DiscountCodeInput!) { createDiscountCode(input: $input) { id } }`, { input: { code: code.toLowerCase(), percentOff: 1 } }, admin);
    expect(dup.body.errors![0]!.extensions!.code).toBe('CONFLICT');
    const deleted = await app.graphql(`mutation($id: Int!) { deleteDiscountCode(id: $id) }`, { id }, admin);
    expect(deleted.body.data.deleteDiscountCode).toBe(String(id));
  });
});

describe('pricing with a code', () => {
  it('prices a percentage and an amount off in cartQuote, in any case', async () => {
    const pct = uniqueCode('PCT');
    const amt = uniqueCode('AMT');
    await createCode({ code: pct, percent_off: 15 });
    await createCode({ code: amt, amount_off: 30 });
    const a = await app.graphql(QUOTE, { lines: albumLines(), code: pct.toLowerCase() });
    expect(a.body.data.cartQuote).toEqual({ subtotal: '24.00', discount: '3.60', discountCode: pct, total: '20.40' });
    const b = await app.graphql(QUOTE, { lines: albumLines(), code: amt });
    expect(b.body.data.cartQuote).toEqual({ subtotal: '24.00', discount: '24.00', discountCode: amt, total: '0.00' });
    const none = await app.graphql(QUOTE, { lines: albumLines() });
    expect(none.body.data.cartQuote).toEqual({ subtotal: '24.00', discount: '0.00', discountCode: null, total: '24.00' });
  });

  it('tells a signed-in shopper why an unknown, not yet valid, expired or used-up code cannot be used, and anyone else one message for all', async () => {
    const later = uniqueCode('LATER');
    const old = uniqueCode('OLD');
    const gone = uniqueCode('GONE');
    await createCode({ code: later, percent_off: 5, starts_at: '2099-01-01T00:00:00Z' });
    await createCode({ code: old, percent_off: 5, starts_at: '2020-01-01T00:00:00Z', ends_at: '2021-01-01T00:00:00Z' });
    const used = await createCode({ code: gone, percent_off: 5, max_uses: 1 });
    await app.sql('update discount_code set uses = 1 where id = $1', [used.id]);
    const shopper = await app.customer();
    const expectations: [string, RegExp, RegExp][] = [
      ['NOSUCHCODE', /no such discount code/, UNUSABLE],
      [later, /not valid yet/, UNUSABLE],
      [old, /expired/, UNUSABLE],
      [gone, /used up/, UNUSABLE],
      // A code that is not even written like one says so to anyone: no code was looked up.
      ['bad code!', /letters, digits/, /letters, digits/],
    ];
    for (const [code, reason, anonymous] of expectations) {
      for (const [token, message] of [[shopper, reason], [undefined, anonymous]] as const) {
        const { body } = await app.graphql(QUOTE, { lines: albumLines(), code }, token);
        expect(body.errors![0]!.extensions, code).toMatchObject({ code: 'BAD_USER_INPUT', field: 'discountCode' });
        expect(body.errors![0]!.message, code).toMatch(message);
        const placed = await placeOrder(app, orderInput(shop, { discountCode: code }), token);
        expect(placed.body.errors![0]!.message, code).toMatch(message);
      }
    }
  });

  it('charges the discounted total, keeps the code and the amount on the order, and counts the use', async () => {
    const code = uniqueCode('SALE');
    const { id } = await createCode({ code, percent_off: 10, max_uses: 5 });
    const { body } = await placeOrder(app, orderInput(shop, { discountCode: code.toLowerCase() }));
    expect(body.errors).toBeUndefined();
    // 4.50 card + 2 × 12.00 album = 28.50; 10% = 2.85.
    const order = body.data.placeOrder;
    expect(order.total).toBe('25.65');
    const [row] = await app.sql<{ discount_code: string; discount_amount: string; total: string }>('select discount_code, discount_amount, total from "order" where id = $1', [order.id]);
    expect(row).toEqual({ discount_code: code, discount_amount: '2.85', total: '25.65' });
    const [{ uses }] = await app.sql<{ uses: number }>('select uses from discount_code where id = $1', [id]);
    expect(uses).toBe(1);
    const fields = await app.graphql(`query($id: ID!) { order(id: $id) { discountCode discountAmount total } }`, { id: order.id }, admin);
    expect(fields.body.data.order).toEqual({ discountCode: code, discountAmount: '2.85', total: '25.65' });
  });

  it('gives the use back when the payment is declined, and a retry of the same checkout counts once', async () => {
    const code = uniqueCode('ONCE');
    const { id } = await createCode({ code, amount_off: 1, max_uses: 1 });
    const declined = await placeOrder(app, orderInput(shop, { discountCode: code, payment: PAY_DECLINED }));
    expect(declined.body.errors![0]!.extensions!.code).toBe('PAYMENT_DECLINED');
    const uses = async () => (await app.sql<{ uses: number }>('select uses from discount_code where id = $1', [id]))[0]!.uses;
    expect(await uses()).toBe(0);
    const input = orderInput(shop, { discountCode: code });
    const first = await placeOrder(app, input);
    const again = await placeOrder(app, input);
    expect(again.body.data.placeOrder.id).toBe(first.body.data.placeOrder.id);
    expect(await uses()).toBe(1);
  });

  it('lets exactly one of 20 shoppers racing for the last use through', async () => {
    const code = uniqueCode('LAST');
    const { id } = await createCode({ code, percent_off: 50, max_uses: 3 });
    await app.sql('update discount_code set uses = 2 where id = $1', [id]);
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrder(app, orderInput(shop, { discountCode: code }))));
    const ok = results.filter((r) => r.body.data?.placeOrder);
    const refused = results.filter((r) => r.body.errors);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.body.errors![0]!.message).toMatch(/used up/);
    const [{ uses }] = await app.sql<{ uses: number }>('select uses from discount_code where id = $1', [id]);
    expect(uses).toBe(3);
    const [{ n }] = await app.sql<{ n: string }>('select count(*) as n from "order" where discount_code = $1', [code]);
    expect(Number(n)).toBe(1);
  });
});

describe('orders a code pays for whole, and checkouts left pending', () => {
  it('pays an order of 0.00 without charging the card', async () => {
    const code = uniqueCode('FREE');
    await createCode({ code, amount_off: 100 });
    const charges = payments.chargeCount;
    const { body } = await placeOrder(app, orderInput(shop, { discountCode: code }));
    expect(body.errors).toBeUndefined();
    expect(body.data.placeOrder).toMatchObject({ status: 'PAID', total: '0.00' });
    expect(payments.chargeCount).toBe(charges);
    expect(await app.sql('select payment_reference from "order" where id = $1', [body.data.placeOrder.id])).toEqual([{ payment_reference: null }]);
  });

  it('gives the use of a checkout left pending for 30 minutes back, and removes it', async () => {
    const code = uniqueCode('LEFT');
    const { id } = await createCode({ code, percent_off: 10, max_uses: 1 });
    const { body } = await placeOrder(app, orderInput(shop, { discountCode: code }));
    const orderId = body.data.placeOrder.id as string;
    // As a process that died between writing the order and charging it leaves it.
    await app.sql(`update "order" set status = 'pending', payment_reference = null, created_at = now() - interval '20 minutes' where id = $1`, [orderId]);
    await app.sql(`delete from mail_job where subject = 'order:' || $1`, [orderId]);
    expect(await app.services.abandonedCheckouts.sweep(app.orm)).toBe(0);
    await app.sql(`update "order" set created_at = now() - interval '31 minutes' where id = $1`, [orderId]);
    expect(await app.services.abandonedCheckouts.sweep(app.orm)).toBe(1);
    expect(await app.sql('select id from "order" where id = $1', [orderId])).toEqual([]);
    expect(await app.sql('select uses from discount_code where id = $1', [id])).toEqual([{ uses: 0 }]);
    // The code can be used again.
    expect((await placeOrder(app, orderInput(shop, { discountCode: code }))).body.data.placeOrder.status).toBe('PAID');
  });
});

describe('guessing codes', () => {
  it('answers 429 with Retry-After and RATE_LIMITED once an address tried 20 codes that cannot be used, counted in PostgreSQL', async () => {
    // The shop's own limit (20 an hour), not the test files' generous one.
    const limited = await startTestApp({ trustProxy: 1, limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000 } });
    try {
      const shopL = await seedShop(limited, await limited.login());
      const valid = uniqueCode('REAL');
      await limited.request('/api/admin/discounts', { method: 'POST', token: await limited.login(), json: { code: valid, percent_off: 10 } });
      const quote = (code: string, from = '203.0.113.30') =>
        limited.request('/graphql', { method: 'POST', json: { query: QUOTE, variables: { lines: [{ productId: shopL.albumId, quantity: 1 }], code } }, headers: { 'x-forwarded-for': from } });
      const statuses: number[] = [];
      for (let i = 0; i < 60; i += 1) {
        // A usable code now and then gives its point back: it is not a guess that failed.
        if (i % 10 === 5) expect((await quote(valid)).status, `valid code at ${i}`).toBe(statuses.at(-1) === 429 ? 429 : 200);
        statuses.push((await quote(`GUESS${i}`)).status);
      }
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
      expect(statuses.slice(20)).toEqual(Array(40).fill(429));
      const refused = await quote('GUESS99');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).errors[0].extensions.code).toBe('RATE_LIMITED');
      // The limit holds for placing orders with a code too, and for no other address.
      const placed = await limited.request('/graphql', { method: 'POST', json: { query: 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }', variables: { input: orderInput(shopL, { discountCode: valid }) } }, headers: { 'x-forwarded-for': '203.0.113.30' } });
      expect(placed.status).toBe(429);
      expect((await quote('GUESS0', '203.0.113.31')).status).toBe(200);
      expect(await limited.sql(`select key, points from rate_limit where key like 'discount-code:%' order by key`)).toEqual([
        { key: 'discount-code:203.0.113.30', points: 66 },
        { key: 'discount-code:203.0.113.31', points: 1 },
      ]);
    } finally {
      await limited.stop();
    }
  });

  it('looks up one code per operation: aliases with other codes are refused before they are looked up', async () => {
    const alias = (i: number) => `c${i}: cartQuote(lines: $lines, discountCode: "TRY${i}") { total }`;
    const points = async () => (await app.sql<{ points: number }>(`select coalesce(sum(points), 0)::int as points from rate_limit where key like 'discount-code:%'`))[0]!.points;
    const before = await points();
    // The same code twice (in any case) is one look-up.
    const same = await app.graphql(`query($lines: [CartLineInput!]!) { a: cartQuote(lines: $lines, discountCode: "NOSUCH1") { total } b: cartQuote(lines: $lines, discountCode: "nosuch1") { total } }`, { lines: albumLines() });
    expect(same.body.errors![0]!.message).toMatch(UNUSABLE);
    // The answer may come before the point is written: an error in one of two non-null fields answers
    // the document at once (graphql-js), while the other field still takes the code's point.
    await expect.poll(points, { timeout: 10_000 }).toBe(before + 1);
    // Thirty codes in one document: one is looked up, the others are refused unread.
    const many = await app.graphql(`query($lines: [CartLineInput!]!) { ${Array.from({ length: 30 }, (_, i) => alias(i)).join(' ')} }`, { lines: albumLines() });
    expect(many.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'discountCode' });
    expect(many.body.errors![0]!.message).toMatch(/^(Only one discount code can be tried at a time\.|This discount code cannot be used)/);
    await expect.poll(points, { timeout: 10_000 }).toBe(before + 2);
    expect(await points()).toBe(before + 2);
  });
});
