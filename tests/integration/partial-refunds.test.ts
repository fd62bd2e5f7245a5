import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefundRequest, RefundResult } from '../../server/src/modules/payments/payment-provider.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { refundAmount } from '../../server/src/rules/order.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { StripeFake } from '../helpers/stripe-fake.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

class RecordingProvider extends TestPaymentProvider {
  requests: RefundRequest[] = [];
  override async refund(request: RefundRequest): Promise<RefundResult> {
    this.requests.push(request);
    return super.refund(request);
  }
}

const later = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const cardLine = (shop: Shop, overrides: Record<string, unknown>) => ({ productId: shop.cardId, quantity: 1, personalisation: personalisation(overrides) });

describe('the amount of a partial refund', () => {
  const items = [
    { id: 1, price: '4.50', quantity: 1, refundedAt: null },
    { id: 2, price: '4.50', quantity: 1, refundedAt: null },
    { id: 3, price: '12.00', quantity: 2, refundedAt: null },
  ];
  it('is the lines’ share of what was charged, and the last lines get exactly what is left', () => {
    const order = { total: '29.70', refundedAmount: '0.00' };
    expect(refundAmount(order, items, new Set([1]))).toBe('4.05');
    expect(refundAmount(order, items, new Set([3]))).toBe('21.60');
    expect(refundAmount(order, items, new Set([1, 2, 3]))).toBe('29.70');
    // After 4.05 and 21.60, the last card takes the rest, so the refunds add up to the total.
    expect(refundAmount({ total: '29.70', refundedAmount: '25.65' }, items.map((i) => ({ ...i, refundedAt: i.id === 2 ? null : new Date() })), new Set([2]))).toBe('4.05');
    // Thirds that do not divide evenly still add up to the cent.
    const thirds = [1, 2, 3].map((id) => ({ id, price: '1.00', quantity: 1, refundedAt: null as Date | null }));
    const total = { total: '2.00', refundedAmount: '0.00' };
    const a = refundAmount(total, thirds, new Set([1]));
    thirds[0]!.refundedAt = new Date();
    const b = refundAmount({ total: '2.00', refundedAmount: a }, thirds, new Set([2]));
    thirds[1]!.refundedAt = new Date();
    const c = refundAmount({ total: '2.00', refundedAmount: (Number(a) + Number(b)).toFixed(2) }, thirds, new Set([3]));
    expect([a, b, c]).toEqual(['0.67', '0.67', '0.66']);
  });
});

