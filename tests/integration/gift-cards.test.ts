import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { RecordingProvider } from '../helpers/recording-provider.js';
import { PAY_DECLINED, orderInput, outbox, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let shop: Shop;
const payments = new RecordingProvider();
let address = 0;
/** A client address of its own for each caller that counts look-ups. */
const nextAddress = () => `198.51.100.${++address}`;

beforeAll(async () => {
  // The shop's own limit on look-ups (10 an hour), each test from addresses of its own.
  app = await startTestApp({ trustProxy: 1, limits: { ...loadConfig({}).limits, registerPerHour: 10_000, checkoutPer10Minutes: 10_000 } }, { paymentProviders: [payments] });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

async function issue(amount: number | string, reason = 'A goodwill gesture'): Promise<{ id: number; code: string; last4: string; balance: number }> {
  const res = await app.request('/api/admin/gift-cards', { method: 'POST', token: admin, json: { amount, reason } });
  if (res.status !== 201) throw new Error(`issue failed: ${res.status} ${await res.text()}`);
  return res.json();
}

const balanceOf = async (id: number) => (await app.sql<{ balance: string; status: string }>('select balance::text, status from gift_card where id = $1', [id]))[0]!;
const ledger = (id: number) => app.sql<{ kind: string; amount: string; balance_after: string; order_id: string | null; reason: string | null; actor: string | null }>('select kind, amount::text, balance_after::text, order_id, reason, actor from gift_card_entry where gift_card_id = $1 order by id', [id]);
const ORDER = `id status total giftCardAmount giftCardLast4 chargedAmount cardLast4`;
const place = (input: Record<string, unknown>, from = nextAddress()) =>
  app.request('/graphql', { method: 'POST', json: { query: `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { ${ORDER} } }`, variables: { input } }, headers: { 'x-forwarded-for': from } }).then(async (res) => ({ status: res.status, body: await res.json() }));
/** The seeded shop's order: a card at 4.50 and two albums at 12.00: 28.50. */
const TOTAL = '28.50';

describe('REST /api/admin/gift-cards', () => {
  it('issues a card whose code is answered once and kept only as a digest and its last four', async () => {
    const res = await app.request('/api/admin/gift-cards', { method: 'POST', token: admin, json: { amount: 30, reason: 'Apology for a late card' } });
    expect(res.status).toBe(201);
    const card = await res.json();
    expect(card).toEqual({ id: expect.any(Number), code: expect.stringMatching(/^[ACDEFGHJKMNPQRTUVWXY34679]{4}(-[ACDEFGHJKMNPQRTUVWXY34679]{4}){3}$/), last4: card.code.slice(-4), initial_amount: 30, balance: 30, currency: 'USD', status: 'active', source: 'issued', reason: 'Apology for a late card', recipient_email: null, order_id: null, expires_at: null, created_at: expect.any(String) });
    // Nothing in the database holds the code itself.
    const [row] = await app.sql<Record<string, unknown>>('select * from gift_card where id = $1', [card.id]);
    const plain = card.code.replaceAll('-', '');
    expect(JSON.stringify(row)).not.toContain(plain);
    expect(JSON.stringify(row)).not.toContain(plain.slice(0, 12));
    expect(row!.last4).toBe(plain.slice(-4));
    expect(await ledger(card.id)).toEqual([{ kind: 'issued', amount: '30.00', balance_after: '30.00', order_id: null, reason: 'Apology for a late card', actor: 'admin' }]);
    expect(await app.sql(`select action, summary from audit_entry where entity = 'gift-card' and entity_id = $1`, [String(card.id)])).toEqual([{ action: 'issued', summary: `Issued gift card ····${card.last4} for $30.00. Reason: Apology for a late card` }]);

    // Listed with the shop's liability, found by its last four.
    const list = await (await app.request(`/api/admin/gift-cards?search=${card.last4.toLowerCase()}`, { token: admin })).json();
    expect(list.items.map((c: { id: number }) => c.id)).toContain(card.id);
    expect(list.items.every((c: Record<string, unknown>) => !('code' in c))).toBe(true);
    const [{ outstanding }] = await app.sql<{ outstanding: string }>(`select coalesce(sum(balance), 0)::text as outstanding from gift_card where status = 'active'`);
    expect(list.outstanding).toBe(Number(outstanding));
  });

  it('refuses bad amounts and missing reasons on their fields, and changes nothing', async () => {
    const before = await app.sql('select count(*)::int as n from gift_card');
    for (const [json, field] of [
      [{ amount: 0, reason: 'x' }, 'amount'],
      [{ amount: 1000.01, reason: 'x' }, 'amount'],
      [{ amount: '12.345', reason: 'x' }, 'amount'],
      [{ amount: 'ten', reason: 'x' }, 'amount'],
      [{ amount: 10 }, 'reason'],
      [{ amount: 10, reason: '   ' }, 'reason'],
      [{ amount: 10, reason: 'x'.repeat(501) }, 'reason'],
    ] as const) {
      const res = await app.request('/api/admin/gift-cards', { method: 'POST', token: admin, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).field).toBe(field);
    }
    expect(await app.sql('select count(*)::int as n from gift_card')).toEqual(before);
  });

  it('voids and adjusts with a reason, audited; 409 on a voided card, 400 below zero, 404 for none', async () => {
    const card = await issue(20);
    const adjust = (json: Record<string, unknown>, id = card.id) => app.request(`/api/admin/gift-cards/${id}/adjust`, { method: 'POST', token: admin, json });
    const up = await adjust({ amount: 5.5, reason: 'Birthday top-up' });
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ balance: 25.5, initial_amount: 20 });
    const below = await adjust({ amount: -30, reason: 'Too much' });
    expect(below.status).toBe(400);
    expect(await below.json()).toMatchObject({ field: 'amount', message: 'This gift card holds $25.50: it cannot lose more than that.' });
    expect((await adjust({ amount: -5.5, reason: 'Typo' })).status).toBe(200);
    expect((await adjust({ amount: 0, reason: 'Nothing' })).status).toBe(400);

    const voided = await app.request(`/api/admin/gift-cards/${card.id}/void`, { method: 'POST', token: admin, json: { reason: 'Reported stolen' } });
    expect(voided.status).toBe(200);
    expect(await voided.json()).toMatchObject({ status: 'voided', balance: 0 });
    expect((await app.request(`/api/admin/gift-cards/${card.id}/void`, { method: 'POST', token: admin, json: { reason: 'Again' } })).status).toBe(409);
    expect((await adjust({ amount: 5, reason: 'Undo' })).status).toBe(409);
    expect((await app.request(`/api/admin/gift-cards/999999/void`, { method: 'POST', token: admin, json: { reason: 'x' } })).status).toBe(404);
    expect((await adjust({ amount: 5, reason: 'x' }, 999999)).status).toBe(404);

    expect((await ledger(card.id)).map((e) => [e.kind, e.amount, e.balance_after, e.reason])).toEqual([
      ['issued', '20.00', '20.00', 'A goodwill gesture'],
      ['adjusted', '5.50', '25.50', 'Birthday top-up'],
      ['adjusted', '-5.50', '20.00', 'Typo'],
      ['voided', '-20.00', '0.00', 'Reported stolen'],
    ]);
    expect((await app.sql<{ action: string }>(`select action from audit_entry where entity = 'gift-card' and entity_id = $1 order by id`, [String(card.id)])).map((r) => r.action)).toEqual(['issued', 'adjusted', 'adjusted', 'voided']);
  });

  it('is for admins: 401 without a token, 403 for staff and shoppers, over REST and GraphQL', async () => {
    const staff = (await staffMember(app, admin)).token;
    const shopper = await app.customer('giftshopper');
    expect((await app.request('/api/admin/gift-cards')).status).toBe(401);
    for (const token of [staff, shopper]) {
      expect((await app.request('/api/admin/gift-cards', { token })).status).toBe(403);
      expect((await app.request('/api/admin/gift-cards', { method: 'POST', token, json: { amount: 10, reason: 'x' } })).status).toBe(403);
      const gql = await app.graphql('mutation { issueGiftCard(amount: "10", reason: "x") { code } }', {}, token);
      expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect((await app.graphql('query { giftCards { totalCount } }')).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('GraphQL gift cards (admins)', () => {
  it('issues, lists with the outstanding balance, and shows one card with its ledger', async () => {
    await issue(5, 'An older card');
    const issued = await app.graphql(`mutation { issueGiftCard(amount: "15.25", reason: "Contest prize") { code giftCard { id last4 balance initialAmount status source } } }`, {}, admin);
    const { code, giftCard } = issued.body.data.issueGiftCard;
    expect(giftCard).toEqual({ id: expect.any(Number), last4: code.slice(-4), balance: '15.25', initialAmount: '15.25', status: 'ACTIVE', source: 'ISSUED' });
    const page = await app.graphql(`query { giftCards(first: 2) { totalCount outstanding items { id } } }`, {}, admin);
    expect(page.body.data.giftCards.items).toHaveLength(2);
    expect(page.body.data.giftCards.items[0].id).toBe(giftCard.id);
    const bad = await app.graphql(`mutation { adjustGiftCard(id: ${giftCard.id}, amount: "-16", reason: "x") { id } }`, {}, admin);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'amount' });
    const one = await app.graphql(`query { giftCard(id: ${giftCard.id}) { balance entries { id kind amount balanceAfter reason actor } } }`, {}, admin);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.giftCard).toEqual({ balance: '15.25', entries: [{ id: expect.stringMatching(/^\d+$/), kind: 'ISSUED', amount: '15.25', balanceAfter: '15.25', reason: 'Contest prize', actor: 'admin' }] });
  });
});

describe("a holder's balance", () => {
  it('answers by code over REST and GraphQL, in any case and with or without dashes; 404 for an unknown code', async () => {
    const card = await issue(42);
    const from = nextAddress();
    const rest = await app.request(`/api/gift-cards/${card.code.toLowerCase()}`, { headers: { 'x-forwarded-for': from } });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('cache-control')).toBe('no-store');
    expect(await rest.json()).toEqual({ balance: 42, currency: 'USD', expires_at: null, last4: card.last4 });
    const gql = await app.request('/graphql', { method: 'POST', json: { query: 'query($code: String!) { giftCardBalance(code: $code) { balance currency expiresAt last4 } }', variables: { code: ` ${card.code.replaceAll('-', ' ')} ` } }, headers: { 'x-forwarded-for': from } });
    expect((await gql.json()).data.giftCardBalance).toEqual({ balance: '42.00', currency: 'USD', expiresAt: null, last4: card.last4 });
    const unknown = await app.request('/api/gift-cards/AAAA-AAAA-AAAA-AAAA', { headers: { 'x-forwarded-for': from } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toMatch(/^No gift card has this code/);
  });

  it('allows 10 look-ups an hour per client address, then 429 with Retry-After (for that address alone)', async () => {
    const card = await issue(10);
    const from = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await app.request(`/api/gift-cards/${i % 2 ? card.code : 'AAAA-AAAA-AAAA-AAA' + 'CDEFGHJKMN'[i]}`, { headers: { 'x-forwarded-for': from } })).status);
    expect(statuses).toEqual([404, 200, 404, 200, 404, 200, 404, 200, 404, 200, 429]);
    const refused = await app.request(`/api/gift-cards/${card.code}`, { headers: { 'x-forwarded-for': from } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Guessing codes at checkout counts too.
    const order = await place(orderInput(shop, { giftCardCode: 'AAAA-AAAA-AAAA-AAAA' }), from);
    expect(order.status).toBe(429);
    expect((await app.request(`/api/gift-cards/${card.code}`, { headers: { 'x-forwarded-for': nextAddress() } })).status).toBe(200);
  });
});

describe('paying with a gift card', () => {
  it('pays part of an order, the card the rest; the order, the ledger and the provider agree', async () => {
    const card = await issue(10);
    const charges = payments.paid.length;
    const { status, body } = await place(orderInput(shop, { giftCardCode: card.code }));
    expect(status).toBe(200);
    const order = body.data.placeOrder;
    expect(order).toMatchObject({ status: 'PAID', total: TOTAL, giftCardAmount: '10.00', giftCardLast4: card.last4, chargedAmount: '18.50', cardLast4: '4242' });
    expect(payments.paid.slice(charges)).toEqual([{ key: expect.any(String), orderId: order.id, amount: '18.50' }]);
    expect(await balanceOf(card.id)).toEqual({ balance: '0.00', status: 'active' });
    expect((await ledger(card.id)).at(-1)).toEqual({ kind: 'redeemed', amount: '-10.00', balance_after: '0.00', order_id: order.id, reason: null, actor: null });

    // An empty card is refused on its field, saying why; nothing is written.
    const again = await place(orderInput(shop, { giftCardCode: card.code }));
    expect(again.body.errors[0]).toMatchObject({ message: 'This gift card has no balance left.', extensions: { code: 'BAD_USER_INPUT', field: 'giftCardCode' } });
  });

  it('pays a whole order without a card: the provider is never asked', async () => {
    const card = await issue(50);
    const charges = payments.chargeCount;
    const { body } = await place({ ...orderInput(shop, { giftCardCode: card.code }), payment: undefined });
    expect(body.data.placeOrder).toMatchObject({ status: 'PAID', total: TOTAL, giftCardAmount: TOTAL, chargedAmount: '0.00', cardLast4: null });
    expect(payments.chargeCount).toBe(charges);
    expect(await balanceOf(card.id)).toEqual({ balance: '21.50', status: 'active' });
  });

  it('gives the balance back when the payment fails or the card is missing, and keeps no order', async () => {
    const card = await issue(10);
    const orders = await app.sql('select count(*)::int as n from "order"');
    const declined = await place(orderInput(shop, { giftCardCode: card.code, payment: PAY_DECLINED }));
    expect(declined.body.errors[0].extensions.code).toBe('PAYMENT_DECLINED');
    const missing = await place({ ...orderInput(shop, { giftCardCode: card.code }), payment: undefined });
    expect(missing.body.errors[0]).toMatchObject({ message: `Your gift card pays $10.00 of $${TOTAL}: enter a card for the remaining $18.50.`, extensions: { code: 'BAD_USER_INPUT', field: 'payment' } });
    expect(await balanceOf(card.id)).toEqual({ balance: '10.00', status: 'active' });
    expect(await app.sql('select count(*)::int as n from "order"')).toEqual(orders);
    expect((await ledger(card.id)).map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ['issued', '10.00', '10.00'],
      ['redeemed', '-10.00', '0.00'],
      ['released', '10.00', '10.00'],
      ['redeemed', '-10.00', '0.00'],
      ['released', '10.00', '10.00'],
    ]);
  });

  it('refuses unknown and voided codes on their field', async () => {
    const unknown = await place(orderInput(shop, { giftCardCode: 'AAAA-AAAA-AAAA-AAAA' }));
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'giftCardCode' });
    const card = await issue(10);
    await app.request(`/api/admin/gift-cards/${card.id}/void`, { method: 'POST', token: admin, json: { reason: 'Lost' } });
    const voided = await place(orderInput(shop, { giftCardCode: card.code }));
    expect(voided.body.errors[0]).toMatchObject({ message: 'This gift card was voided and cannot be used.', extensions: { field: 'giftCardCode' } });
  });

  it('spends a card once for a repeated checkout key', async () => {
    const card = await issue(20);
    const input = orderInput(shop, { giftCardCode: card.code });
    const first = await place(input);
    const second = await place(input);
    expect(second.body.data.placeOrder.id).toBe(first.body.data.placeOrder.id);
    expect(await balanceOf(card.id)).toEqual({ balance: '0.00', status: 'active' });
    expect((await ledger(card.id)).filter((e) => e.kind === 'redeemed')).toHaveLength(1);
  });

  it('never spends more than a card holds when checkouts race for it', async () => {
    const card = await issue(30);
    const results = await Promise.all([0, 1, 2].map(() => place(orderInput(shop, { giftCardCode: card.code }))));
    const paid = results.filter((r) => r.body.data?.placeOrder).map((r) => r.body.data.placeOrder);
    const refused = results.filter((r) => r.body.errors);
    // 28.50 for the first, 1.50 for the second, nothing left for the third.
    expect(paid.map((o) => o.giftCardAmount).sort()).toEqual(['1.50', '28.50']);
    expect(refused.map((r) => r.body.errors[0].message)).toEqual(['This gift card has no balance left.']);
    expect(await balanceOf(card.id)).toEqual({ balance: '0.00', status: 'active' });
    const [{ spent }] = await app.sql<{ spent: string }>(`select sum(gift_card_amount)::text as spent from "order" where gift_card_last4 = $1 and status = 'paid'`, [card.last4]);
    expect(spent).toBe('30.00');
  });
});

describe('refunds of an order a gift card paid', () => {
  it('go back to the gift card first, then to the card, exactly what each paid', async () => {
    const card = await issue(10);
    const { body } = await place(orderInput(shop, { giftCardCode: card.code }));
    const order = body.data.placeOrder;
    const items = (await app.sql<{ id: number; name: string }>('select id, name from order_item where order_id = $1 order by position', [order.id]));
    const album = items.find((i) => i.name === 'Summer Songs Album')!;
    const refunds = payments.givenBack.length;
    const partly = await app.graphql(`mutation($id: ID!, $items: [Int!]) { refundOrder(id: $id, itemIds: $items) { status refundedAmount } }`, { id: order.id, items: [album.id] }, admin);
    expect(partly.body.data.refundOrder).toEqual({ status: 'PARTIALLY_REFUNDED', refundedAmount: '24.00' });
    // 10.00 back on the gift card, 14.00 by the provider.
    expect(await balanceOf(card.id)).toEqual({ balance: '10.00', status: 'active' });
    expect(payments.givenBack.slice(refunds).map((r) => r.amount)).toEqual(['14.00']);
    const rest = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { status refundedAmount } }`, { id: order.id }, admin);
    expect(rest.body.data.refundOrder).toEqual({ status: 'REFUNDED', refundedAmount: TOTAL });
    expect(payments.givenBack.slice(refunds).map((r) => r.amount)).toEqual(['14.00', '4.50']);
    expect(await balanceOf(card.id)).toEqual({ balance: '10.00', status: 'active' });
    expect((await ledger(card.id)).map((e) => [e.kind, e.amount, e.order_id])).toEqual([
      ['issued', '10.00', null],
      ['redeemed', '-10.00', order.id],
      ['refunded', '10.00', order.id],
    ]);
  });

  it('of an order the gift card paid whole never ask the provider', async () => {
    const card = await issue(40);
    const { body } = await place({ ...orderInput(shop, { giftCardCode: card.code }), payment: undefined });
    const refunds = payments.refundCount;
    const res = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { status } }`, { id: body.data.placeOrder.id }, admin);
    expect(res.body.data.refundOrder.status).toBe('REFUNDED');
    expect(payments.refundCount).toBe(refunds);
    expect(await balanceOf(card.id)).toEqual({ balance: '40.00', status: 'active' });
  });
});

