import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, personalisation, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { StripeFake } from '../helpers/stripe-fake.js';
import type { FakeSubscription } from '../helpers/stripe-fake-billing.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Memberships through Stripe Billing (contract section 18) against the local fake, on the test's
 * clock (the fake's time is the same clock): subscribing (the calls and their idempotency keys), the
 * first payment confirmed in the browser and settled by Stripe's signed events, each event's change
 * (applied once, in any order), cancelling and resuming at Stripe, a failed renewal past due with the
 * e-mail and lapsed 7 days later with its subscription cancelled, and a former member joining again.
 */
const clock = manualClock('2027-01-15T10:00:00Z');
const fake = new StripeFake();
fake.billing.now = clock.now;
let app: TestApp;
let admin: string;
let shop: Shop;
let monthly: { id: number };
let yearly: { id: number };

beforeAll(async () => {
  await fake.start();
  app = await startTestApp(
    {
      deliveryPollSeconds: 3600,
      paymentProvider: 'stripe',
      stripe: { secretKey: fake.secretKey, publishableKey: 'pk_test_fake_key', webhookSecret: fake.webhookSecret, apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port } },
    },
    { clock: clock.now },
  );
  admin = await app.login();
  shop = await seedShop(app, admin);
  monthly = await plan({ name: 'Card Lover', price: 4.99, period: 'month', ecards_included: true, percent_off_other: 10 });
  yearly = await plan({ name: 'Card Lover Yearly', price: 39, period: 'year', ecards_included: true, percent_off_other: 20 });
});
afterAll(async () => {
  await app?.stop();
  await fake.stop();
});

async function plan(json: Record<string, unknown>): Promise<{ id: number }> {
  const res = await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json });
  if (res.status !== 201) throw new Error(`plan failed: ${res.status} ${await res.text()}`);
  return res.json();
}

