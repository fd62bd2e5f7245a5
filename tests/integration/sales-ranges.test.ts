import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AbstractSqlDriver } from '@mikro-orm/postgresql';
import { Migration20261128110000_sales_ranges } from '../../migrations/Migration20261128110000_sales_ranges.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { manualClock } from '../helpers/order-fixtures.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Sales over ranges (contract section 16): exact totals of a seeded set of orders for ranges in three
 * time zones (UTC; New York, whose weeks put an order of 00:30 UTC in the week before; Kolkata, whose
 * days start on the half hour, inside a UTC hour), the change from the previous range, weeks, the top
 * products, the CSV export, refused ranges, who may ask, and how many statements a summary costs.
 * It is Sunday 15 March 2026, 12:00 UTC.
 */
let app: TestApp;
let admin: string;
const clock = manualClock('2026-03-15T12:00:00Z');
const products: Record<'A' | 'B' | 'C', number> = { A: 0, B: 0, C: 0 };

const SUMMARY = `query($tz: String, $from: String, $to: String, $days: Int, $bucket: SalesBucket) {
  salesSummary(timeZone: $tz, from: $from, to: $to, days: $days, bucket: $bucket) {
    timeZone since from to dayCount bucket previousFrom previousTo
    totals { gross { ...A } refunds { ...A } net { ...A } averageOrder { ...A } orders { ...C } cardsSent { ...C } cardsOpened { ...C } }
    periods { from to gross refunds net orders averageOrder cardsSent cardsOpened }
    topProducts { productId name units revenue }
  }
}
fragment A on SalesAmount { value previous change }
fragment C on SalesCount { value previous change }`;

async function summary(variables: Record<string, unknown>) {
  const { body } = await app.graphql(SUMMARY, variables, admin);
  expect(body.errors).toBeUndefined();
  return body.data.salesSummary;
}

type Line = [product: keyof typeof products | null, price: string, quantity: number];
let seq = 0;
/** An order placed at `createdAt` with its lines (a null product: one since deleted, sold as "Old Card"); returns its id and line ids. */
async function order(createdAt: string, status: string, lines: Line[], discount = '0.00') {
  seq += 1;
  const subtotal = lines.reduce((sum, [, price, quantity]) => sum + Math.round(Number(price) * 100) * quantity, 0);
  const total = ((subtotal - Math.round(Number(discount) * 100)) / 100).toFixed(2);
  const [row] = await app.sql<{ id: string }>(
    `insert into "order" (id, purchaser_email, status, total, discount_amount, refunded_amount, payment_provider, payment_reference, idempotency_key, request_hash, item_names, created_at)
     values (gen_random_uuid(), 'ranges@example.com', $1, $2, $3, case when $1 = 'refunded' then $2::numeric else 0 end, 'test', 'ref-' || $4::text, 'ranges-' || $4::text, 'h', 'cards', $5) returning id`,
    [status, total, discount, seq, createdAt],
  );
  const ids: number[] = [];
  for (const [i, [product, price, quantity]] of lines.entries()) {
    const [item] = await app.sql<{ id: number }>(
      `insert into order_item (order_id, position, product_id, name, price, quantity, refunded_at) values ($1, $2, $3, $4, $5, $6, case when $7 then $8::timestamptz end) returning id`,
      [row!.id, i, product ? products[product] : null, product ? `Product ${product}` : 'Old Card', price, quantity, status === 'refunded', createdAt],
    );
    ids.push(item!.id);
  }
  return { id: row!.id, lines: ids };
}
const sent = (itemId: number, deliveredAt: string, openedAt: string | null = null) => app.sql('update order_item set delivered_at = $2, opened_at = $3 where id = $1', [itemId, deliveredAt, openedAt]);