describe('gift cards bought in the shop', () => {
  let giftCardTypeId: number;
  let giftCardProductId: number;

  beforeAll(async () => {
    const types = await (await app.request('/api/product_types')).json();
    giftCardTypeId = types.find((t: { name: string }) => t.name === 'Gift Card').id;
    const [category] = await app.sql<{ category_id: number; main_image_id: number }>('select category_id, main_image_id from product where id = $1', [shop.albumId]);
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Gift Card — Roses', description: 'A gift card with roses.', price: 25, product_type_id: giftCardTypeId, category_id: category!.category_id, main_image_id: category!.main_image_id }, tags: [], e_greeting_card_data: null } });
    expect(res.status).toBe(201);
    giftCardProductId = (await res.json()).product.id;
  });

  const giftLine = (personal: Record<string, unknown> = {}) => ({ productId: giftCardProductId, quantity: 1, personalisation: { amount: 50, recipientName: 'Grace Hopper', recipientEmail: 'grace.gift@example.com', senderName: 'Ada', message: 'For your next cards!', ...personal } });

  it('has a type "Gift Card" that cannot be deleted or renamed', async () => {
    expect((await app.request(`/api/product_types/${giftCardTypeId}`, { method: 'DELETE', token: admin })).status).toBe(409);
    expect((await app.request(`/api/product_types/${giftCardTypeId}`, { method: 'PUT', token: admin, json: { name: 'Vouchers' } })).status).toBe(409);
  });

  it('is priced at the amount chosen (10 to 500, one card a line), and no discount takes anything off it', async () => {
    const QUOTE = `query($lines: [CartLineInput!]!, $code: String) { cartQuote(lines: $lines, discountCode: $code) { subtotal discount total lines { unitPrice lineTotal } } }`;
    const quoted = await app.graphql(QUOTE, { lines: [giftLine({ amount: '75.5' }), { productId: shop.albumId, quantity: 1 }] });
    expect(quoted.body.errors).toBeUndefined();
    expect(quoted.body.data.cartQuote).toEqual({ subtotal: '87.50', discount: '0.00', total: '87.50', lines: [{ unitPrice: '75.50', lineTotal: '75.50' }, { unitPrice: '12.00', lineTotal: '12.00' }] });
    const code = `GC${Date.now()}`;
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code, percent_off: 50 } });
    const discounted = await app.graphql(QUOTE, { lines: [giftLine(), { productId: shop.albumId, quantity: 1 }], code });
    expect(discounted.body.data.cartQuote).toMatchObject({ subtotal: '62.00', discount: '6.00', total: '56.00' });
    for (const [line, field] of [
      [giftLine({ amount: 5 }), 'lines.0.personalisation.amount'],
      [giftLine({ amount: 500.01 }), 'lines.0.personalisation.amount'],
      [{ ...giftLine(), quantity: 2 }, 'lines.0.quantity'],
    ] as const) {
      const res = await app.graphql(QUOTE, { lines: [line] });
      expect(res.body.errors?.[0]?.extensions, JSON.stringify(line)).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    const noRecipient = await place({ ...orderInput(shop), lines: [giftLine({ recipientEmail: 'not-an-address' })] });
    expect(noRecipient.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lines.0.personalisation.recipientEmail' });
  });

  it('is issued once paid and e-mailed to its recipient with its code, which then pays an order; the queue forgets the code once sent', async () => {
    const { body } = await place({ ...orderInput(shop), lines: [giftLine(), { productId: shop.albumId, quantity: 1 }] });
    const order = body.data.placeOrder;
    expect(order).toMatchObject({ status: 'PAID', total: '62.00' });
    const [card] = await app.sql<{ id: number; balance: string; initial_amount: string; source: string; status: string; recipient_email: string; sender_name: string; message: string; order_id: string; design_path: string | null }>(
      'select id, balance::text, initial_amount::text, source, status, recipient_email, sender_name, message, order_id, design_path from gift_card where order_id = $1 and source = $2',
      [order.id, 'purchased'],
    );
    expect(card).toMatchObject({ balance: '50.00', initial_amount: '50.00', source: 'purchased', status: 'active', recipient_email: 'grace.gift@example.com', sender_name: 'Ada', message: 'For your next cards!', order_id: order.id, design_path: expect.stringMatching(/^uploads\//) });

    await app.services.deliveries.runDue();
    const mail = [...outbox(app).values()].find((text) => text.includes('To: grace.gift@example.com') && text.includes('gift card'))!;
    expect(mail).toContain('Subject: Ada sent you a $50.00 Art & Song Cards gift card');
    const code = /Your code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail)![1]!;
    expect(mail).toContain(`/gift-card#${code}`);
    const [job] = await app.sql<{ status: string; payload: Record<string, unknown> }>(`select status, payload from mail_job where kind = 'gift-card' and ref = $1`, [`gift-card:${card!.id}`]);
    expect(job!.status).toBe('sent');
    expect(job!.payload).not.toHaveProperty('code');
    expect(JSON.stringify(job!.payload)).not.toContain(code.replaceAll('-', '').slice(0, 8));

    // Its page reads what the holder may see.
    const page = await app.graphql(`query($code: String!) { giftCardBalance(code: $code) { balance initialAmount status senderName recipientName message designPath } }`, { code });
    expect(page.body.data.giftCardBalance).toEqual({ balance: '50.00', initialAmount: '50.00', status: 'ACTIVE', senderName: 'Ada', recipientName: 'Grace Hopper', message: 'For your next cards!', designPath: card!.design_path });
    const spent = await place(orderInput(shop, { giftCardCode: code, purchaserEmail: 'grace.gift@example.com' }));
    expect(spent.body.data.placeOrder).toMatchObject({ giftCardAmount: '28.50', chargedAmount: '0.00' });

    // Refunding the line that bought it: refused once it was spent in part.
    const [line] = await app.sql<{ id: number }>('select id from order_item where order_id = $1 and gift_card', [order.id]);
    const refused = await app.graphql(`mutation($id: ID!, $items: [Int!]) { refundOrder(id: $id, itemIds: $items) { status } }`, { id: order.id, items: [line!.id] }, admin);
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/was already spent in part \(\$21\.50 of \$50\.00 left\)/), extensions: { code: 'CONFLICT' } });
  });

  it('is refused for an address that said no to the shop, like a card (RECIPIENT_UNSUBSCRIBED on its field)', async () => {
    const url = new URL(await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), 'no.gifts@example.com'));
    expect((await app.request('/api/unsubscribe', { method: 'POST', json: { token: url.searchParams.get('token') } })).status).toBe(200);
    const refused = await place({ ...orderInput(shop), lines: [giftLine({ recipientEmail: 'No.Gifts@example.com' })] });
    expect(refused.body.errors[0]).toMatchObject({ message: 'no.gifts@example.com does not accept cards from this shop.', extensions: { code: 'RECIPIENT_UNSUBSCRIBED', field: 'lines.0.personalisation.recipientEmail' } });
  });

  it('is voided when the line that bought it is refunded, and its code pays nothing any more', async () => {
    const { body } = await place({ ...orderInput(shop), lines: [giftLine({ amount: 30, recipientEmail: 'refunded.gift@example.com' })] });
    const order = body.data.placeOrder;
    const [card] = await app.sql<{ id: number }>('select id from gift_card where order_id = $1 and source = $2', [order.id, 'purchased']);
    const refund = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { status refundedAmount } }`, { id: order.id }, admin);
    expect(refund.body.data.refundOrder).toEqual({ status: 'REFUNDED', refundedAmount: '30.00' });
    expect(await balanceOf(card!.id)).toEqual({ balance: '0.00', status: 'voided' });
  });
});