const SUBSCRIBE = `mutation($planId: Int!) { subscribe(planId: $planId) { id status paymentClientSecret currentPeriodStart currentPeriodEnd cancelAtPeriodEnd cardLast4 } }`;
const MINE = 'query { myMembership { id status currentPeriodEnd cancelAtPeriodEnd cardLast4 pastDueSince paymentClientSecret charges { amount status periodStart periodEnd } } }';
const QUOTE = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { total membershipName } }`;
const cartOf = () => [{ productId: shop.cardId, quantity: 1, personalisation: personalisation() }];

const rest = async (token: string) => (await app.request('/api/membership', { token })).json();
const mine = async (token: string) => (await app.graphql(MINE, {}, token)).body.data.myMembership;
const memberOf = async (token: string) => (await app.graphql(QUOTE, { lines: cartOf() }, token)).body.data.cartQuote.membershipName;
const calls = (method: string, path: string | RegExp) => fake.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
const send = (event: { payload: string; signature?: string }) =>
  app.request('/api/payments/stripe/webhook', { method: 'POST', body: event.payload, headers: { 'content-type': 'application/json', ...(event.signature ? { 'stripe-signature': event.signature } : {}) } });
const mailsTo = (username: string) => app.sql<{ kind: string; payload: { at: string; planName: string } }>(`select kind, payload from mail_job where recipient = $1 and kind like 'membership-%' order by id`, [`${username}@example.com`]);
const userId = async (username: string) => (await app.sql<{ id: number }>('select id from app_user where username = $1', [username]))[0]!.id;

/** Subscribes through GraphQL; answers the membership and its subscription in the fake. */
async function subscribe(token: string, planId: number) {
  const { body } = await app.graphql(SUBSCRIBE, { planId }, token);
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  const membership = body.data.subscribe;
  const subscription = [...fake.billing.subscriptions.values()].find((s) => s.metadata.membership_id === String(membership.id))!;
  return { membership, subscription, intentId: (membership.paymentClientSecret as string | null)?.split('_secret_')[0] ?? '' };
}

/** What the browser and Stripe do once the card element confirms the first payment: the invoice is paid and its event sent. */
async function payFirst(subscription: FakeSubscription, intentId: string): Promise<void> {
  fake.confirm(intentId, 'succeeded');
  expect((await send(fake.invoiceEvent('invoice.paid', fake.billing.invoices.get(subscription.latest_invoice)!))).status).toBe(200);
}

/** A shopper who became a member through Stripe, paid. */
async function member(username: string, planId = monthly.id) {
  const token = await app.customer(username);
  const started = await subscribe(token, planId);
  await payFirst(started.subscription, started.intentId);
  return { token, ...started };
}

/** Moves the clock and runs what the renewals' timer would run then. */
async function at(time: string): Promise<void> {
  clock.set(time);
  await app.services.membershipRenewals.runDue(app.orm.em.fork());
}

describe('subscribing through Stripe Billing', () => {
  it('makes the customer, the product and price and a default_incomplete subscription (each with its key); INCOMPLETE gives nothing until the invoice is paid', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const token = await app.customer('stripe_ada');
    const ada = await userId('stripe_ada');
    const { membership, subscription, intentId } = await subscribe(token, monthly.id);
    expect(membership).toMatchObject({ status: 'INCOMPLETE', currentPeriodStart: '2027-01-15T10:00:00.000Z', currentPeriodEnd: '2027-02-15T10:00:00.000Z', cancelAtPeriodEnd: false, cardLast4: null });
    expect(membership.paymentClientSecret).toBe(fake.intents.get(intentId)!.client_secret);
    expect(fake.intents.get(intentId)!.amount).toBe(499);

    const [customer] = calls('POST', '/v1/customers');
    expect(customer!.headers['idempotency-key']).toBe(`membership-customer-${ada}`);
    expect(customer!.body).toEqual({ email: 'stripe_ada@example.com', metadata: { user_id: String(ada) } });
    const [product] = calls('POST', '/v1/products');
    expect(product!.headers['idempotency-key']).toBe(`membership-plan-${monthly.id}-499-month-product`);
    const [price] = calls('POST', '/v1/prices');
    expect(price!.headers['idempotency-key']).toBe(`membership-plan-${monthly.id}-499-month`);
    expect(price!.body).toMatchObject({ unit_amount: '499', currency: 'usd', recurring: { interval: 'month' } });
    const [created] = calls('POST', '/v1/subscriptions');
    expect(created!.headers['idempotency-key']).toBe(`membership-${membership.id}-subscription`);
    expect(created!.body).toMatchObject({
      customer: [...fake.billing.customers.keys()][0],
      items: { 0: { price: [...fake.billing.prices.keys()][0] } },
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: { 0: 'card' } },
      metadata: { membership_id: String(membership.id), user_id: String(ada) },
    });
    expect(subscription.status).toBe('incomplete');

    // Not a member yet: no benefits, nothing renews, and the secret is never shown again.
    expect(await rest(token)).toEqual({ plan: expect.objectContaining({ id: monthly.id }), status: 'incomplete', renews_at: null, current_period_end: '2027-02-15T10:00:00.000Z', cancel_at_period_end: false, gift: false });
    expect(await memberOf(token)).toBeNull();
    expect((await mine(token)).paymentClientSecret).toBeNull();

    // The browser confirms the first payment; Stripe's signed invoice.paid makes it a membership.
    await payFirst(subscription, intentId);
    expect(await mine(token)).toMatchObject({
      status: 'ACTIVE',
      cardLast4: '4242',
      currentPeriodEnd: '2027-02-15T10:00:00.000Z',
      charges: [{ amount: '4.99', status: 'paid', periodStart: '2027-01-15T10:00:00.000Z', periodEnd: '2027-02-15T10:00:00.000Z' }],
    });
    expect(await rest(token)).toMatchObject({ status: 'active', renews_at: '2027-02-15T10:00:00.000Z' });
    expect(await memberOf(token)).toBe('Card Lover');
    // A member already.
    expect((await app.request('/api/membership', { method: 'POST', token, json: { plan_id: monthly.id } })).status).toBe(409);
  });

  it("answers REST's POST with the client secret; reuses the plan's price and makes a new one when its price changes", async () => {
    const products = calls('POST', '/v1/products').length;
    const token = await app.customer('stripe_bo');
    const res = await app.request('/api/membership', { method: 'POST', token, json: { plan_id: monthly.id } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'incomplete', renews_at: null, payment_client_secret: expect.stringMatching(/^pi_\w+_secret_\w+$/) });
    expect(calls('POST', '/v1/prices')).toHaveLength(1);

    await app.request(`/api/admin/membership-plans/${monthly.id}`, { method: 'PUT', token: admin, json: { name: 'Card Lover', price: 5.49, period: 'month', ecards_included: true, percent_off_other: 10 } });
    const { subscription } = await subscribe(await app.customer('stripe_cy'), monthly.id);
    const prices = calls('POST', '/v1/prices');
    expect(prices).toHaveLength(2);
    expect(prices[1]!.headers['idempotency-key']).toBe(`membership-plan-${monthly.id}-549-month`);
    expect(calls('POST', '/v1/products')).toHaveLength(products);
    expect(subscription.items.data[0].price.unit_amount).toBe(549);
    await app.request(`/api/admin/membership-plans/${monthly.id}`, { method: 'PUT', token: admin, json: { name: 'Card Lover', price: 4.99, period: 'month', ecards_included: true, percent_off_other: 10 } });
  });

  it('offers the same open subscription again when the shopper subscribes again before paying; another plan gives it up', async () => {
    const token = await app.customer('stripe_dee');
    const first = await subscribe(token, monthly.id);
    const subscriptions = calls('POST', '/v1/subscriptions').length;
    const again = await subscribe(token, monthly.id);
    expect(again.membership.id).toBe(first.membership.id);
    expect(again.membership.paymentClientSecret).toBe(first.membership.paymentClientSecret);
    expect(calls('POST', '/v1/subscriptions')).toHaveLength(subscriptions);
    // The yearly plan instead: the monthly subscription is cancelled at Stripe and never shown.
    const other = await subscribe(token, yearly.id);
    expect(other.membership.id).not.toBe(first.membership.id);
    expect(fake.billing.subscriptions.get(first.subscription.id)!.status).toBe('canceled');
    expect((await app.sql<{ status: string }>('select status from membership where id = $1', [first.membership.id]))[0]!.status).toBe('expired');
    expect(await mine(token)).toMatchObject({ id: other.membership.id, status: 'INCOMPLETE' });
  });

  it('keeps nothing when Stripe cannot be asked (PAYMENT_FAILED), and the retry uses the same customer', async () => {
    const token = await app.customer('stripe_eli');
    const customers = fake.billing.customers.size;
    fake.fail('subscriptions', 3, { status: 500, type: 'api_error', message: 'Something went wrong on our end.' });
    const failed = await app.graphql(SUBSCRIBE, { planId: monthly.id }, token);
    expect(failed.body.errors![0]!.extensions!.code).toBe('PAYMENT_FAILED');
    expect(await app.sql('select id from membership where user_id = $1', [await userId('stripe_eli')])).toEqual([]);
    expect(await app.sql('select * from membership_customer where user_id = $1', [await userId('stripe_eli')])).toEqual([]);
    const { membership } = await subscribe(token, monthly.id);
    expect(membership.status).toBe('INCOMPLETE');
    // Stripe answered the customer's key with the customer it made the first time.
    expect(fake.billing.customers.size).toBe(customers + 1);
  });
});

describe("Stripe's membership events", () => {
  it('are refused with a bad signature (400), changing nothing', async () => {
    const token = await app.customer('stripe_fay');
    const { subscription, intentId } = await subscribe(token, monthly.id);
    fake.confirm(intentId, 'succeeded');
    const good = fake.invoiceEvent('invoice.paid', fake.billing.invoices.get(subscription.latest_invoice)!);
    expect((await send({ payload: good.payload })).status).toBe(400);
    expect((await send({ payload: good.payload, signature: 't=1,v1=deadbeef' })).status).toBe(400);
    expect((await send({ payload: good.payload.replace('"amount_paid":499', '"amount_paid":1'), signature: good.signature })).status).toBe(400);
    expect(await mine(token)).toMatchObject({ status: 'INCOMPLETE', charges: [] });
    expect(await app.sql('select * from membership_event where event_id = $1', [JSON.parse(good.payload).id])).toEqual([]);
    expect((await send(good)).status).toBe(200);
    expect((await mine(token)).status).toBe('ACTIVE');
  });

  it('change nothing twice: the same event again, or the same invoice in another event', async () => {
    const { token, subscription } = await member('stripe_gus');
    const invoice = fake.billing.invoices.get(subscription.latest_invoice)!;
    const event = fake.invoiceEvent('invoice.paid', invoice);
    expect((await send(event)).status).toBe(200);
    expect((await send(event)).status).toBe(200);
    expect((await send(fake.invoiceEvent('invoice.paid', invoice))).status).toBe(200);
    expect((await mine(token)).charges).toHaveLength(1);
    const [row] = await app.sql<{ n: number }>('select count(*)::int as n from membership_event where event_id = $1', [JSON.parse(event.payload).id]);
    expect(row!.n).toBe(1);
    // Two deliveries of one event at once: one applies it.
    const renewal = fake.invoiceEvent('invoice.paid', fake.billing.renew(subscription.id, 'paid'));
    expect((await Promise.all([send(renewal), send(renewal)])).map((r) => r.status)).toEqual([200, 200]);
    expect((await mine(token)).charges).toHaveLength(2);
  });

  it('for subscriptions of no membership here are answered 200 and ignored', async () => {
    const stranger = { ...[...fake.billing.subscriptions.values()][0]!, id: 'sub_elsewhere' };
    expect((await send(fake.subscriptionEvent('customer.subscription.deleted', stranger))).status).toBe(200);
  });

  it('in any order: an update before the paid invoice, an older period after a newer one, a failure after its payment', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const token = await app.customer('stripe_hal');
    const { subscription, intentId } = await subscribe(token, monthly.id);
    fake.confirm(intentId, 'succeeded');
    const first = fake.billing.invoices.get(subscription.latest_invoice)!;
    // The update comes first: Stripe says the subscription is active now, so it is.
    expect((await send(fake.subscriptionEvent('customer.subscription.updated', subscription))).status).toBe(200);
    expect(await mine(token)).toMatchObject({ status: 'ACTIVE', cardLast4: '4242', charges: [] });
    const firstPaid = fake.invoiceEvent('invoice.paid', first);
    // The next period's payment arrives before the first one's.
    clock.set('2027-02-15T10:00:05Z');
    const renewal = fake.billing.renew(subscription.id, 'paid');
    expect((await send(fake.invoiceEvent('invoice.paid', renewal))).status).toBe(200);
    expect((await mine(token)).currentPeriodEnd).toBe('2027-03-15T10:00:00.000Z');
    expect((await send(firstPaid)).status).toBe(200);
    const after = await mine(token);
    expect(after).toMatchObject({ status: 'ACTIVE', currentPeriodEnd: '2027-03-15T10:00:00.000Z' });
    expect(after.charges.map((c: { periodEnd: string }) => c.periodEnd).sort()).toEqual(['2027-02-15T10:00:00.000Z', '2027-03-15T10:00:00.000Z']);
    // A stale update (an older period, cancel_at_period_end set then) is applied as the subscription is now.
    const stale = fake.subscriptionEvent('customer.subscription.updated', { ...subscription, cancel_at_period_end: true, items: { ...subscription.items, data: [{ ...subscription.items.data[0], current_period_end: Date.parse('2027-02-15T10:00:00Z') / 1000 }] } });
    expect((await send(stale)).status).toBe(200);
    expect(await mine(token)).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: false, currentPeriodEnd: '2027-03-15T10:00:00.000Z' });
    // A failure of the renewal already paid (Stripe retried it and it went through first) changes nothing.
    expect((await send(fake.invoiceEvent('invoice.payment_failed', { ...renewal, status: 'open', amount_paid: 0 }))).status).toBe(200);
    expect((await mine(token)).status).toBe('ACTIVE');
    expect(await mailsTo('stripe_hal')).toEqual([]);
  });

  it('a paid invoice after the subscription was deleted does not revive the membership', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const { token, subscription } = await member('stripe_ivy');
    const renewal = fake.billing.renew(subscription.id, 'paid');
    fake.billing.subscriptions.get(subscription.id)!.status = 'canceled';
    expect((await send(fake.subscriptionEvent('customer.subscription.deleted', subscription))).status).toBe(200);
    expect((await rest(token)).status).toBe('cancelled');
    expect((await send(fake.invoiceEvent('invoice.paid', renewal))).status).toBe(200);
    const now = await mine(token);
    expect(now.status).toBe('CANCELLED');
    // The money taken is still on the record.
    expect(now.charges).toHaveLength(2);
    expect(await memberOf(token)).toBeNull();
  });

  it('a first payment never made: the decline leaves it incomplete, and Stripe expiring it ends it unseen', async () => {
    const token = await app.customer('stripe_jo');
    const { subscription, intentId } = await subscribe(token, monthly.id);
    fake.confirm(intentId, 'declined');
    expect((await send(fake.invoiceEvent('invoice.payment_failed', fake.billing.invoices.get(subscription.latest_invoice)!))).status).toBe(200);
    expect(await mine(token)).toMatchObject({ status: 'INCOMPLETE', charges: [] });
    expect(await mailsTo('stripe_jo')).toEqual([]);
    expect((await send(fake.subscriptionEvent('customer.subscription.updated', fake.billing.expire(subscription.id)))).status).toBe(200);
    expect(await mine(token)).toBeNull();
    expect(await rest(token)).toMatchObject({ status: null, plan: null });
    expect((await app.sql<{ status: string }>('select status from membership where provider_subscription_id = $1', [subscription.id]))[0]!.status).toBe('expired');
  });
});

describe('a Stripe membership', () => {
  it('is cancelled and resumed at Stripe, in step with the row; a refusal changes nothing', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const { token, membership, subscription } = await member('stripe_kit');
    const cancelled = await app.request('/api/membership/cancel', { method: 'POST', token });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: 'active', renews_at: null, cancel_at_period_end: true });
    const updates = calls('POST', `/v1/subscriptions/${subscription.id}`);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.body).toMatchObject({ cancel_at_period_end: 'true' });
    expect(updates[0]!.headers['idempotency-key']).toMatch(new RegExp(`^membership-${membership.id}-cancel-at-period-end-true-\\d+$`));
    expect(fake.billing.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);

    // Stripe refuses the resume: the membership stays cancelled, here and there.
    fake.fail('subscriptions', 3, { status: 500, type: 'api_error', message: 'Something went wrong on our end.' });
    const refused = await app.request('/api/membership/resume', { method: 'POST', token });
    expect(refused.status).toBe(502);
    expect(await rest(token)).toMatchObject({ cancel_at_period_end: true });
    expect(fake.billing.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);

    const resumed = await app.request('/api/membership/resume', { method: 'POST', token });
    expect(await resumed.json()).toMatchObject({ status: 'active', renews_at: '2027-02-15T10:00:00.000Z', cancel_at_period_end: false });
    expect(fake.billing.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(false);
    const keys = calls('POST', `/v1/subscriptions/${subscription.id}`).map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
  });

  it('is renewed by Stripe, never charged by the shop; cancelled, it ends with its period', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const { token, subscription } = await member('stripe_lou');
    const requests = fake.requests.length;
    // The period ends; until Stripe's renewal arrives the shop charges nothing and changes nothing.
    await at('2027-02-15T10:00:01Z');
    expect(fake.requests.length).toBe(requests);
    expect(await mine(token)).toMatchObject({ status: 'ACTIVE', currentPeriodEnd: '2027-02-15T10:00:00.000Z' });
    expect((await send(fake.invoiceEvent('invoice.paid', fake.billing.renew(subscription.id, 'paid')))).status).toBe(200);
    expect(await rest(token)).toMatchObject({ status: 'active', renews_at: '2027-03-15T10:00:00.000Z' });
    expect((await mine(token)).charges.map((c: { periodEnd: string }) => c.periodEnd)).toEqual(['2027-03-15T10:00:00.000Z', '2027-02-15T10:00:00.000Z']);
    await app.request('/api/membership/cancel', { method: 'POST', token });
    await at('2027-03-15T10:00:01Z');
    expect(await rest(token)).toMatchObject({ status: 'cancelled' });
    // Stripe's own deletion at the period's end changes nothing more.
    fake.billing.subscriptions.get(subscription.id)!.status = 'canceled';
    expect((await send(fake.subscriptionEvent('customer.subscription.deleted', subscription))).status).toBe(200);
    expect((await mine(token)).status).toBe('CANCELLED');
  });

  it('whose renewal fails is past due with the e-mail, lapses 7 days later with its subscription cancelled at Stripe, and its member joins again', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const { token, subscription } = await member('stripe_max');
    clock.set('2027-02-15T11:00:00Z');
    const failed = fake.billing.renew(subscription.id, 'failed');
    const event = fake.invoiceEvent('invoice.payment_failed', failed);
    expect((await send(event)).status).toBe(200);
    expect((await send(fake.subscriptionEvent('customer.subscription.updated', subscription))).status).toBe(200);
    expect(await rest(token)).toMatchObject({ status: 'past_due', renews_at: null });
    const due = await mine(token);
    expect(due).toMatchObject({ status: 'PAST_DUE', pastDueSince: '2027-02-15T11:00:00.000Z' });
    expect(due.charges[0]).toMatchObject({ status: 'failed', periodEnd: '2027-03-15T10:00:00.000Z' });
    expect(await memberOf(token)).toBe('Card Lover');
    // Stripe retries the invoice and fails again: one charge, one e-mail.
    expect((await send(fake.invoiceEvent('invoice.payment_failed', failed))).status).toBe(200);
    expect(await mailsTo('stripe_max')).toEqual([{ kind: 'membership-payment-failed', payload: expect.objectContaining({ planName: 'Card Lover', at: '2027-02-22T11:00:00.000Z' }) }]);
    expect((await mine(token)).charges.filter((c: { status: string }) => c.status === 'failed')).toHaveLength(1);

    await at('2027-02-22T10:59:59Z');
    expect((await rest(token)).status).toBe('past_due');
    await at('2027-02-22T11:00:01Z');
    expect((await rest(token)).status).toBe('lapsed');
    expect(fake.billing.subscriptions.get(subscription.id)!.status).toBe('canceled');
    const [cancel] = calls('DELETE', `/v1/subscriptions/${subscription.id}`);
    expect(cancel!.headers['idempotency-key']).toMatch(/^membership-\d+-end$/);
    expect(await memberOf(token)).toBeNull();
    // Stripe's deletion that follows, and a late payment of the failed invoice, change nothing.
    expect((await send(fake.subscriptionEvent('customer.subscription.deleted', fake.billing.subscriptions.get(subscription.id)!))).status).toBe(200);
    expect((await send(fake.invoiceEvent('invoice.paid', { ...failed, status: 'paid', amount_paid: failed.amount_due }))).status).toBe(200);
    expect((await rest(token)).status).toBe('lapsed');

    // A lapsed member joins again: the same Stripe customer, a new subscription.
    const customers = calls('POST', '/v1/customers').length;
    const again = await subscribe(token, monthly.id);
    expect(again.subscription.id).not.toBe(subscription.id);
    expect(again.subscription.customer).toBe(subscription.customer);
    expect(calls('POST', '/v1/customers')).toHaveLength(customers);
    await payFirst(again.subscription, again.intentId);
    expect(await rest(token)).toMatchObject({ status: 'active', renews_at: '2027-03-22T11:00:01.000Z' });
  });

  it('is cancelled at Stripe when its account is deleted; a Stripe that cannot be asked keeps the account', async () => {
    const { token, subscription } = await member('stripe_oz');
    fake.fail('subscriptions', 3, { status: 500, type: 'api_error', message: 'Something went wrong on our end.' });
    const refused = await app.request('/api/account', { method: 'DELETE', token, json: { password: 'customer-pass-1' } });
    expect(refused.status).toBe(502);
    expect(await app.sql('select id from app_user where username = $1', ['stripe_oz'])).toHaveLength(1);
    expect(fake.billing.subscriptions.get(subscription.id)!.status).toBe('active');
    expect((await app.request('/api/account', { method: 'DELETE', token, json: { password: 'customer-pass-1' } })).status).toBe(204);
    expect(fake.billing.subscriptions.get(subscription.id)!.status).toBe('canceled');
    expect(await app.sql('select id from membership where provider_subscription_id = $1', [subscription.id])).toEqual([]);
  });

  it('past due keeps its grace while its member pays again on a new subscription, and ends once that is paid', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const { token, membership, subscription } = await member('stripe_nia');
    clock.set('2027-02-15T11:00:00Z');
    expect((await send(fake.invoiceEvent('invoice.payment_failed', fake.billing.renew(subscription.id, 'failed')))).status).toBe(200);
    const again = await subscribe(token, yearly.id);
    expect(again.membership.status).toBe('INCOMPLETE');
    expect(await mine(token)).toMatchObject({ id: membership.id, status: 'PAST_DUE' });
    expect(await memberOf(token)).toBe('Card Lover');
    await payFirst(again.subscription, again.intentId);
    expect(await mine(token)).toMatchObject({ id: again.membership.id, status: 'ACTIVE', currentPeriodEnd: '2028-02-15T11:00:00.000Z' });
    expect(await memberOf(token)).toBe('Card Lover Yearly');
    expect((await app.sql<{ status: string }>('select status from membership where id = $1', [membership.id]))[0]!.status).toBe('cancelled');
    expect(fake.billing.subscriptions.get(subscription.id)!.status).toBe('canceled');
  });
});
