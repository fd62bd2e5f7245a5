import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { recordQueries } from '../helpers/queries.js';
import { manualClock, orderInput, personalisation, PAY_OK, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Memberships (contract section 18) on the shop's clock, in the test's hands: plans, subscribing,
 * the benefits at checkout, renewals (paid, declined, past due, lapsed), cancelling and resuming, and
 * a yearly plan's reminder. Periods are calendar months and years.
 */
const clock = manualClock('2027-01-15T10:00:00Z');
const payments = new TestPaymentProvider();
let app: TestApp;
let admin: string;
let shop: Shop;
let monthly: { id: number };
let yearly: { id: number };

const FAILS_AT_RENEWAL = { ...PAY_OK, cardNumber: '4000 0000 0000 0341' };

beforeAll(async () => {
  app = await startTestApp({}, { paymentProviders: [payments], clock: clock.now });
  admin = await app.login();
  shop = await seedShop(app, admin);
  monthly = await plan({ name: 'Card Lover', price: 4.99, period: 'month', ecards_included: true, percent_off_other: 10 });
  yearly = await plan({ name: 'Card Lover Yearly', price: 39, period: 'year', ecards_included: true, percent_off_other: 20 });
});
afterAll(async () => {
  await app?.stop();
});

async function plan(json: Record<string, unknown>): Promise<{ id: number }> {
  const res = await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json });
  if (res.status !== 201) throw new Error(`plan failed: ${res.status} ${await res.text()}`);
  return res.json();
}