let o2: { id: string; lines: number[] };
let o3: { id: string; lines: number[] };

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 }, { paymentProviders: [new TestPaymentProvider()], clock: clock.now });
  admin = await app.login();
  const category = await restCategory(app, admin, 'Albums');
  for (const [key, price] of [['A', 4], ['B', 5], ['C', 3]] as const) {
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: `Product ${key}`, price, category_id: category, product_type_id: 2 }, tags: [] } });
    products[key] = (await res.json()).product.id;
  }
  const o1 = await order('2026-03-15T09:00:00Z', 'paid', [['A', '4.00', 2]]);
  await sent(o1.lines[0]!, '2026-03-15T09:01:00Z', '2026-03-15T10:00:00Z');
  o2 = await order('2026-03-14T23:30:00Z', 'delivered', [['B', '5.00', 1], ['C', '3.00', 1]]);
  await sent(o2.lines[0]!, '2026-03-14T23:31:00Z');
  // 10 % off 9.00: charged 8.10; its B line is refunded below (4.50, its share).
  o3 = await order('2026-03-10T12:00:00Z', 'paid', [['A', '4.00', 1], ['B', '5.00', 1]], '0.90');
  await order('2026-03-09T12:00:00Z', 'refunded', [['C', '3.00', 2]]);
  await order('2026-03-09T13:00:00Z', 'cancelled', [['A', '4.00', 5]]);
  await order('2026-03-09T14:00:00Z', 'pending', [['A', '4.00', 1]]);
  await order('2026-03-12T10:00:00Z', 'paid', [[null, '2.00', 1]]);
  // 23:50 and 00:10 in Kolkata: the same UTC hour, two days there.
  await order('2026-03-12T18:20:00Z', 'paid', [['A', '4.00', 1]]);
  await order('2026-03-12T18:40:00Z', 'paid', [['C', '3.00', 1]]);
  // The previous 7 days (2 to 8 March); in New York the second is 1 March, 19:30.
  const p1 = await order('2026-03-05T10:00:00Z', 'delivered', [['B', '5.00', 2]]);
  await sent(p1.lines[0]!, '2026-03-05T10:01:00Z', '2026-03-06T10:00:00Z');
  await order('2026-03-02T00:30:00Z', 'paid', [['C', '3.00', 1]]);
  await order('2025-12-01T10:00:00Z', 'delivered', [['A', '4.00', 1]]);
});
afterAll(async () => {
  await app?.stop();
});

