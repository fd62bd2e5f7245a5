import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { manualClock } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
const clock = manualClock('2026-03-15T12:00:00Z');

const SUMMARY = `query($tz: String) { salesSummary(timeZone: $tz) { timeZone since revenue orders cardsSent cardsOpened days { day revenue orders } } }`;
let seq = 0;
async function order(createdAt: string, total: string, status = 'paid'): Promise<string> {
  seq += 1;
  const [row] = await app.sql<{ id: string }>(
    `insert into "order" (id, purchaser_email, status, total, refunded_amount, payment_provider, payment_reference, idempotency_key, request_hash, item_names, created_at)
     values (gen_random_uuid(), 'sales@example.com', $1, $2, case when $1 = 'refunded' then $2::numeric else 0 end, 'test', 'ref', 'sales-key-' || $3::text, 'h', 'card', $4) returning id`,
    [status, total, seq, createdAt],
  );
  return row!.id;
}
async function card(orderId: string, deliveredAt: string | null, openedAt: string | null): Promise<void> {
  await app.sql(`insert into order_item (order_id, position, name, price, quantity, item_url_uuid, delivered_at, opened_at) values ($1, (select count(*) from order_item where order_id = $1), 'Card', 1, 1, gen_random_uuid(), $2, $3)`, [orderId, deliveredAt, openedAt]);
}

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 }, { paymentProviders: [new TestPaymentProvider()], clock: clock.now });
  admin = await app.login();
  const a = await order('2026-03-15T09:00:00Z', '10.00');
  await order('2026-03-15T02:30:00Z', '2.50', 'delivered');
  await order('2026-03-14T23:30:00Z', '5.25', 'delivered');
  await order('2026-02-14T00:00:00Z', '7.00'); // the first of the 30 days in UTC
  await order('2026-02-13T23:59:59Z', '100.00'); // one second too early
  await order('2026-03-10T12:00:00Z', '40.00', 'refunded');
  await order('2026-03-10T12:00:00Z', '40.00', 'pending');
  await order('2026-03-10T12:00:00Z', '40.00', 'cancelled');
  await card(a, '2026-03-15T09:01:00Z', '2026-03-15T09:30:00Z');
  await card(a, '2026-03-14T09:01:00Z', null);
  await card(a, '2026-01-01T09:01:00Z', '2026-01-02T09:01:00Z'); // before the 30 days
  await card(a, null, null); // not sent yet
});
afterAll(async () => {
  await app?.stop();
});

describe('salesSummary', () => {
  it('gives revenue and orders per day for the last 30 days, and the totals', async () => {
    const { body } = await app.graphql(SUMMARY, {}, admin);
    expect(body.errors).toBeUndefined();
    const summary = body.data.salesSummary;
    expect(summary).toMatchObject({ timeZone: 'UTC', since: '2026-02-14T00:00:00.000Z', revenue: '24.75', orders: 4, cardsSent: 2, cardsOpened: 1 });
    expect(summary.days).toHaveLength(30);
    expect(summary.days[0]).toEqual({ day: '2026-02-14', revenue: '7.00', orders: 1 });
    expect(summary.days.at(-1)).toEqual({ day: '2026-03-15', revenue: '12.50', orders: 2 });
    expect(summary.days.at(-2)).toEqual({ day: '2026-03-14', revenue: '5.25', orders: 1 });
    expect(summary.days.find((d: { day: string }) => d.day === '2026-03-10')).toEqual({ day: '2026-03-10', revenue: '0.00', orders: 0 });
  });

  it("counts days in the admin's time zone", async () => {
    const { body } = await app.graphql(SUMMARY, { tz: 'America/New_York' }, admin);
    const summary = body.data.salesSummary;
    // 12:00 UTC is 08:00 in New York (EDT since March 8): today is 2026-03-15 there too.
    expect(summary.timeZone).toBe('America/New_York');
    expect(summary.days.at(-1)).toEqual({ day: '2026-03-15', revenue: '10.00', orders: 1 });
    // 02:30 UTC and 23:30 UTC the day before both fall on March 14 in New York.
    expect(summary.days.at(-2)).toEqual({ day: '2026-03-14', revenue: '7.75', orders: 2 });
    expect(summary.since).toBe('2026-02-14T05:00:00.000Z');
  });

  it('refuses an unknown time zone (400) and non-admins (401/403)', async () => {
    const bad = await app.graphql(SUMMARY, { tz: 'Mars/Olympus' }, admin);
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'timeZone' });
    const anonymous = await app.graphql(SUMMARY, {});
    expect(anonymous.body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const customer = await app.graphql(SUMMARY, {}, await app.customer());
    expect(customer.body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });

  it('reads the sums kept per hour, not the orders, once they are counted', async () => {
    // The summary above counted every change; what is left to count again is nothing.
    expect(await app.sql('select * from sales_change')).toEqual([]);
    const [hour] = await app.sql<{ gross: string; orders: number; kept: number; sent: number; opened: number }>(`select gross::text, orders, kept, sent, opened from sales_hour where hour = '2026-03-15T09:00:00Z'`);
    expect(hour).toEqual({ gross: '10.00', orders: 1, kept: 1, sent: 1, opened: 1 });
  });
});