describe('partial refunds with the test provider', () => {
  let app: TestApp;
  let admin: string;
  let shop: Shop;
  const payments = new RecordingProvider();

  beforeAll(async () => {
    app = await startTestApp({ deliveryPollSeconds: 3600 }, { paymentProviders: [payments] });
    admin = await app.login();
    shop = await seedShop(app, admin);
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: 'TENOFF', percent_off: 10 } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('refunds chosen cards, withdraws them, and turns the order partially_refunded, then refunded', async () => {
    const { body } = await placeOrder(
      app,
      orderInput(shop, {
        discountCode: 'TENOFF',
        lines: [cardLine(shop, { recipientName: 'Ann', recipientEmail: 'ann@example.com' }), cardLine(shop, { recipientName: 'Ben', recipientEmail: 'ben@example.com', deliveryDate: later(), timeZone: 'UTC' }), { productId: shop.albumId, quantity: 2 }],
      }),
    );
    const order = body.data.placeOrder;
    expect(order.total).toBe('29.70');
    await app.services.deliveries.runDue();
    const [ann, ben, album] = order.items as { id: number; itemUrlUuid: string | null }[];
    expect((await app.request(`/ecards/${ann!.itemUrlUuid}.html`)).status).toBe(200);

    // Ann's card (sent): its share of the discounted total.
    const first = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin, json: { item_ids: [ann!.id] } });
    expect(first.status).toBe(200);
    const afterFirst = await first.json();
    expect(afterFirst).toMatchObject({ order_status: 'partially_refunded', refunded_amount: 4.05, total: 29.7 });
    expect(afterFirst.items.map((i: { refunded_at: string | null }) => i.refunded_at !== null)).toEqual([true, false, false]);
    expect(payments.requests.at(-1)).toMatchObject({ amount: '4.05', idempotencyKey: `refund-${order.id}-${ann!.id}` });
    // The page's cached copy goes when the database announces the change (a moment after the commit).
    await expect.poll(async () => (await app.request(`/ecards/${ann!.itemUrlUuid}.html`)).status, { timeout: 10_000 }).toBe(410);
    expect(await (await app.request(`/ecards/${ann!.itemUrlUuid}.html`)).text()).toContain('This card was withdrawn');
    // Ben's card still stands and still goes out on its day.
    expect((await app.sql<{ status: string }>(`select status from mail_job where ref = 'card:' || $1 and kind = 'card'`, [ben!.id]))[0]!.status).toBe('queued');

    // The same card again: 409; a line of no such order: 400 on item_ids; nothing more refunded.
    const again = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin, json: { item_ids: [ann!.id] } });
    expect(again.status).toBe(409);
    const stranger = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin, json: { item_ids: [999999] } });
    expect(stranger.status).toBe(400);
    expect((await stranger.json()).field).toBe('item_ids');
    expect((await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin, json: { item_ids: 'all' } })).status).toBe(400);
    expect(payments.requests.length).toBe(1);

    // The sales figures and the export count what the shop kept.
    const sales = async () => (await app.graphql(`{ salesSummary { revenue orders } }`, {}, admin)).body.data.salesSummary;
    expect(await sales()).toEqual({ revenue: '25.65', orders: 1 });
    const csv = async () => (await (await app.request('/api/admin/orders.csv', { token: admin })).text()).split('\r\n')[1]!;
    expect(await csv()).toContain(',partially_refunded,25.65,TENOFF,');
    expect(await csv()).toContain('Balloon Birthday x1 (refunded); Balloon Birthday x1; Summer Songs Album x2');

    // The album over GraphQL, then everything left.
    const gql = await app.graphql(`mutation($id: ID!, $items: [Int!]) { refundOrder(id: $id, itemIds: $items) { status refundedAmount items { refundedAt } } }`, { id: order.id, items: [album!.id] }, admin);
    expect(gql.body.data.refundOrder).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: '25.65' });
    const last = await (await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin })).json();
    expect(last).toMatchObject({ order_status: 'refunded', refunded_amount: 29.7 });
    expect(payments.requests.map((r) => r.amount)).toEqual(['4.05', '21.60', '4.05']);
    expect(await sales()).toEqual({ revenue: '0.00', orders: 0 });
    expect(await csv()).toContain(',refunded,0.00,TENOFF,');
    // Ben's day comes: his card is not sent.
    await app.sql(`update mail_job set due_at = now() - interval '1 minute' where ref = 'card:' || $1`, [ben!.id]);
    await app.services.deliveries.runDue();
    expect(await app.sql(`select status, last_error from mail_job where ref = 'card:' || $1 and kind = 'card'`, [ben!.id])).toEqual([{ status: 'withheld', last_error: 'Not sent: the order was refunded.' }]);
    expect((await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin })).status).toBe(409);
  });
});

describe('partial refunds through Stripe', () => {
  let app: TestApp;
  let shop: Shop;
  let admin: string;
  const fake = new StripeFake();

  beforeAll(async () => {
    await fake.start();
    app = await startTestApp({
      deliveryPollSeconds: 3600,
      paymentProvider: 'stripe',
      stripe: { secretKey: fake.secretKey, publishableKey: 'pk_test_fake_key', webhookSecret: fake.webhookSecret, apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port } },
    });
    admin = await app.login();
    shop = await seedShop(app, admin);
  });
  afterAll(async () => {
    await app?.stop();
    await fake.stop();
  });

  it('refunds each chosen card’s amount through Stripe, and the rest to the cent', async () => {
    const { payment: _payment, ...input } = orderInput(shop, { lines: [cardLine(shop, { recipientEmail: 'one@example.com' }), cardLine(shop, { recipientEmail: 'two@example.com' }), { productId: shop.albumId, quantity: 1 }] });
    const placed = await app.graphql(`mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id paymentClientSecret items { id } } }`, { input });
    const order = placed.body.data.placeOrder;
    const intentId = order.paymentClientSecret.split('_secret_')[0];
    const event = fake.event('payment_intent.succeeded', fake.confirm(intentId, 'succeeded'));
    expect((await app.request('/api/payments/stripe/webhook', { method: 'POST', body: event.payload, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature } })).status).toBe(200);

    const [one] = order.items as { id: number }[];
    const res = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin, json: { item_ids: [one!.id] } });
    expect(res.status).toBe(200);
    expect((await res.json()).order_status).toBe('partially_refunded');
    const calls = () => fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.payment_intent === intentId);
    expect(calls().map((c) => [c.body.amount, c.headers['idempotency-key']])).toEqual([['450', `refund-${order.id}-${one!.id}`]]);

    const rest = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin });
    expect((await rest.json()).order_status).toBe('refunded');
    expect(calls().map((c) => c.body.amount)).toEqual(['450', '1650']);
    expect(fake.refunds.filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0)).toBe(2100);
  });
});
