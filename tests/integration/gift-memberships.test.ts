import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { manualClock, orderInput, outbox, personalisation, PAY_OK, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Gift memberships (contract section 18): a plan's period bought like a card for someone (a line of
 * the plan's price), issued when the order is paid with a code e-mailed to its recipient (the queue
 * forgets the code once sent), redeemed once on /membership by a signed-in shopper: a membership that
 * never renews or charges and ends with its period. Refunds void one not yet redeemed.
 */
const clock = manualClock('2027-03-01T09:00:00Z');
const payments = new TestPaymentProvider();
let app: TestApp;
let admin: string;
let shop: Shop;
let typeId: number;
let productId: number;
let monthly: { id: number };
let yearly: { id: number };

beforeAll(async () => {
  app = await startTestApp({ trustProxy: 1, limits: { ...loadConfig({}).limits, registerPerHour: 10_000, checkoutPer10Minutes: 10_000 } }, { paymentProviders: [payments], clock: clock.now });
  admin = await app.login();
  shop = await seedShop(app, admin);
  const plan = async (json: Record<string, unknown>) => (await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json })).json();
  monthly = await plan({ name: 'Card Lover', price: 4.99, period: 'month', ecards_included: true, percent_off_other: 10 });
  yearly = await plan({ name: 'Card Lover Yearly', price: 39, period: 'year', ecards_included: true, percent_off_other: 20 });
  typeId = (await (await app.request('/api/product_types')).json()).find((t: { name: string }) => t.name === 'Gift Membership').id;
  const [album] = await app.sql<{ category_id: number; main_image_id: number }>('select category_id, main_image_id from product where id = $1', [shop.albumId]);
  const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Gift Membership', description: 'A month or a year of cards.', price: 4.99, product_type_id: typeId, category_id: album!.category_id, main_image_id: album!.main_image_id }, tags: [], e_greeting_card_data: null } });
  expect(res.status).toBe(201);
  productId = (await res.json()).product.id;
});
afterAll(async () => {
  await app?.stop();
});

