import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { recordQueries, selects } from '../helpers/queries.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let staff: string;
let shop: Shop;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 });
  admin = await app.login();
  shop = await seedShop(app, admin);
  staff = (await staffMember(app, admin)).token;
  // Three shoppers: Ada orders twice (one later partly refunded), Bob once, Cy never.
  for (const name of ['ada', 'bob', 'cy']) {
    const token = await app.customer(`${name}shop`);
    ids[name] = (await (await app.request('/api/me', { token })).json()).id;
    const orders = name === 'ada' ? 2 : name === 'bob' ? 1 : 0;
    for (let i = 0; i < orders; i++) {
      const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `${name}shop@example.com` }), token);
      if (!body.data) throw new Error(JSON.stringify(body.errors));
    }
  }
  await app.sql(`update app_user set email_confirmed_at = now() where id = $1`, [ids.bob]);
});
afterAll(async () => {
  await app?.stop();
});

const list = async (query: string, token = staff) => {
  const res = await app.request(`/api/admin/customers${query}`, { token });
  expect(res.status).toBe(200);
  return res.json();
};

describe('customers', () => {
  it('lists shoppers with their orders, what they spent and their last order, searched by name or e-mail', async () => {
    const all = await list('');
    expect(all.total).toBe(3);
    expect(all.customers.map((c: { username: string }) => c.username)).toEqual(['cyshop', 'bobshop', 'adashop']);
    const ada = all.customers.find((c: { username: string }) => c.username === 'adashop');
    expect(ada).toMatchObject({ id: ids.ada, email: 'adashop@example.com', orders: 2, total_spent: 57, confirmed: false, email_confirmed_at: null, last_order_at: expect.any(String) });
    expect(all.customers.find((c: { username: string }) => c.username === 'bobshop')).toMatchObject({ orders: 1, total_spent: 28.5, confirmed: true });
    expect(all.customers.find((c: { username: string }) => c.username === 'cyshop')).toMatchObject({ orders: 0, total_spent: 0, last_order_at: null });
    // Staff and admins are not customers.
    expect(all.customers.some((c: { username: string }) => c.username === 'admin')).toBe(false);

    expect((await list('?search=ADA')).customers.map((c: { id: number }) => c.id)).toEqual([ids.ada]);
    expect((await list('?search=bobshop%40example')).customers.map((c: { id: number }) => c.id)).toEqual([ids.bob]);
    expect((await list('?search=nobody')).total).toBe(0);
  });

  it('keeps the totals right as orders are refunded (less what was refunded)', async () => {
    const [order] = await app.sql<{ id: string }>(`select id from "order" where user_id = $1 order by created_at limit 1`, [ids.ada]);
    const [card] = await app.sql<{ id: number }>(`select id from order_item where order_id = $1 and item_url_uuid is not null`, [order!.id]);
    expect((await app.request(`/api/admin/orders/${order!.id}/refund`, { method: 'POST', token: staff, json: { item_ids: [card!.id] } })).status).toBe(200);
    const ada = (await list('?search=adashop')).customers[0];
    expect(ada).toMatchObject({ orders: 2, total_spent: 52.5 });
  });

  it('sorts by any column either way and pages with next_page, never showing a row twice', async () => {
    // Amounts sort as numbers, not as text ("9.00" would come before "52.50").
    await app.sql(`update app_user set total_spent = 9 where id = $1`, [ids.cy]);
    const bySpent = await list('?sort=spent');
    expect(bySpent.customers.map((c: { username: string }) => c.username)).toEqual(['adashop', 'bobshop', 'cyshop']);
    expect((await list('?sort=spent&order=asc')).customers.map((c: { username: string }) => c.username)).toEqual(['cyshop', 'bobshop', 'adashop']);
    const byNameDown = await list('?sort=name&order=desc');
    expect(byNameDown.customers.map((c: { username: string }) => c.username)).toEqual(['cyshop', 'bobshop', 'adashop']);
    for (const sort of ['newest', 'name', 'email', 'orders', 'spent', 'last_order']) {
      for (const descending of [true, false]) {
        const seen: number[] = [];
        let after: string | null = null;
        do {
          const res: { body: { data?: any } } = await app.graphql(
            `query($s: CustomerSort, $d: Boolean, $a: String) { customers(first: 1, sort: $s, descending: $d, after: $a) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`,
            { s: sort.toUpperCase(), d: descending, a: after },
            staff,
          );
          const page: { edges: { node: { id: number } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } } = res.body.data.customers;
          seen.push(...page.edges.map((e: { node: { id: number } }) => e.node.id));
          after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
        } while (after);
        expect(seen.sort()).toEqual([ids.ada, ids.bob, ids.cy].sort());
      }
    }
    // REST pages the same way.
    const one = await app.request('/api/admin/customers?sort=orders', { token: staff });
    const first = await one.json();
    expect(first.customers.length).toBe(3);
    expect(first.next_page).toBeNull();
    expect((await app.request('/api/admin/customers?sort=shoe', { token: staff })).status).toBe(400);
    expect((await app.request('/api/admin/customers?page=garbage!', { token: staff })).status).toBe(400);
  });

  it('shows one customer with their orders; unknown ids and non-customers are 404', async () => {
    const res = await app.request(`/api/admin/customers/${ids.ada}`, { token: staff });
    expect(res.status).toBe(200);
    const ada = await res.json();
    expect(ada.order_list.length).toBe(2);
    expect(ada.order_list.map((o: { order_status: string }) => o.order_status)).toContain('partially_refunded');
    expect(ada.order_list.find((o: { order_status: string }) => o.order_status === 'partially_refunded')).toMatchObject({ total: 28.5, refunded_amount: 4.5 });
    const gql = await app.graphql(`query($id: Int!) { customer(id: $id) { username confirmed ordersCount totalSpent orders(first: 10) { totalCount edges { node { id status total refundedAmount } } } } }`, { id: ids.ada }, admin);
    expect(gql.body.data.customer).toMatchObject({ username: 'adashop', confirmed: false, ordersCount: 2, totalSpent: '52.50' });
    expect(gql.body.data.customer.orders.totalCount).toBe(2);
    expect((await app.request('/api/admin/customers/999999', { token: staff })).status).toBe(404);
    const [{ id: adminId }] = await app.sql<{ id: number }>(`select id from app_user where username = 'admin'`);
    expect((await app.request(`/api/admin/customers/${adminId}`, { token: staff })).status).toBe(404);
    expect((await app.request('/api/admin/customers/abc', { token: staff })).status).toBe(404);
  });

  it('pages by number (50 a page) or after a cursor; a page that is not a number from 1 is 400', async () => {
    const created = await Promise.all(Array.from({ length: 52 }, (_, i) => app.request('/api/register', { method: 'POST', json: { username: `paged${i}`, email: `paged${i}@example.com`, password: 'customer-pass-1' } })));
    expect(created.map((res) => res.status)).toEqual(created.map(() => 201));
    const everyone = (await app.graphql(`{ customers(first: 100, sort: NAME) { totalCount edges { node { id } } } }`, {}, staff)).body.data.customers;
    expect(everyone.totalCount).toBeGreaterThan(50);
    const all: number[] = everyone.edges.map((e: { node: { id: number } }) => e.node.id);

    const one = await list('?sort=name&page=1');
    const two = await list('?sort=name&page=2');
    const idsOf = (page: { customers: { id: number }[] }) => page.customers.map((c) => c.id);
    expect(idsOf(one)).toEqual(all.slice(0, 50));
    expect(idsOf(two)).toEqual(all.slice(50));
    expect(idsOf(one).filter((id) => idsOf(two).includes(id))).toEqual([]);
    expect([one.total, one.next_page, two.next_page, two.next_after]).toEqual([all.length, 2, null, null]);
    expect(idsOf(await list('?sort=name'))).toEqual(idsOf(one));
    expect((await list('?sort=name&page=3')).customers).toEqual([]);
    // The cursor of the answer pages the same rows (as fast deep in the list as at its start).
    expect(idsOf(await list(`?sort=name&after=${one.next_after}`))).toEqual(idsOf(two));

    for (const page of ['0', '-1', 'two', '1.5', '2abc', '99999999999']) {
      const res = await app.request(`/api/admin/customers?page=${page}`, { token: staff });
      expect([page, res.status]).toEqual([page, 400]);
      expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'page', message: expect.stringMatching(/page/) });
    }
    expect((await app.request(`/api/admin/customers?page=2&after=${one.next_after}`, { token: staff })).status).toBe(400);
    expect((await app.request('/api/admin/customers?after=garbage!', { token: staff })).status).toBe(400);
  });

  it('reads a page in a fixed number of queries, and is for admins and staff only', async () => {
    const queries = await recordQueries(app, async () => {
      expect((await app.request('/api/admin/customers', { token: staff })).status).toBe(200);
    });
    // The session, the page, its count: whatever the page size.
    expect(selects(queries).length).toBeLessThanOrEqual(3);
    expect((await app.request('/api/admin/customers', { token: admin })).status).toBe(200);
    expect((await app.request('/api/admin/customers')).status).toBe(401);
    expect((await app.request('/api/admin/customers', { token: await app.customer() })).status).toBe(403);
  });
});
