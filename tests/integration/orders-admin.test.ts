import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { orderNumber } from '../../server/src/rules/index.js';
import { recordQueries, selects } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let customer: string;
let shop: Shop;
const placed: { id: string; email: string }[] = [];

const ORDERS = `query($search: String, $first: Int, $after: String) {
  orders(search: $search, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id purchaserEmail status total items { id name itemUrlUuid } } } }
}`;

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 });
  admin = await app.login();
  customer = await app.customer('nosy');
  shop = await seedShop(app, admin);
  for (let i = 0; i < 12; i++) {
    const email = i % 3 === 0 ? `Zoe.${i}@Example.com` : `buyer${i}@shop.test`;
    const lines = i % 2 === 0 ? [{ productId: shop.cardId, quantity: 1, personalisation: personalisation() }] : [{ productId: shop.albumId, quantity: 1 }];
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: email, lines }));
    placed.push({ id: body.data.placeOrder.id, email: email.toLowerCase() });
  }
  // Album-only orders are delivered once their receipt is out; card orders too (cards sent now).
  await app.sql(`update "order" set status = 'refunded' where id = $1`, [placed[11]!.id]);
});
afterAll(async () => {
  await app?.stop();
});

const orders = async (variables: Record<string, unknown>, token = admin) => app.graphql(ORDERS, variables, token);
const ids = (body: { data?: { orders: { edges: { node: { id: string } }[] } } }) => body.data!.orders.edges.map((e) => e.node.id);

describe('searching orders', () => {
  it('lists every order newest first with a total', async () => {
    const { body } = await orders({ first: 50 });
    expect(body.data.orders.totalCount).toBe(12);
    expect(ids(body)).toEqual([...placed].reverse().map((p) => p.id));
  });

  it('matches the e-mail, an item name, the status and the order id, ignoring case, every word', async () => {
    expect(ids((await orders({ search: 'ZOE' })).body).sort()).toEqual(placed.filter((p) => p.email.startsWith('zoe')).map((p) => p.id).sort());
    expect((await orders({ search: 'summer songs' })).body.data.orders.totalCount).toBe(6);
    expect((await orders({ search: 'balloon zoe' })).body.data.orders.totalCount).toBe(2);
    expect(ids((await orders({ search: 'refunded' })).body)).toEqual([placed[11]!.id]);
    expect(ids((await orders({ search: placed[4]!.id.slice(0, 13).toUpperCase() })).body)).toEqual([placed[4]!.id]);
    // The number a shopper quotes (from the receipt, My orders or the confirmation page) finds the order.
    expect(ids((await orders({ search: orderNumber(placed[7]!.id) })).body)).toEqual([placed[7]!.id]);
    expect((await orders({ search: 'nobody-like-this' })).body.data.orders.totalCount).toBe(0);
    expect((await orders({ search: '%' })).body.data.orders.totalCount).toBe(0);
  });

  it('pages with cursors without gaps or repeats', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const { body } = await orders({ first: 5, after });
      expect(body.data.orders.totalCount).toBe(12);
      seen.push(...ids(body));
      after = body.data.orders.pageInfo.hasNextPage ? body.data.orders.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual([...placed].reverse().map((p) => p.id));
  });

  it('refuses page sizes outside 1..1000 and bad cursors', async () => {
    for (const first of [0, 1001]) expect((await orders({ first })).body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    expect((await orders({ first: 1000 })).body.errors).toBeUndefined();
    expect((await orders({ after: 'nonsense' })).body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
  });

  it('is for admins only', async () => {
    expect((await app.graphql(ORDERS, {})).body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect((await orders({}, customer)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });

  it('reads a page of orders with their items in a bounded number of queries', async () => {
    await app.services.deliveries.runDue(); // the e-mail worker's queries are not the page's
    const count = async (first: number) => selects(await recordQueries(app, async () => void (await orders({ first })))).length;
    const [few, many] = [await count(2), await count(12)];
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(4);
  });
});

describe('GET /api/admin/orders', () => {
  it('answers the contract shape, newest first, searched', async () => {
    const res = await app.request('/api/admin/orders?search=zoe', { token: admin });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.map((o: { id: string }) => o.id)).toEqual(placed.filter((p) => p.email.startsWith('zoe')).reverse().map((p) => p.id));
    const card = body.find((o: { id: string }) => o.id === placed[0]!.id);
    expect(card).toEqual({
      id: placed[0]!.id,
      number: placed[0]!.id.slice(0, 8).toUpperCase(),
      purchaser_email: 'zoe.0@example.com',
      order_status: expect.stringMatching(/^(paid|delivered)$/),
      total: 4.5,
      refunded_amount: 0,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      items: [
        {
          id: expect.any(Number),
          name: 'Balloon Birthday',
          price: 4.5,
          quantity: 1,
          item_url_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          delivered_at: expect.toBeOneOf([null, expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)]),
          opened_at: null,
          reminded_at: null,
          refunded_at: null,
        },
      ],
    });
    expect((await (await app.request('/api/admin/orders', { token: admin })).json()).length).toBe(12);
  });

  it('finds an order by the short number shoppers see, in either case, over REST and GraphQL', async () => {
    const number = placed[3]!.id.slice(0, 8).toUpperCase();
    const rest = await (await app.request(`/api/admin/orders?search=${number}`, { token: admin })).json();
    expect(rest.map((o: { number: string }) => o.number)).toEqual([number]);
    const { body } = await app.graphql('query($s: String) { orders(search: $s) { edges { node { id number } } } }', { s: number.toLowerCase() }, admin);
    expect(body.data.orders.edges).toEqual([{ node: { id: placed[3]!.id, number } }]);
  });

  it('is 401 without a token and 403 for a customer', async () => {
    expect((await app.request('/api/admin/orders')).status).toBe(401);
    expect((await app.request('/api/admin/orders', { token: customer })).status).toBe(403);
  });
});

describe('resending a card', () => {
  const RESEND = `mutation($itemId: Int!) { resendCardEmail(itemId: $itemId) { id } }`;
  it('queues the card e-mail again for its recipient', async () => {
    await app.services.deliveries.runDue();
    const [item] = await app.sql<{ id: number; item_url_uuid: string }>('select id, item_url_uuid from order_item where order_id = $1', [placed[0]!.id]);
    const cardMails = () => [...outbox(app).entries()].filter(([name, eml]) => name.startsWith('card') && eml.includes(item!.item_url_uuid));
    expect(cardMails()).toHaveLength(1);
    expect((await app.graphql(RESEND, { itemId: item!.id }, admin)).body.data.resendCardEmail.id).toBe(item!.id);
    await app.services.deliveries.runDue();
    expect(cardMails()).toHaveLength(2);
  });

  it('refuses items that are not cards, unknown items and non-admins', async () => {
    const [album] = await app.sql<{ id: number }>('select id from order_item where item_url_uuid is null limit 1');
    expect((await app.graphql(RESEND, { itemId: album!.id }, admin)).body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'itemId' });
    expect((await app.graphql(RESEND, { itemId: 999999 }, admin)).body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect((await app.graphql(RESEND, { itemId: album!.id }, customer)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});
