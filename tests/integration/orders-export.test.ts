import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 }, { paymentProviders: [new TestPaymentProvider()] });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

/** RFC 4180 reading: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

const HEADER = 'order_id,order_number,created_at,customer,status,total,discount_code,items,refund_reason';
const exportCsv = (search = '', token: string | undefined = admin) => app.request(`/api/admin/orders.csv?search=${encodeURIComponent(search)}`, { token });

describe('GET /api/admin/orders.csv', () => {
  it('answers text/csv with the header of the contract and one row per order, newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `export${i}@example.com` }));
      ids.push(body.data.placeOrder.id);
    }
    const res = await exportCsv('export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe(HEADER);
    const rows = parseCsv(text);
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).map((r) => r[0])).toEqual([...ids].reverse());
    const [id, number, created, customer, status, total, code, items] = rows[1]!;
    expect(number).toBe(id!.slice(0, 8).toUpperCase());
    expect(new Date(created!).toISOString()).toBe(created);
    // Paid (or already delivered: the queue, woken when the order commits, may have sent its e-mails by now).
    expect([customer, status, total, code, items]).toEqual(['export2@example.com', expect.stringMatching(/^(paid|delivered)$/), '28.50', '', 'Balloon Birthday x1; Summer Songs Album x2']);
  });

  it('quotes commas, quotes and line breaks, and prefixes formula-looking cells', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'quoting@example.com', lines: [{ productId: shop.albumId, quantity: 1 }] }));
    const id = body.data.placeOrder.id;
    await app.sql(`update order_item set name = $2 where order_id = $1`, [id, 'Songs, "Live"\nand more']);
    const res = await exportCsv('quoting');
    const text = await res.text();
    expect(text).toContain('"Songs, ""Live""\nand more x1"');
    expect(parseCsv(text)[1]![7]).toBe('Songs, "Live"\nand more x1');

    for (const name of ['=HYPERLINK("http://evil.example","x")', '+1+2', '-3', '@SUM(A1)']) {
      await app.sql(`update order_item set name = $2 where order_id = $1`, [id, name]);
      const cell = parseCsv(await (await exportCsv('quoting')).text())[1]![7];
      expect(cell).toBe(`'${name} x1`);
    }
    const code = await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: 'CSV-5', percent_off: 5 } });
    expect(code.status).toBe(201);
    const discounted = await placeOrder(app, orderInput(shop, { purchaserEmail: 'coded@example.com', discountCode: 'csv-5' }));
    expect(discounted.body.errors).toBeUndefined();
    const row = parseCsv(await (await exportCsv('coded')).text())[1]!;
    // 5% of 28.50 is 1.425, rounded to 1.43.
    expect(row[5]).toBe('27.07');
    expect(row[6]).toBe('CSV-5');
  });

  it('exports every order when the search is empty, and only the header when nothing matches', async () => {
    const all = parseCsv(await (await exportCsv('')).text());
    const [{ n }] = await app.sql<{ n: string }>(`select count(*) as n from "order" where status <> 'pending'`);
    expect(all.length - 1).toBe(Number(n));
    const none = await (await exportCsv('nothing-matches-this')).text();
    expect(none).toBe(`${HEADER}\r\n`);
  });

  it('streams thousands of orders in batches', async () => {
    await app.sql(`insert into "order" (id, purchaser_email, status, total, payment_provider, payment_reference, idempotency_key, request_hash, item_names, created_at)
      select gen_random_uuid(), 'bulk' || g || '@example.com', 'paid', 10, 'test', 'ref' || g, 'bulk-key-' || g, 'h', 'bulk album', now() - (g || ' minutes')::interval
        from generate_series(1, 2500) g`);
    const rows = parseCsv(await (await exportCsv('bulk')).text());
    expect(rows).toHaveLength(2501);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(2500);
    expect(rows[1]![3]).toBe('bulk1@example.com');
    // Many orders at the same instant, with microseconds: none skipped, none repeated across batches.
    await app.sql(`insert into "order" (id, purchaser_email, status, total, payment_provider, payment_reference, idempotency_key, request_hash, item_names, created_at)
      select gen_random_uuid(), 'same' || g || '@example.com', 'paid', 10, 'test', 'ref', 'same-key-' || g, 'h', 'same instant', timestamptz '2026-01-01 10:00:00.123456+00' + (g % 3) * interval '1 microsecond'
        from generate_series(1, 4500) g`);
    const same = parseCsv(await (await exportCsv('same instant')).text());
    expect(same).toHaveLength(4501);
    expect(new Set(same.slice(1).map((r) => r[0])).size).toBe(4500);
    expect(rows.at(-1)![3]).toBe('bulk2500@example.com');
  });

  it('is for admins only (401 anonymous, 403 customers)', async () => {
    expect((await app.request('/api/admin/orders.csv')).status).toBe(401);
    expect((await exportCsv('', await app.customer())).status).toBe(403);
  });
});