describe('salesSummary over ranges', () => {
  it('counts a refund and a card opened after the figures were last read', async () => {
    const before = await summary({ tz: 'UTC', days: 7 });
    expect(before.totals.refunds.value).toBe('6.00');
    expect(before.totals.cardsOpened.value).toBe(1);
    const refund = await app.request(`/api/admin/orders/${o3.id}/refund`, { method: 'POST', token: admin, json: { item_ids: [o3.lines[1]] } });
    expect(refund.status).toBe(200);
    await app.sql(`update order_item set opened_at = '2026-03-15T11:00:00Z' where id = $1`, [o2.lines[0]]);
    const after = await summary({ tz: 'UTC', days: 7 });
    expect(after.totals.refunds.value).toBe('10.50');
    expect(after.totals.cardsOpened.value).toBe(2);
  });

  it('gives the totals of the last 7 days beside the 7 before, in UTC', async () => {
    const s = await summary({ tz: 'UTC', days: 7 });
    expect(s).toMatchObject({ timeZone: 'UTC', since: '2026-03-09T00:00:00.000Z', from: '2026-03-09', to: '2026-03-15', dayCount: 7, bucket: 'DAY', previousFrom: '2026-03-02', previousTo: '2026-03-08' });
    expect(s.totals).toEqual({
      gross: { value: '39.10', previous: '13.00', change: 200.8 },
      refunds: { value: '10.50', previous: '0.00', change: null },
      net: { value: '28.60', previous: '13.00', change: 120 },
      averageOrder: { value: '5.59', previous: '6.50', change: -14 },
      orders: { value: 7, previous: 2, change: 250 },
      cardsSent: { value: 2, previous: 1, change: 100 },
      cardsOpened: { value: 2, previous: 1, change: 100 },
    });
    const zero = (day: string) => ({ from: day, to: day, gross: '0.00', refunds: '0.00', net: '0.00', orders: 0, averageOrder: '0.00', cardsSent: 0, cardsOpened: 0 });
    expect(s.periods).toEqual([
      { from: '2026-03-09', to: '2026-03-09', gross: '6.00', refunds: '6.00', net: '0.00', orders: 1, averageOrder: '6.00', cardsSent: 0, cardsOpened: 0 },
      { from: '2026-03-10', to: '2026-03-10', gross: '8.10', refunds: '4.50', net: '3.60', orders: 1, averageOrder: '8.10', cardsSent: 0, cardsOpened: 0 },
      zero('2026-03-11'),
      { from: '2026-03-12', to: '2026-03-12', gross: '9.00', refunds: '0.00', net: '9.00', orders: 3, averageOrder: '3.00', cardsSent: 0, cardsOpened: 0 },
      zero('2026-03-13'),
      { from: '2026-03-14', to: '2026-03-14', gross: '8.00', refunds: '0.00', net: '8.00', orders: 1, averageOrder: '8.00', cardsSent: 1, cardsOpened: 0 },
      { from: '2026-03-15', to: '2026-03-15', gross: '8.00', refunds: '0.00', net: '8.00', orders: 1, averageOrder: '8.00', cardsSent: 1, cardsOpened: 2 },
    ]);
  });

  it('ranks the products by net revenue: a line is its share of a discounted order, refunded lines are left out', async () => {
    const s = await summary({ tz: 'UTC', from: '2026-03-09', to: '2026-03-15' });
    expect(s.topProducts).toEqual([
      // 8.00 + 3.60 (4.00 of 9.00 less 10 %) + 4.00
      { productId: products.A, name: 'Product A', units: 4, revenue: '15.60' },
      { productId: products.C, name: 'Product C', units: 2, revenue: '6.00' },
      { productId: products.B, name: 'Product B', units: 1, revenue: '5.00' },
      { productId: null, name: 'Old Card', units: 1, revenue: '2.00' },
    ]);
  });

  it('puts days and weeks in the time zone asked for (an order of 00:30 UTC on 2 March is 1 March in New York)', async () => {
    const s = await summary({ tz: 'America/New_York', days: 30, bucket: 'WEEK' });
    expect(s).toMatchObject({ from: '2026-02-14', to: '2026-03-15', since: '2026-02-14T05:00:00.000Z', bucket: 'WEEK' });
    expect(s.periods.map((p: Record<string, unknown>) => [p.from, p.to, p.gross, p.refunds, p.orders, p.cardsSent, p.cardsOpened])).toEqual([
      ['2026-02-14', '2026-02-15', '0.00', '0.00', 0, 0, 0],
      ['2026-02-16', '2026-02-22', '0.00', '0.00', 0, 0, 0],
      ['2026-02-23', '2026-03-01', '3.00', '0.00', 1, 0, 0],
      ['2026-03-02', '2026-03-08', '10.00', '0.00', 1, 1, 1],
      ['2026-03-09', '2026-03-15', '39.10', '10.50', 7, 2, 2],
    ]);
    expect(s.totals.gross).toEqual({ value: '52.10', previous: '0.00', change: null });
    // The same order is in the week of 2 March in UTC.
    const utc = await summary({ tz: 'UTC', from: '2026-02-23', to: '2026-03-08', bucket: 'WEEK' });
    expect(utc.periods.map((p: Record<string, unknown>) => [p.from, p.gross])).toEqual([['2026-02-23', '0.00'], ['2026-03-02', '13.00']]);
  });

  it('splits a UTC hour between two days where days start on the half hour (Kolkata)', async () => {
    const s = await summary({ tz: 'Asia/Kolkata', days: 7 });
    expect(s.since).toBe('2026-03-08T18:30:00.000Z');
    const day = (d: string) => s.periods.find((p: { from: string }) => p.from === d);
    expect([day('2026-03-12').gross, day('2026-03-12').orders, day('2026-03-13').gross, day('2026-03-13').orders]).toEqual(['6.00', 2, '3.00', 1]);
    expect([day('2026-03-14').orders, day('2026-03-15').gross, day('2026-03-15').orders, day('2026-03-15').cardsSent, day('2026-03-15').cardsOpened]).toEqual([0, '16.00', 2, 2, 2]);
    expect(s.totals.gross).toEqual({ value: '39.10', previous: '13.00', change: 200.8 });
  });

  it('reaches back a year, and keeps the figures of the view before ranges for their callers', async () => {
    const s = await summary({ tz: 'UTC', days: 365 });
    expect([s.from, s.periods.length, s.totals.gross.value, s.totals.orders.value, s.totals.gross.previous]).toEqual(['2025-03-16', 365, '56.10', 10, '0.00']);
    const { body } = await app.graphql(`{ salesSummary { since revenue orders cardsSent cardsOpened days { day revenue orders } } }`, {}, admin);
    const legacy = body.data.salesSummary;
    // The last 30 days; orders not refunded in full, and what the shop kept of them.
    expect(legacy).toMatchObject({ since: '2026-02-14T00:00:00.000Z', revenue: '41.60', orders: 8, cardsSent: 3, cardsOpened: 3 });
    expect(legacy.days).toHaveLength(30);
    expect(legacy.days.at(-1)).toEqual({ day: '2026-03-15', revenue: '8.00', orders: 1 });
  });

  it('costs the same few statements for 7 days as for 365', async () => {
    const count = async (days: number) => {
      const queries = await recordQueries(app, async () => void (await summary({ tz: 'Asia/Kolkata', days })));
      return { sales: queries.filter((q) => /sales_/.test(q)).length, all: queries.length };
    };
    const week = await count(7);
    expect(week.sales).toBe(3);
    expect(await count(365)).toEqual(week);
  });

  it("counts a shop's orders so far in one pass when the migration runs, as the refreshes do", async () => {
    const kept = async () => ({
      hours: await app.sql(`select hour, gross::text, refunds::text, orders, kept, sent, opened from sales_hour where orders + sent + opened > 0 order by hour`),
      days: await app.sql(`select day, product_id, name, units, round(revenue, 6)::text as revenue from sales_product_day order by day, product_id, name`),
    });
    await summary({ tz: 'UTC', days: 7 });
    const refreshed = await kept();
    expect(refreshed.hours.length).toBeGreaterThan(10);
    const migration = new Migration20261128110000_sales_ranges(app.orm.em.getDriver() as unknown as AbstractSqlDriver, app.orm.config);
    await migration.up();
    const backfill = migration.getQueries().map(String).filter((q) => /^insert into "sales_(hour|product_day)"/.test(q.trim()));
    expect(backfill).toHaveLength(2);
    await app.sql('delete from sales_hour');
    await app.sql('delete from sales_product_day');
    for (const sql of backfill) await app.sql(sql);
    expect(await kept()).toEqual(refreshed);
  });

  it('counts a mass change over several refreshes, each of at most a week', async () => {
    // 1,100 paid orders, one an hour from 1 January: 46 days, counted a week at a time.
    await app.sql(`insert into "order" (id, purchaser_email, status, total, payment_provider, payment_reference, idempotency_key, request_hash, item_names, created_at)
      select gen_random_uuid(), 'mass@example.com', 'paid', 1.00, 'test', 'ref', 'mass-' || n, 'h', 'cards', '2026-01-01T00:30:00Z'::timestamptz + make_interval(hours => n) from generate_series(0, 1099) as n`);
    expect((await app.sql<{ n: number }>('select count(distinct date_trunc(\'hour\', at, \'UTC\'))::int as n from sales_change'))[0]!.n).toBe(1100);
    const queries = await recordQueries(app, async () => {
      const s = await summary({ tz: 'UTC', from: '2026-01-01', to: '2026-02-15' });
      expect(s.totals.orders.value).toBe(1100);
      expect(s.totals.gross.value).toBe('1100.00');
    });
    expect(queries.filter((q) => /sales_rollup_refresh/.test(q))).toHaveLength(7);
    expect(await app.sql('select * from sales_change')).toEqual([]);
    await app.sql(`delete from "order" where purchaser_email = 'mass@example.com'`);
  });

  it('refuses a range it cannot count (BAD_USER_INPUT naming the argument)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ from: '2026-03-10', to: '2026-03-09' }, 'to'],
      [{ from: '2025-01-01', to: '2026-03-15' }, 'to'],
      [{ from: '2026-03-10' }, 'to'],
      [{ to: '2026-03-10' }, 'from'],
      [{ from: '2026-02-30', to: '2026-03-10' }, 'from'],
      [{ from: '2026-03-10', to: '2026-03-16' }, 'to'],
      [{ days: 0 }, 'days'],
      [{ days: 367 }, 'days'],
      [{ days: 7, from: '2026-03-01', to: '2026-03-02' }, 'days'],
      [{ tz: 'Mars/Olympus' }, 'timeZone'],
    ];
    for (const [variables, field] of cases) {
      const { body } = await app.graphql(SUMMARY, variables, admin);
      expect([variables, body.errors?.[0]?.extensions]).toEqual([variables, expect.objectContaining({ code: 'BAD_USER_INPUT', field })]);
    }
    // A whole leap year is the longest range.
    expect((await summary({ tz: 'UTC', from: '2024-01-01', to: '2024-12-31' })).dayCount).toBe(366);
  });

  it('answers admins and staff only (401 signed out, 403 customers)', async () => {
    expect((await app.graphql(SUMMARY, { days: 7 })).body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect((await app.graphql(SUMMARY, { days: 7 }, await app.customer('rangeshopper'))).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});

describe('GET /api/admin/sales.csv', () => {
  const HEADER = 'period_start,period_end,gross,refunds,net,orders,average_order,cards_sent,cards_opened';

  it('writes a line per day of the range with its figures', async () => {
    const res = await app.request('/api/admin/sales.csv?from=2026-03-09&to=2026-03-15&time_zone=UTC', { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="sales-2026-03-09-to-2026-03-15-by-day.csv"');
    expect((await res.text()).split('\r\n')).toEqual([
      HEADER,
      '2026-03-09,2026-03-09,6.00,6.00,0.00,1,6.00,0,0',
      '2026-03-10,2026-03-10,8.10,4.50,3.60,1,8.10,0,0',
      '2026-03-11,2026-03-11,0.00,0.00,0.00,0,0.00,0,0',
      '2026-03-12,2026-03-12,9.00,0.00,9.00,3,3.00,0,0',
      '2026-03-13,2026-03-13,0.00,0.00,0.00,0,0.00,0,0',
      '2026-03-14,2026-03-14,8.00,0.00,8.00,1,8.00,1,0',
      '2026-03-15,2026-03-15,8.00,0.00,8.00,1,8.00,1,2',
      '',
    ]);
  });

  it('writes weeks, in the time zone asked for', async () => {
    const res = await app.request('/api/admin/sales.csv?days=30&by=week&time_zone=America/New_York', { token: admin });
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="sales-2026-02-14-to-2026-03-15-by-week.csv"');
    expect((await res.text()).split('\r\n').slice(3, 6)).toEqual(['2026-02-23,2026-03-01,3.00,0.00,3.00,1,3.00,0,0', '2026-03-02,2026-03-08,10.00,0.00,10.00,1,10.00,1,1', '2026-03-09,2026-03-15,39.10,10.50,28.60,7,5.59,2,2']);
  });

  it('refuses a bad range (400 with the parameter) and anyone but admins and staff (401, 403)', async () => {
    for (const [query, field] of [['from=2026-03-10&to=2026-03-09', 'to'], ['days=400', 'days'], ['days=week', 'days'], ['by=month', 'by'], ['time_zone=Mars/Olympus', 'time_zone'], ['from=2026-03-01', 'to']]) {
      const res = await app.request(`/api/admin/sales.csv?${query}`, { token: admin });
      expect([query, res.status, (await res.json()).field]).toEqual([query, 400, field]);
    }
    expect((await app.request('/api/admin/sales.csv')).status).toBe(401);
    expect((await app.request('/api/admin/sales.csv', { token: await app.customer('csvshopper') })).status).toBe(403);
  });
});