const giftLine = (personal: Record<string, unknown> = {}) => ({ productId, quantity: 1, personalisation: { planId: yearly.id, recipientName: 'Grace Hopper', recipientEmail: 'grace.member@example.com', senderName: 'Ada', message: 'A year of cards!', ...personal } });
const PLACE = `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id status total items { id name price giftMembership } } }`;
const place = (input: Record<string, unknown>, token?: string) => app.graphql(PLACE, { input }, token);
const QUOTE = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { subtotal total lines { unitPrice lineTotal memberNote giftPlanName } } }`;
let address = 0;
/** Each redeem from its own client address, unless the test is about the limit. */
const redeem = (token: string, code: unknown, from = `10.9.0.${++address}`) => app.request('/api/membership/redeem', { method: 'POST', token, json: { code }, headers: { 'x-forwarded-for': from } });
const membership = async (token: string) => (await app.request('/api/membership', { token })).json();
const giftOf = async (orderId: string) => (await app.sql<{ id: number; status: string; last4: string; plan_id: number; recipient_email: string; sender_name: string; code_digest: string }>('select id, status, last4, plan_id, recipient_email, sender_name, code_digest from gift_membership where order_id = $1', [orderId]))[0];

/** Buys a gift of `planId` for `email` and answers the order and the code its recipient was sent. */
async function buyGift(email: string, planId = yearly.id): Promise<{ orderId: string; code: string }> {
  const { body } = await place({ ...orderInput(shop), lines: [giftLine({ planId, recipientEmail: email })] });
  expect(body.errors).toBeUndefined();
  await app.services.deliveries.runDue();
  const mail = [...outbox(app).values()].find((text) => text.includes(`To: ${email}`) && text.includes('membership'))!;
  return { orderId: body.data.placeOrder.id, code: /Your code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail)![1]! };
}

describe('gift memberships', () => {
  it('have a type "Gift Membership" that cannot be deleted or renamed', async () => {
    expect((await app.request(`/api/product_types/${typeId}`, { method: 'DELETE', token: admin })).status).toBe(409);
    expect((await app.request(`/api/product_types/${typeId}`, { method: 'PUT', token: admin, json: { name: 'Subscriptions' } })).status).toBe(409);
  });

  it("are priced at the plan's price (one gift a line; no membership's percentage), and a plan not offered is refused on its field", async () => {
    const quoted = await app.graphql(QUOTE, { lines: [giftLine(), giftLine({ planId: monthly.id }), { productId: shop.albumId, quantity: 1 }] });
    expect(quoted.body.errors).toBeUndefined();
    expect(quoted.body.data.cartQuote).toEqual({
      subtotal: '55.99',
      total: '55.99',
      lines: [
        { unitPrice: '39.00', lineTotal: '39.00', memberNote: null, giftPlanName: 'Card Lover Yearly' },
        { unitPrice: '4.99', lineTotal: '4.99', memberNote: null, giftPlanName: 'Card Lover' },
        { unitPrice: '12.00', lineTotal: '12.00', memberNote: null, giftPlanName: null },
      ],
    });
    const retired = await (await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json: { name: 'Old plan', price: 2, period: 'month', active: false } })).json();
    for (const [line, field] of [
      [giftLine({ planId: retired.id }), 'lines.0.personalisation.planId'],
      [giftLine({ planId: 999999 }), 'lines.0.personalisation.planId'],
      [{ ...giftLine(), quantity: 2 }, 'lines.0.quantity'],
    ] as const) {
      const res = await app.graphql(QUOTE, { lines: [line] });
      expect(res.body.errors?.[0]?.extensions, JSON.stringify(line)).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    const noRecipient = await place({ ...orderInput(shop), lines: [giftLine({ recipientEmail: 'not-an-address' })] });
    expect(noRecipient.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lines.0.personalisation.recipientEmail' });
    expect(await app.sql('select id from gift_membership')).toEqual([]);
  });

  it('is issued once paid and e-mailed with its code (forgotten by the queue once sent); redeemed once, it is a membership that never renews, gives its benefits and ends with its period', async () => {
    const { body } = await place({ ...orderInput(shop), lines: [giftLine(), { productId: shop.albumId, quantity: 1 }] });
    const order = body.data.placeOrder;
    expect(order).toMatchObject({ status: 'PAID', total: '51.00', items: [{ name: 'Gift Membership: Card Lover Yearly', price: '39.00', giftMembership: true }, { giftMembership: false }] });
    const gift = await giftOf(order.id);
    expect(gift).toMatchObject({ status: 'unredeemed', plan_id: yearly.id, recipient_email: 'grace.member@example.com', sender_name: 'Ada' });

    await app.services.deliveries.runDue();
    const mail = [...outbox(app).values()].find((text) => text.includes('To: grace.member@example.com'))!;
    expect(mail).toContain('Subject: Ada gave you a year of Art & Song Cards membership');
    expect(mail).toContain('Ada gave you a year of the Card Lover Yearly membership.');
    const code = /Your code: ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(mail)![1]!;
    expect(mail).toContain(`/membership#gift=${code}`);
    expect(gift!.last4).toBe(code.slice(-4));
    expect(gift!.code_digest).not.toContain(code.replaceAll('-', ''));
    const [job] = await app.sql<{ status: string; payload: Record<string, unknown> }>(`select status, payload from mail_job where kind = 'gift-membership' and ref = $1`, [`gift-membership:${gift!.id}`]);
    expect(job!.status).toBe('sent');
    expect(job!.payload).not.toHaveProperty('code');

    // Grace redeems it (any case, without dashes): a year of the plan from now, not renewing.
    const grace = await app.customer('gift_grace');
    expect((await app.request('/api/membership/redeem', { method: 'POST', json: { code } })).status).toBe(401);
    const redeemed = await redeem(grace, code.replaceAll('-', '').toLowerCase());
    expect(redeemed.status).toBe(201);
    expect(await redeemed.json()).toEqual({ plan: expect.objectContaining({ id: yearly.id, name: 'Card Lover Yearly' }), status: 'active', renews_at: null, current_period_end: '2028-03-01T09:00:00.000Z', cancel_at_period_end: true, gift: true });
    expect(await giftOf(order.id)).toMatchObject({ status: 'redeemed' });
    const mine = await app.graphql('query { myMembership { status gift giftFrom cardLast4 charges { amount } } }', {}, grace);
    expect(mine.body.data.myMembership).toEqual({ status: 'ACTIVE', gift: true, giftFrom: 'Ada', cardLast4: null, charges: [] });
    // Her e-cards are included, her album 20 % off.
    const quote = await app.graphql(QUOTE, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation() }, { productId: shop.albumId, quantity: 1 }] }, grace);
    expect(quote.body.data.cartQuote.lines.map((l: { unitPrice: string }) => l.unitPrice)).toEqual(['0.00', '9.60']);

    // Once only, and not for someone else; nothing to cancel or resume, and no paid plan on top of it.
    const again = await redeem(grace, code);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/redeemed this gift membership already/);
    const other = await app.customer('gift_other');
    expect((await redeem(other, code)).status).toBe(409);
    expect((await membership(other)).status).toBeNull();
    expect((await app.request('/api/membership/cancel', { method: 'POST', token: grace })).status).toBe(409);
    expect((await app.request('/api/membership/resume', { method: 'POST', token: grace })).status).toBe(409);
    const join = await app.request('/api/membership', { method: 'POST', token: grace, json: { plan_id: monthly.id, payment: PAY_OK } });
    expect(join.status).toBe(409);
    expect((await join.json()).message).toBe('Your gift membership lasts until 1 March 2028: join a plan once it has ended to keep the benefits.');

    // A year later it ends by itself, charging nothing; then Grace may join.
    const charged = payments.chargeCount;
    clock.set('2028-03-01T09:00:01Z');
    await app.services.membershipRenewals.runDue(app.orm.em.fork());
    expect(await membership(grace)).toMatchObject({ status: 'cancelled', renews_at: null });
    expect(payments.chargeCount).toBe(charged);
    expect((await app.request('/api/membership', { method: 'POST', token: grace, json: { plan_id: monthly.id, payment: PAY_OK } })).status).toBe(201);
    expect(await membership(grace)).toMatchObject({ status: 'active', gift: false, plan: expect.objectContaining({ id: monthly.id }) });
    clock.set('2027-03-01T09:00:00Z');
  });

  it('refuses a code no gift has (400 on its field) and a member who has a membership (409), keeping the gift for later', async () => {
    const shopper = await app.customer('gift_member');
    for (const code of ['AAAA-AAAA-AAAA-AAAA', 'short', 42]) {
      const res = await redeem(shopper, code);
      expect(res.status, String(code)).toBe(400);
      expect((await res.json()).field).toBe('code');
    }
    expect((await app.request('/api/membership', { method: 'POST', token: shopper, json: { plan_id: monthly.id, payment: PAY_OK } })).status).toBe(201);
    const { orderId, code } = await buyGift('gift.member@example.com', monthly.id);
    const refused = await redeem(shopper, code);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toMatch(/^You are a member already/);
    expect(await giftOf(orderId)).toMatchObject({ status: 'unredeemed' });
    expect(await app.sql('select id from membership where gift_membership_id is not null and user_id = (select id from app_user where username = $1)', ['gift_member'])).toEqual([]);
  });

  it('is voided when its line is refunded before it is redeemed (its code redeems nothing), and cannot be refunded once redeemed', async () => {
    const voided = await buyGift('refunded.member@example.com');
    const refund = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { status refundedAmount } }`, { id: voided.orderId }, admin);
    expect(refund.body.data.refundOrder).toEqual({ status: 'REFUNDED', refundedAmount: '39.00' });
    expect(await giftOf(voided.orderId)).toMatchObject({ status: 'voided' });
    const late = await app.customer('gift_late');
    expect((await redeem(late, voided.code)).status).toBe(400);

    const kept = await buyGift('kept.member@example.com');
    expect((await redeem(late, kept.code)).status).toBe(201);
    const refused = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { status } }`, { id: kept.orderId }, admin);
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/was redeemed already: it cannot be refunded/), extensions: { code: 'CONFLICT' } });
    expect((await app.sql<{ status: string; refunded_amount: string }>('select status, refunded_amount::text from "order" where id = $1', [kept.orderId]))[0]).toEqual({ status: 'delivered', refunded_amount: '0.00' });
  });

  it('allows 10 codes an hour per client address, then 429 (a good code too) for that address alone', async () => {
    const { code } = await buyGift('limited.member@example.com');
    const shopper = await app.customer('gift_limited');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await redeem(shopper, `AAAA-AAAA-AAAA-AAA${'CDEFGHJKMN'[i]}`, '10.8.8.8')).status);
    expect(statuses).toEqual(Array(10).fill(400));
    const refused = await redeem(shopper, code, '10.8.8.8');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await membership(shopper)).status).toBeNull();
    expect((await redeem(shopper, code, '10.8.8.9')).status).toBe(201);
  });
});
