import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The CSV files the shop writes (the address book, the orders export) open in a spreadsheet as text:
 * a cell that would start with `=`, `+`, `-`, `@`, a tab or a carriage return (a formula) is written
 * with a leading apostrophe, whatever its column; amounts stay numbers.
 */

let app: TestApp;
let admin: string;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 });
  admin = await app.login();
  shop = await seedShop(app, admin);
  // Nothing is sent behind the test's back: an order's status stays what it was when it was read.
  await app.services.deliveries.stop();
});
afterAll(async () => {
  await app?.stop();
});

const FORMULA_EMAIL = "-2+3+cmd|'/ccalc'!a0@example.com";

describe('CSV exports', () => {
  it('write the address book with every formula-like name and e-mail address as text', async () => {
    const token = await app.customer('csv_formulas');
    const contacts = [
      { name: 'Calc', email: FORMULA_EMAIL },
      { name: '=HYPERLINK("http://evil.example","x")', email: '=1+1@example.com' },
      { name: '@SUM(A1)', email: '+1@example.com' },
      { name: '-Plain dash', email: 'plain@example.com' },
    ];
    for (const input of contacts) {
      const { body } = await app.graphql(`mutation($input: ContactInput!) { createContact(input: $input) { id } }`, { input }, token);
      expect(body.errors).toBeUndefined();
    }
    const res = await app.request('/api/account/contacts.csv', { token });
    expect(res.status).toBe(200);
    const [header, ...lines] = (await res.text()).split('\r\n');
    expect(header).toBe('name,email,birthday');
    expect(lines.filter(Boolean).sort()).toEqual([
      `Calc,'${FORMULA_EMAIL},`,
      `"'=HYPERLINK(""http://evil.example"",""x"")",'=1+1@example.com,`,
      `'@SUM(A1),'+1@example.com,`,
      `'-Plain dash,plain@example.com,`,
    ].sort());
    // The file reads back as it is: the same four contacts, nothing new.
    const again = await app.graphql(`mutation($csv: String!) { importContacts(csv: $csv) { imported errors { line message } } }`, { csv: [header, ...lines].join('\r\n') }, token);
    expect(again.body.data.importContacts).toEqual({ imported: 4, errors: [] });
    const book = await app.graphql(`{ contacts { totalCount edges { node { name email } } } }`, {}, token);
    expect(book.body.data.contacts.totalCount).toBe(4);
    expect(book.body.data.contacts.edges.map((e: { node: { name: string; email: string } }) => e.node).sort((a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email))).toEqual([...contacts].sort((a, b) => a.email.localeCompare(b.email)));
  });

  it('write the orders export with a formula-like customer as text and the total as a number', async () => {
    const placed = await placeOrder(app, orderInput(shop, { purchaserEmail: FORMULA_EMAIL }));
    expect(placed.body.errors).toBeUndefined();
    const id: string = placed.body.data.placeOrder.id;
    await app.sql(`update order_item set name = $2 where order_id = $1 and position = (select min(position) from order_item where order_id = $1)`, [id, '\tTabbed']);
    const [order] = await app.sql<{ created_at: Date }>('select created_at from "order" where id = $1', [id]);
    const res = await app.request(`/api/admin/orders.csv?search=${encodeURIComponent('ccalc')}`, { token: admin });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      'order_id,order_number,created_at,customer,status,total,discount_code,items,refund_reason\r\n' +
        `${id},${id.slice(0, 8).toUpperCase()},${order!.created_at.toISOString()},'${FORMULA_EMAIL},paid,28.50,,'\tTabbed x1; Summer Songs Album x2,\r\n`,
    );
  });
});
