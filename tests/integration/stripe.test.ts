import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeFake } from '../helpers/stripe-fake.js';
import { orderInput, personalisation, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let shop: Shop;
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

const PLACE = `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { id status total paymentProvider paymentClientSecret cardLast4 } }`;
/** A Stripe checkout: no card details reach the shop. */
const stripeInput = (overrides: Record<string, unknown> = {}) => {
  const { payment: _payment, ...input } = orderInput(shop, overrides);
  return input;
};
const intentsCreated = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
const sendEvent = (event: { payload: string; signature?: string }) =>
  app.request('/api/payments/stripe/webhook', { method: 'POST', body: event.payload, headers: { 'content-type': 'application/json', ...(event.signature ? { 'stripe-signature': event.signature } : {}) } });
const orderRow = async (id: string) => (await app.sql<{ status: string; payment_reference: string | null; card_last4: string | null; card_brand: string | null }>('select status, payment_reference, card_last4, card_brand from "order" where id = $1', [id]))[0]!;
const mailJobs = async (id: string) => Number((await app.sql<{ n: string }>(`select count(*) as n from mail_job where subject = 'order:' || $1`, [id]))[0]!.n);

async function startCheckout(overrides: Record<string, unknown> = {}) {
  const input = stripeInput(overrides);
  const { body } = await app.graphql(PLACE, { input });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  const order = body.data.placeOrder;
  const intentId = order.paymentClientSecret.split('_secret_')[0] as string;
  return { input, order, intentId };
}

describe('Stripe checkout against the local fake', () => {
  it('says the provider and the publishable key on the payment page', async () => {
    const { body } = await app.graphql('{ paymentSetup { available provider publishableKey } }');
    expect(body.data.paymentSetup).toEqual({ available: true, provider: 'stripe', publishableKey: 'pk_test_fake_key' });
  });

  it('creates a PaymentIntent for the server-priced total with the checkout key, and leaves the order pending', async () => {
    const { input, order, intentId } = await startCheckout();
    expect(order).toMatchObject({ status: 'PENDING', total: '28.50', paymentProvider: 'stripe', cardLast4: null });
    expect(order.paymentClientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    const request = intentsCreated().at(-1)!;
    expect(request.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(request.headers['idempotency-key']).toBe(input.idempotencyKey);
    expect(request.body).toMatchObject({ amount: '2850', currency: 'usd', allowed_payment_method_types: { 0: 'card' }, metadata: { order_id: order.id } });
    expect(request.body.description).toBe(`Art & Song Cards order ${order.id}`);
    expect((await orderRow(order.id)).payment_reference).toBe(intentId);
    // No e-mail before the payment is confirmed, and the card page does not exist yet.
    expect(await mailJobs(order.id)).toBe(0);
  });

  it('answers a retried checkout with the same order and the same intent (one PaymentIntent)', async () => {
    const input = stripeInput();
    const before = fake.intents.size;
    const first = await app.graphql(PLACE, { input });
    const again = await app.graphql(PLACE, { input });
    expect(again.body.data.placeOrder.id).toBe(first.body.data.placeOrder.id);
    expect(again.body.data.placeOrder.paymentClientSecret).toBe(first.body.data.placeOrder.paymentClientSecret);
    expect(fake.intents.size).toBe(before + 1);
    const keys = intentsCreated().slice(-2).map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([input.idempotencyKey, input.idempotencyKey]);
  });

  it('refuses events with a bad, missing or foreign signature (400) and changes nothing', async () => {
    const { order, intentId } = await startCheckout();
    const paid = fake.confirm(intentId, 'succeeded');
    const good = fake.event('payment_intent.succeeded', paid);
    expect((await sendEvent({ payload: good.payload })).status).toBe(400);
    expect((await sendEvent({ payload: good.payload, signature: 't=1,v1=deadbeef' })).status).toBe(400);
    expect((await sendEvent(fake.event('payment_intent.succeeded', paid, 'whsec_someone_else'))).status).toBe(400);
    // A body changed after signing.
    expect((await sendEvent({ payload: good.payload.replace('"amount":2850', '"amount":1'), signature: good.signature })).status).toBe(400);
    const res = await sendEvent({ payload: good.payload, signature: 'garbage' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect((await orderRow(order.id)).status).toBe('pending');
    expect(await mailJobs(order.id)).toBe(0);
  });

  it('pays the order on the signed payment_intent.succeeded event, once, whatever comes after', async () => {
    const { order, intentId } = await startCheckout();
    const paid = fake.confirm(intentId, 'succeeded');
    const event = fake.event('payment_intent.succeeded', paid);
    const res = await sendEvent(event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    // Paid (or already delivered: the queue, woken when the order commits, may have sent its e-mails by now).
    expect(await orderRow(order.id)).toEqual({ status: expect.stringMatching(/^(paid|delivered)$/), payment_reference: intentId, card_last4: '4242', card_brand: 'Visa' });
    const jobs = await mailJobs(order.id);
    expect(jobs).toBeGreaterThan(0);
    // The same event again, and late events of another kind: nothing changes.
    expect((await sendEvent(event)).status).toBe(200);
    expect((await sendEvent(fake.event('payment_intent.succeeded', paid))).status).toBe(200);
    expect((await sendEvent(fake.event('payment_intent.payment_failed', { ...paid, status: 'requires_payment_method' }))).status).toBe(200);
    expect((await sendEvent(fake.event('payment_intent.canceled', { ...paid, status: 'canceled' }))).status).toBe(200);
    // Paid still (or delivered already: paying wakes the queue, which may have sent its e-mails by now).
    expect((await orderRow(order.id)).status).toMatch(/^(paid|delivered)$/);
    expect(await mailJobs(order.id)).toBe(jobs);
    // The card is live now.
    await app.services.deliveries.runDue();
    const [item] = await app.sql<{ item_url_uuid: string }>('select item_url_uuid from order_item where order_id = $1 and item_url_uuid is not null', [order.id]);
    expect((await app.request(`/ecards/${item!.item_url_uuid}.html?preview=1`)).status).toBe(200);
  });

  it('keeps a declined payment pending, and cancels an abandoned one giving its discount back', async () => {
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: 'STRIPE10', percent_off: 10, max_uses: 1 } });
    const { order, intentId } = await startCheckout({ discountCode: 'stripe10' });
    expect(order.total).toBe('25.65');
    expect(fake.intents.get(intentId)!.amount).toBe(2565);
    const uses = async () => (await app.sql<{ uses: number }>(`select uses from discount_code where code = 'STRIPE10'`))[0]!.uses;
    expect(await uses()).toBe(1);
    const declined = fake.confirm(intentId, 'declined');
    expect((await sendEvent(fake.event('payment_intent.payment_failed', declined))).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe('pending');
    expect(await mailJobs(order.id)).toBe(0);
    expect((await sendEvent(fake.event('payment_intent.canceled', { ...declined, status: 'canceled' }))).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe('cancelled');
    expect(await uses()).toBe(0);
    // A success arriving after the cancellation changes nothing.
    expect((await sendEvent(fake.event('payment_intent.succeeded', fake.confirm(intentId, 'succeeded')))).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe('cancelled');
  });

  it('does not pay an order from an event whose amount differs from the order', async () => {
    const { order, intentId } = await startCheckout();
    const paid = fake.confirm(intentId, 'succeeded');
    expect((await sendEvent(fake.event('payment_intent.succeeded', { ...paid, amount: 100 }))).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe('pending');
    // Nor from an intent that is not the order's.
    expect((await sendEvent(fake.event('payment_intent.succeeded', { ...paid, id: 'pi_other' }))).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe('pending');
  });

  it('answers PAYMENT_DECLINED when Stripe refuses the payment at once, and keeps no order', async () => {
    fake.declineNextCreate = 'Your card was declined.';
    const input = stripeInput({ purchaserEmail: 'declined@example.com' });
    const { body } = await app.graphql(PLACE, { input });
    expect(body.errors![0]!.extensions!.code).toBe('PAYMENT_DECLINED');
    expect(body.errors![0]!.message).toBe('Your card was declined.');
    expect(await app.sql(`select id from "order" where purchaser_email = 'declined@example.com'`)).toHaveLength(0);
  });

  it('refunds through Stripe with one key per order, exactly once', async () => {
    const { order, intentId } = await startCheckout({ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation() }] });
    await sendEvent(fake.event('payment_intent.succeeded', fake.confirm(intentId, 'succeeded')));
    const answers = await Promise.all([0, 1, 2].map(() => app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const refundCalls = fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.payment_intent === intentId);
    expect(refundCalls).toHaveLength(1);
    expect(refundCalls[0]!.body).toEqual({ payment_intent: intentId, amount: '450' });
    expect(refundCalls[0]!.headers['idempotency-key']).toBe(`refund-${order.id}`);
    expect(fake.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(1);
    expect((await orderRow(order.id)).status).toBe('refunded');
  });

  it('answers 409 when Stripe refuses a refund, leaving the order paid', async () => {
    const { order, intentId } = await startCheckout();
    await sendEvent(fake.event('payment_intent.succeeded', fake.confirm(intentId, 'succeeded')));
    fake.refunds.push({ id: 're_elsewhere', payment_intent: intentId, amount: 2850 }); // refunded in Stripe's dashboard meanwhile
    const res = await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/already been refunded/);
    expect((await orderRow(order.id)).status).not.toBe('refunded');
  });

  it('ignores a client that names its own provider', async () => {
    const { body } = await app.graphql(PLACE, { input: { ...stripeInput(), idempotencyKey: crypto.randomUUID(), payment: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', provider: 'test' } } });
    expect(body.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });
});

describe('abandoned checkouts and provider failures', () => {
  const uses = async (code: string) => (await app.sql<{ uses: number }>(`select uses from discount_code where code = $1`, [code]))[0]!.uses;
  const age = (id: string, minutes: number) => app.sql(`update "order" set created_at = now() - make_interval(mins => $2) where id = $1`, [id, minutes]);
  const sweep = () => app.services.abandonedCheckouts.sweep(app.orm);

  it('cancels the intent of a checkout pending for 30 minutes, cancels the order and gives its discount use back; younger ones stay', async () => {
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: 'LEFT1', percent_off: 10, max_uses: 1 } });
    const left = await startCheckout({ discountCode: 'left1' });
    const young = await startCheckout({ purchaserEmail: 'still-paying@example.com' });
    expect(await uses('LEFT1')).toBe(1);
    await age(left.order.id, 31);
    await age(young.order.id, 29);
    expect(await sweep()).toBe(1);
    const cancels = fake.requests.filter((r) => r.path === `/v1/payment_intents/${left.intentId}/cancel`);
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.body).toEqual({ cancellation_reason: 'abandoned' });
    expect(fake.intents.get(left.intentId)!.status).toBe('canceled');
    expect((await orderRow(left.order.id)).status).toBe('cancelled');
    expect(await uses('LEFT1')).toBe(0);
    expect(await mailJobs(left.order.id)).toBe(0);
    expect((await orderRow(young.order.id)).status).toBe('pending');
    expect(fake.intents.get(young.intentId)!.status).toBe('requires_payment_method');
    // Stripe's cancel event that follows changes nothing; a second sweep finds nothing to do.
    expect((await sendEvent(fake.event('payment_intent.canceled', { ...fake.intents.get(left.intentId)! }))).status).toBe(200);
    expect(await sweep()).toBe(0);
    expect(await uses('LEFT1')).toBe(0);
  });

  it('settles a checkout paid after all instead of dropping it, and tries again later when Stripe cannot be asked', async () => {
    const paid = await startCheckout({ purchaserEmail: 'late-event@example.com' });
    fake.confirm(paid.intentId, 'succeeded'); // its webhook never arrives
    await age(paid.order.id, 45);
    expect(await sweep()).toBe(0);
    expect(await orderRow(paid.order.id)).toMatchObject({ status: expect.stringMatching(/^(paid|delivered)$/), payment_reference: paid.intentId, card_last4: '4242', card_brand: 'Visa' });
    expect(await mailJobs(paid.order.id)).toBeGreaterThan(0);

    const stuck = await startCheckout({ purchaserEmail: 'stripe-down@example.com' });
    await age(stuck.order.id, 45);
    // Stripe's client asks three times before giving up.
    fake.fail('cancel', 3, { status: 500, type: 'api_error', message: 'Something went wrong on our end.' });
    expect(await sweep()).toBe(0);
    expect((await orderRow(stuck.order.id)).status).toBe('pending');
    expect(await sweep()).toBe(1);
    expect((await orderRow(stuck.order.id)).status).toBe('cancelled');
    expect(fake.intents.get(stuck.intentId)!.status).toBe('canceled');
  });

  it('removes a checkout that never reached the provider', async () => {
    const crashed = await startCheckout({ purchaserEmail: 'crashed@example.com' });
    await app.sql(`update "order" set payment_reference = null where id = $1`, [crashed.order.id]);
    await age(crashed.order.id, 60);
    const before = fake.requests.length;
    expect(await sweep()).toBe(1);
    expect(await app.sql('select id from "order" where id = $1', [crashed.order.id])).toEqual([]);
    expect(fake.requests.length).toBe(before);
  });

  it('drops the pending order with PAYMENT_FAILED when Stripe answers with an error that is not a card error, or not at all, giving the discount use back', async () => {
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: 'OUTAGE1', percent_off: 10, max_uses: 1 } });
    // Stripe's client asks three times after a 5xx or a dropped connection, once after any other error.
    const failures = [
      { times: 1, answer: { status: 400, type: 'invalid_request_error', message: 'This API call cannot be made with a publishable API key.' } },
      { times: 3, answer: { status: 500, type: 'api_error', message: 'Something went wrong on our end.' } },
      { times: 1, answer: { status: 401, type: 'authentication_error', message: 'Invalid API Key provided.' } },
      { times: 3, answer: 'drop' as const },
    ];
    for (const [i, { times, answer }] of failures.entries()) {
      fake.fail('create', times, answer);
      const input = stripeInput({ purchaserEmail: `outage${i}@example.com`, discountCode: 'OUTAGE1' });
      const res = await app.graphql(PLACE, { input });
      const label = JSON.stringify(answer);
      expect(res.status, label).toBeLessThan(500);
      expect(res.body.errors![0]!.extensions!.code, label).toBe('PAYMENT_FAILED');
      expect(res.body.errors![0]!.message, label).toMatch(/Nothing was charged/);
      expect(await app.sql(`select id from "order" where purchaser_email = $1`, [`outage${i}@example.com`]), label).toEqual([]);
      expect(await uses('OUTAGE1'), label).toBe(0);
    }
    // Stripe back: a new checkout goes through.
    const { body } = await app.graphql(PLACE, { input: stripeInput({ purchaserEmail: 'outage-over@example.com', discountCode: 'OUTAGE1' }) });
    expect(body.data.placeOrder.status).toBe('PENDING');
    expect(await uses('OUTAGE1')).toBe(1);
  });

  it('pays an order of 0.00 without asking Stripe', async () => {
    await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: 'ALLFREE', percent_off: 100 } });
    const before = intentsCreated().length;
    const { body } = await app.graphql(PLACE, { input: stripeInput({ purchaserEmail: 'free@example.com', discountCode: 'ALLFREE' }) });
    expect(body.errors).toBeUndefined();
    expect(body.data.placeOrder).toMatchObject({ status: 'PAID', total: '0.00', paymentClientSecret: null });
    expect(intentsCreated().length).toBe(before);
    expect(await orderRow(body.data.placeOrder.id)).toMatchObject({ status: expect.stringMatching(/^(paid|delivered)$/), payment_reference: null });
    expect(await mailJobs(body.data.placeOrder.id)).toBeGreaterThan(0);
    // Refunding it asks Stripe nothing either.
    const refund = await app.request(`/api/admin/orders/${body.data.placeOrder.id}/refund`, { method: 'POST', token: admin });
    expect(refund.status).toBe(200);
    expect(fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.amount === '0')).toEqual([]);
  });
});

describe('the Stripe webhook without Stripe', () => {
  it('answers 404 when the shop does not take Stripe payments', async () => {
    const other = await startTestApp({ deliveryPollSeconds: 3600 });
    try {
      const event = fake.event('payment_intent.succeeded', { id: 'pi_x', metadata: {} });
      const res = await other.request('/api/payments/stripe/webhook', { method: 'POST', body: event.payload, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature } });
      expect(res.status).toBe(404);
    } finally {
      await other.stop();
    }
  });
});