const membership = async (token: string) => (await app.request('/api/membership', { token })).json();
const subscribe = (token: string, planId: number, payment: Record<string, unknown> = PAY_OK) => app.request('/api/membership', { method: 'POST', token, json: { plan_id: planId, payment } });
/** Moves the shop's clock and runs what the renewals' timer would run then. */
async function at(time: string): Promise<void> {
  clock.set(time);
  await app.services.membershipRenewals.runDue(app.orm.em.fork());
}
const charges = (token: string) => app.graphql('query { myMembership { status charges { amount status periodStart periodEnd message } } }', {}, token).then((res) => res.body.data.myMembership.charges);
const QUOTE = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { subtotal total membershipName lines { unitPrice lineTotal memberNote regularUnitPrice } } }`;
const cartOf = () => [{ productId: shop.cardId, quantity: 1, personalisation: personalisation() }, { productId: shop.albumId, quantity: 1 }];

describe('membership plans (admins)', () => {
  it('are created, listed and changed with the fields of the contract; bad input names its field; names are unique', async () => {
    const created = await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json: { name: 'Trial', price: '1.50', period: 'month', ecards_included: false, percent_off_other: 5 } });
    expect(created.status).toBe(201);
    const trial = await created.json();
    expect(trial).toEqual({ id: expect.any(Number), name: 'Trial', price: 1.5, period: 'month', ecards_included: false, percent_off_other: 5, active: true });
    for (const [json, field] of [
      [{ name: 'X', price: 0, period: 'month' }, 'price'],
      [{ name: 'X', price: 5, period: 'week' }, 'period'],
      [{ name: 'X', price: 5, period: 'year', percent_off_other: 95 }, 'percent_off_other'],
      [{ name: ' ', price: 5, period: 'year' }, 'name'],
    ] as const) {
      const res = await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect((await res.json()).field).toBe(field);
    }
    expect((await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json: { name: 'trial', price: 2, period: 'month' } })).status).toBe(409);
    const retired = await app.request(`/api/admin/membership-plans/${trial.id}`, { method: 'PUT', token: admin, json: { name: 'Trial', price: 1.5, period: 'month', active: false } });
    expect(await retired.json()).toMatchObject({ active: false, ecards_included: true });
    expect((await app.request('/api/admin/membership-plans/999999', { method: 'PUT', token: admin, json: { name: 'Y', price: 1, period: 'month' } })).status).toBe(404);
    // Shoppers see the plans offered, cheapest first; admins every one.
    const offered = await app.graphql('query { membershipPlans { name price period ecardsIncluded percentOffOther } }');
    expect(offered.body.data.membershipPlans).toEqual([
      { name: 'Card Lover', price: '4.99', period: 'MONTH', ecardsIncluded: true, percentOffOther: 10 },
      { name: 'Card Lover Yearly', price: '39.00', period: 'YEAR', ecardsIncluded: true, percentOffOther: 20 },
    ]);
    expect((await (await app.request('/api/admin/membership-plans', { token: admin })).json()).map((p: { name: string }) => p.name)).toContain('Trial');
    expect((await app.sql<{ action: string }>(`select action from audit_entry where entity = 'membership' order by id`)).map((r) => r.action)).toEqual(['created', 'created', 'created', 'updated']);
  });

  it('are for admins: 401 without a token, 403 for staff and shoppers', async () => {
    expect((await app.request('/api/admin/membership-plans')).status).toBe(401);
    for (const token of [(await staffMember(app, admin)).token, await app.customer()]) {
      expect((await app.request('/api/admin/membership-plans', { token })).status).toBe(403);
      expect((await app.request('/api/admin/membership-plans', { method: 'POST', token, json: { name: 'Z', price: 1, period: 'month' } })).status).toBe(403);
    }
  });
});

describe('a membership', () => {
  it('is bought by a signed-in shopper, who then sends cards for free and gets the percentage off the rest', async () => {
    expect((await app.request('/api/membership', { method: 'POST', json: { plan_id: monthly.id, payment: PAY_OK } })).status).toBe(401);
    const shopper = await app.customer('member_ada');
    expect(await membership(shopper)).toEqual({ plan: null, status: null, renews_at: null, current_period_end: null, cancel_at_period_end: false, gift: false });
    const declined = await subscribe(shopper, monthly.id, { ...PAY_OK, cardNumber: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(await app.sql('select id from membership')).toEqual([]);
    expect((await subscribe(shopper, 999999)).status).toBe(404);
    const res = await subscribe(shopper, monthly.id);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ plan: expect.objectContaining({ id: monthly.id, name: 'Card Lover' }), status: 'active', renews_at: '2027-02-15T10:00:00.000Z', current_period_end: '2027-02-15T10:00:00.000Z', cancel_at_period_end: false, gift: false });
    expect((await subscribe(shopper, monthly.id)).status).toBe(409);
    expect(await charges(shopper)).toEqual([{ amount: '4.99', status: 'paid', periodStart: '2027-01-15T10:00:00.000Z', periodEnd: '2027-02-15T10:00:00.000Z', message: null }]);
    // Only a reference to the card is kept.
    expect(JSON.stringify(await app.sql('select * from membership'))).not.toContain('4242424242424242');

    // The cart: the card included, the album 10 % off; a guest pays the regular prices.
    const member = await app.graphql(QUOTE, { lines: cartOf() }, shopper);
    expect(member.body.data.cartQuote).toEqual({
      subtotal: '10.80',
      total: '10.80',
      membershipName: 'Card Lover',
      lines: [
        { unitPrice: '0.00', lineTotal: '0.00', memberNote: 'Included in your membership', regularUnitPrice: '4.50' },
        { unitPrice: '10.80', lineTotal: '10.80', memberNote: 'Members: 10 % off', regularUnitPrice: '12.00' },
      ],
    });
    expect((await app.graphql(QUOTE, { lines: cartOf() })).body.data.cartQuote).toMatchObject({ total: '16.50', membershipName: null });
    const placed = await app.graphql('mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id total membershipId items { price } } }', { input: orderInput(shop, { lines: cartOf() }) }, shopper);
    const [row] = await app.sql<{ membership_id: number }>('select membership_id from "order" where id = $1', [placed.body.data.placeOrder.id]);
    const [ada] = await app.sql<{ id: number }>('select m.id from membership m join app_user u on u.id = m.user_id where u.username = $1', ['member_ada']);
    expect(placed.body.data.placeOrder).toMatchObject({ total: '10.80', items: [{ price: '0.00' }, { price: '10.80' }] });
    expect(row!.membership_id).toBe(ada!.id);
    expect(placed.body.data.placeOrder.membershipId).toBe(ada!.id);
  });

  it('renews at the end of each month, charged once however often the renewals run', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const shopper = await app.customer('member_bea');
    await subscribe(shopper, monthly.id);
    clock.set('2027-02-15T10:00:01Z');
    // Two runs at once (two processes): the renewal is charged and written once.
    await Promise.all([app.services.membershipRenewals.runDue(app.orm.em.fork()), app.services.membershipRenewals.runDue(app.orm.em.fork())]);
    expect(await membership(shopper)).toMatchObject({ status: 'active', renews_at: '2027-03-15T10:00:00.000Z' });
    expect((await charges(shopper)).map((c: { periodEnd: string; status: string }) => [c.periodEnd, c.status])).toEqual([
      ['2027-03-15T10:00:00.000Z', 'paid'],
      ['2027-02-15T10:00:00.000Z', 'paid'],
    ]);
    // Its receipt, queued with the renewal: the amount, the card, the next renewal.
    const receipts = await app.sql<{ payload: unknown }>(`select payload from mail_job where recipient = 'member_bea@example.com' and kind = 'membership-renewed'`);
    expect(receipts).toEqual([{ payload: { planName: 'Card Lover', amount: '4.99', at: '2027-03-15T10:00:00.000Z', cardLast4: '4242' } }]);
  });

  it('is renewed with a claim, its address and one write (charge, next period and receipt together)', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const shopper = await app.customer('member_fay');
    await subscribe(shopper, monthly.id);
    clock.set('2027-02-15T10:00:01Z');
    const queries = await recordQueries(app, async () => void (await app.services.membershipRenewals.runDue(app.orm.em.fork())));
    expect(await membership(shopper)).toMatchObject({ status: 'active', renews_at: '2027-03-15T10:00:00.000Z' });
    // The renewals' statements (the mail queue, running meanwhile, has its own): claims, some of which find nothing left, and the renewal's own.
    const statements = queries.filter((q) => /membership|app_user/.test(q));
    const claims = statements.filter((q) => /for update of m skip locked/.test(q));
    expect(claims.length).toBeGreaterThanOrEqual(3);
    // Each renewal (another member may fall due at this moment too): its member's address, then one write.
    const own = statements.filter((q) => !claims.includes(q));
    const writes = own.filter((q) => /insert into membership_charge/.test(q));
    expect(writes.length).toBeGreaterThanOrEqual(1);
    for (const write of writes) expect(write).toMatch(/insert into membership_charge[\s\S]*update membership[\s\S]*insert into mail_job/);
    expect(own.filter((q) => /from "app_user"/.test(q))).toHaveLength(writes.length);
    expect(own).toHaveLength(2 * writes.length);
  });

  it("is charged once by key whatever becomes of the process that charged it: the provider's ledger answers another process with the first outcome", async () => {
    const [renewal] = await app.sql<{ idempotency_key: string; reference: string }>(`select c.idempotency_key, c.reference from membership_charge c join membership m on m.id = c.membership_id join app_user u on u.id = m.user_id where u.username = 'member_bea' and c.period_start = '2027-02-15T10:00:00Z'`);
    expect(await app.sql(`select operation, outcome from test_provider_ledger where idempotency_key = $1`, [renewal!.idempotency_key])).toEqual([{ operation: 'subscription-renew', outcome: { status: 'succeeded', reference: renewal!.reference } }]);
    // Another process (a provider of its own on the same database) asked again with the key: the same charge, nothing charged.
    const other = new TestPaymentProvider();
    const release = other.useDatabase(app.config.databaseUrl!);
    try {
      const again = await other.subscriptions.renew({ paymentMethod: 'test_pm_0123456789abcdef', amount: '4.99', currency: 'USD', idempotencyKey: renewal!.idempotency_key, description: 'again' });
      expect(again).toEqual({ status: 'succeeded', reference: renewal!.reference });
      expect(other.chargeCount).toBe(0);
    } finally {
      await release();
    }
    expect(await app.sql(`select count(*)::int as n from test_provider_ledger where idempotency_key = $1`, [renewal!.idempotency_key])).toEqual([{ n: 1 }]);
  });

  it('cancelled, keeps its benefits to the end of the period paid for; resumed before then, renews; cancelled at the end, stops', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const shopper = await app.customer('member_cy');
    await subscribe(shopper, monthly.id);
    const cancelled = await app.request('/api/membership/cancel', { method: 'POST', token: shopper });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: 'active', renews_at: null, cancel_at_period_end: true });
    expect((await app.request('/api/membership/cancel', { method: 'POST', token: shopper })).status).toBe(409);
    expect(await (await app.request('/api/membership/resume', { method: 'POST', token: shopper })).json()).toMatchObject({ status: 'active', renews_at: '2027-02-15T10:00:00.000Z', cancel_at_period_end: false });
    expect((await app.request('/api/membership/resume', { method: 'POST', token: shopper })).status).toBe(409);
    await app.request('/api/membership/cancel', { method: 'POST', token: shopper });
    await at('2027-02-10T10:00:00Z');
    expect((await app.graphql(QUOTE, { lines: cartOf() }, shopper)).body.data.cartQuote.membershipName).toBe('Card Lover');
    const before = payments.chargeCount;
    await at('2027-02-15T10:00:01Z');
    expect(await membership(shopper)).toMatchObject({ status: 'cancelled', renews_at: null });
    expect(payments.chargeCount).toBe(before);
    expect((await app.graphql(QUOTE, { lines: cartOf() }, shopper)).body.data.cartQuote).toMatchObject({ membershipName: null, total: '16.50' });
    // A former member becomes one again.
    expect((await subscribe(shopper, monthly.id)).status).toBe(201);
  });

  it('whose renewal is declined is past due for 7 days with an e-mail, keeping its benefits, then lapses; its member pays again', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const shopper = await app.customer('member_dot');
    expect((await subscribe(shopper, monthly.id, FAILS_AT_RENEWAL)).status).toBe(201);
    await at('2027-02-15T10:00:01Z');
    expect(await membership(shopper)).toMatchObject({ status: 'past_due', renews_at: null });
    expect((await charges(shopper))[0]).toMatchObject({ status: 'failed', message: 'Your card was declined at renewal.' });
    const mails = await app.sql<{ kind: string; recipient: string; payload: { at: string } }>(`select kind, recipient, payload from mail_job where recipient = 'member_dot@example.com' and kind like 'membership-%'`);
    expect(mails).toEqual([{ kind: 'membership-payment-failed', recipient: 'member_dot@example.com', payload: expect.objectContaining({ planName: 'Card Lover', amount: '4.99', at: '2027-02-22T10:00:01.000Z', cardLast4: '0341' }) }]);
    expect((await app.graphql(QUOTE, { lines: cartOf() }, shopper)).body.data.cartQuote.membershipName).toBe('Card Lover');
    await at('2027-02-22T10:00:00Z');
    expect((await membership(shopper)).status).toBe('past_due');
    await at('2027-02-22T10:00:02Z');
    expect((await membership(shopper)).status).toBe('lapsed');
    expect((await app.graphql(QUOTE, { lines: cartOf() }, shopper)).body.data.cartQuote.membershipName).toBeNull();
    const again = await subscribe(shopper, monthly.id);
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ status: 'active', renews_at: '2027-03-22T10:00:02.000Z' });
  });

  it('of a yearly plan is reminded once, 7 days before it renews', async () => {
    clock.set('2027-01-15T10:00:00Z');
    const shopper = await app.customer('member_eve');
    await subscribe(shopper, yearly.id);
    await at('2028-01-08T09:59:59Z');
    const reminders = () => app.sql<{ payload: { at: string } }>(`select payload from mail_job where recipient = 'member_eve@example.com' and kind = 'membership-renewal-reminder'`);
    expect(await reminders()).toEqual([]);
    await at('2028-01-08T10:00:00Z');
    await at('2028-01-09T10:00:00Z');
    expect(await reminders()).toEqual([{ payload: expect.objectContaining({ planName: 'Card Lover Yearly', amount: '39.00', at: '2028-01-15T10:00:00.000Z' }) }]);
    await at('2028-01-15T10:00:00Z');
    expect(await membership(shopper)).toMatchObject({ status: 'active', renews_at: '2029-01-15T10:00:00.000Z' });
  });
});

describe("memberships in the shop's figures", () => {
  it('Sales counts members now, those who joined and left in a period, and the monthly recurring revenue; Customers says who is a member', async () => {
    const staff = (await staffMember(app, admin)).token;
    const FIGURES = `query($from: DateTimeISO!, $to: DateTimeISO!) { membershipFigures(from: $from, to: $to) { activeMembers newMembers endedMembers monthlyRecurringRevenue } }`;
    const figures = async (from: string, to: string) => (await app.graphql(FIGURES, { from, to }, staff)).body.data.membershipFigures;
    // What the database says, counted apart from the service's statement.
    const current = await app.sql<{ plan: string; price: string; period: string; renews: boolean }>(`select p.name as plan, p.price::text as price, p.period, not m.cancel_at_period_end as renews from membership m join membership_plan p on p.id = m.plan_id where m.status in ('active', 'past_due')`);
    const mrr = current.filter((m) => m.renews).reduce((cents, m) => cents + Math.round((Number(m.price) * 100) / (m.period === 'year' ? 12 : 1)), 0);
    const [joined] = await app.sql<{ n: number }>(`select count(*)::int as n from membership where created_at >= '2027-01-01' and created_at < '2027-02-01'`);
    const [ended] = await app.sql<{ n: number }>(`select count(*)::int as n from membership where ended_at >= '2027-02-01' and ended_at < '2027-03-01'`);
    expect(joined!.n).toBeGreaterThan(0);
    expect(ended!.n).toBeGreaterThan(0);
    expect(await figures('2027-01-01T00:00:00Z', '2027-02-01T00:00:00Z')).toMatchObject({ activeMembers: current.length, newMembers: joined!.n, monthlyRecurringRevenue: (mrr / 100).toFixed(2) });
    expect((await figures('2027-02-01T00:00:00Z', '2027-03-01T00:00:00Z')).endedMembers).toBe(ended!.n);
    expect((await app.graphql(FIGURES, { from: '2027-01-01T00:00:00Z', to: '2027-02-01T00:00:00Z' }, await app.customer())).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const customers = await app.graphql('query { customers(first: 50) { edges { node { username membership } } } }', {}, staff);
    const byName = new Map(customers.body.data.customers.edges.map((e: { node: { username: string; membership: string | null } }) => [e.node.username, e.node.membership]));
    expect(byName.get('member_ada')).toBe('Card Lover');
    expect(byName.get('member_eve')).toBe('Card Lover Yearly');
    expect(byName.get('member_dot')).toBe('Card Lover');
  });
});
