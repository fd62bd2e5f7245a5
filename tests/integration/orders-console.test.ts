import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '../helpers/account-mail.js';
import { placeGroupCard } from '../helpers/group-card-fixtures.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Orders at scale in the console (contract section 16): the list's filters (status, dates, a failed
 * e-mail, group cards) over GraphQL and REST, internal notes (audited, staff only), and refunds with
 * a reason (kept, audited, exported) and "Tell the customer".
 */
let app: TestApp;
let shop: Shop;
let admin: string;
const placed: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' });
  admin = await app.login();
  shop = await seedShop(app, admin);
  for (const name of ['early', 'failing', 'refunded']) {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `${name}@example.com` }));
    placed[name] = body.data.placeOrder.id;
  }
  placed.group = (await placeGroupCard(app, shop, { deliveryDate: '2027-01-20', collectUntil: '2027-01-19T18:00:00Z', purchaserEmail: 'group@example.com' })).orderId;
  await app.sql(`update "order" set created_at = '2026-10-01T12:00:00Z' where id = $1`, [placed.early]);
  await app.sql(`update mail_job set status = 'failed', last_error = 'mailbox full' where subject = $1 and kind = 'receipt'`, [`order:${placed.failing}`]);
});
afterAll(async () => {
  await app?.stop();
});

const ORDERS = `query($status: OrderStatus, $from: String, $to: String, $failedEmail: Boolean, $group: Boolean) {
  orders(status: $status, from: $from, to: $to, failedEmail: $failedEmail, group: $group) { edges { node { purchaserEmail } } }
}`;
const emails = async (variables: Record<string, unknown>) => {
  const { body } = await app.graphql(ORDERS, variables, admin);
  expect(body.errors).toBeUndefined();
  return body.data.orders.edges.map((e: { node: { purchaserEmail: string } }) => e.node.purchaserEmail).sort();
};
const rest = async (query: string) => {
  const res = await app.request(`/api/admin/orders?${query}`, { token: admin });
  return { status: res.status, body: await res.json() };
};

describe('the orders list filters', () => {
  it('filters by dates, a failed e-mail and group cards, over GraphQL and REST', async () => {
    expect(await emails({ to: '2026-10-01' })).toEqual(['early@example.com']);
    expect(await emails({ from: '2026-10-02' })).toEqual(['failing@example.com', 'group@example.com', 'refunded@example.com']);
    expect(await emails({ from: '2026-10-01T11:00:00Z', to: '2026-10-01T13:00:00Z' })).toEqual(['early@example.com']);
    expect(await emails({ failedEmail: true })).toEqual(['failing@example.com']);
    expect(await emails({ group: true })).toEqual(['group@example.com']);
    expect((await rest('failed_email=1')).body.map((o: { purchaser_email: string }) => o.purchaser_email)).toEqual(['failing@example.com']);
    expect((await rest('group=1&status=paid')).body.map((o: { purchaser_email: string }) => o.purchaser_email)).toEqual(['group@example.com']);
  });

  it('answers 400 on a bad filter', async () => {
    for (const [query, field] of [['status=lost', 'status'], ['from=yesterday', 'from'], ['to=2026-13-45', 'to'], ['from=2026-12-02&to=2026-12-01', 'from'], ['group=maybe', 'group']]) {
      const { status, body } = await rest(query!);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
  });
});

describe('internal notes', () => {
  it('adds a note (201), audited, shown to staff in the order and to nobody else', async () => {
    const res = await app.request(`/api/admin/orders/${placed.early}/notes`, { method: 'POST', token: admin, json: { text: '  Customer called: wants the card on Friday.  ' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: expect.any(Number), text: 'Customer called: wants the card on Friday.', author: 'admin', created_at: expect.any(String) });
    const gql = await app.graphql(`mutation($id: ID!) { addOrderNote(orderId: $id, text: "Card moved to Friday.") { text author } }`, { id: placed.early }, admin);
    expect(gql.body.data.addOrderNote).toEqual({ text: 'Card moved to Friday.', author: 'admin' });
    const read = `query($id: ID!) { order(id: $id) { notes { text author } } }`;
    expect((await app.graphql(read, { id: placed.early }, admin)).body.data.order.notes).toEqual([
      { text: 'Customer called: wants the card on Friday.', author: 'admin' },
      { text: 'Card moved to Friday.', author: 'admin' },
    ]);
    // The confirmation page's reader (anyone with the number) sees none.
    expect((await app.graphql(read, { id: placed.early })).body.data.order.notes).toEqual([]);
    const [audit] = await app.sql<{ summary: string }>(`select summary from audit_entry where entity = 'order' and action = 'noted' order by id limit 1`);
    expect(audit!.summary).toBe(`Note on order ${placed.early!.slice(0, 8).toUpperCase()}: Customer called: wants the card on Friday.`);
  });

  it('refuses an empty or too long note (400), an unknown order (404), a shopper (403)', async () => {
    const note = (json: unknown, token = admin, id = placed.early) => app.request(`/api/admin/orders/${id}/notes`, { method: 'POST', token, json });
    expect((await note({ text: '   ' })).status).toBe(400);
    expect((await note({ text: 'x'.repeat(2001) })).status).toBe(400);
    expect((await note({ text: 'x'.repeat(2000) })).status).toBe(201);
    expect((await note({ text: 'Hi' }, admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await note({ text: 'Hi' }, await app.customer())).status).toBe(403);
    expect((await app.request(`/api/admin/orders/${placed.early}/notes`, { method: 'POST', json: { text: 'Hi' } })).status).toBe(401);
  });
});

describe('the timeline', () => {
  it('tells what happened, oldest first: placed, e-mails, a card opened, a thank-you, a refund with its reason, a note', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'timeline@example.com' }));
    const id = body.data.placeOrder.id as string;
    await app.services.deliveries.runDue();
    const [card] = await app.sql<{ id: number; item_url_uuid: string }>(`select id, item_url_uuid from order_item where order_id = $1 and item_url_uuid is not null`, [id]);
    expect((await app.request(`/api/ecards/${card!.item_url_uuid}/opened`, { method: 'POST' })).status).toBe(204);
    expect((await app.request(`/api/ecards/${card!.item_url_uuid}/replies`, { method: 'POST', json: { name: 'Grace', message: 'Thank you!' } })).status).toBe(201);
    expect((await app.request(`/api/admin/orders/${id}/refund`, { method: 'POST', token: admin, json: { item_ids: [card!.id], reason: 'Wrong card' } })).status).toBe(200);
    expect((await app.request(`/api/admin/orders/${id}/notes`, { method: 'POST', token: admin, json: { text: 'Offered another card.' } })).status).toBe(201);
    const read = `query($id: ID!) { order(id: $id) { timeline { kind text } } }`;
    const timeline = (await app.graphql(read, { id }, admin)).body.data.order.timeline as { kind: string; text: string }[];
    // The notices to the purchaser ("opened", the thank-you) go out while this runs: their e-mails may or may not be in yet.
    expect(timeline.filter((e) => e.kind !== 'email').map((e) => e.kind)).toEqual(['placed', 'opened', 'thank-you', 'refunded', 'refunded', 'note']);
    expect(timeline[0]!.text).toBe('Placed by timeline@example.com for $28.50');
    expect(timeline.map((e) => e.text)).toEqual(expect.arrayContaining(['Receipt sent', 'Card e-mail sent', 'Grace Hopper opened Balloon Birthday', 'Grace wrote back about Balloon Birthday: “Thank you!”', 'Refunded Balloon Birthday to Grace Hopper', 'Reason: Wrong card', 'admin: Offered another card.']));
    // Shoppers (anyone with the number) see none of it.
    expect((await app.graphql(read, { id })).body.data.order.timeline).toEqual([]);
  });
});

describe('refunds with a reason', () => {
  it('keeps the reason (Order Details, the audit log, the export) and tells the customer when asked, without the reason', async () => {
    const res = await app.request(`/api/admin/orders/${placed.refunded}/refund`, { method: 'POST', token: admin, json: { reason: 'Sent to the wrong address', notify: true } });
    expect(res.status).toBe(200);
    const { body } = await app.graphql(`query($id: ID!) { order(id: $id) { status refundReason } }`, { id: placed.refunded }, admin);
    expect(body.data.order).toEqual({ status: 'REFUNDED', refundReason: 'Sent to the wrong address' });
    expect((await app.graphql(`query($id: ID!) { order(id: $id) { refundReason } }`, { id: placed.refunded })).body.data.order.refundReason).toBeNull();
    const [audit] = await app.sql<{ summary: string }>(`select summary from audit_entry where entity = 'order' and action = 'refunded' and entity_id = $1`, [placed.refunded]);
    expect(audit!.summary).toMatch(/\. Reason: Sent to the wrong address\. The customer was told\.$/);
    const csv = await (await app.request('/api/admin/orders.csv?search=refunded%40example.com', { token: admin })).text();
    expect(csv.split('\r\n')[1]).toMatch(/,Sent to the wrong address$/);
    const mail = await waitForMail(app, 'refunded@example.com', `Your refund for order ${placed.refunded!.slice(0, 8).toUpperCase()}`);
    expect(mail).toContain('We refunded $28.50 to the card you paid with');
    expect(mail).not.toContain('wrong address');
  });

  it('sends nothing without "Tell the customer", and refuses a reason that is too long', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'quiet@example.com' }));
    const id = body.data.placeOrder.id;
    const long = await app.request(`/api/admin/orders/${id}/refund`, { method: 'POST', token: admin, json: { reason: 'x'.repeat(501) } });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ field: 'reason' });
    expect((await app.request(`/api/admin/orders/${id}/refund`, { method: 'POST', token: admin, json: {} })).status).toBe(200);
    expect(await app.sql(`select id from mail_job where kind = 'refund-notice' and recipient = 'quiet@example.com'`)).toEqual([]);
  });
});

describe('the count of a long list', () => {
  it('counts orders up to 10,000: more is 10,001 ("more than 10,000"), a filter below that is exact', async () => {
    const count = async (variables: Record<string, unknown>) => (await app.graphql(`query($status: OrderStatus) { orders(first: 5, status: $status) { totalCount edges { node { id } } } }`, variables, admin)).body.data.orders;
    const before = await count({});
    expect(before.totalCount).toBeLessThan(100);
    await app.sql(`insert into "order" (id, purchaser_email, status, total, payment_provider, payment_reference, card_last4, idempotency_key, request_hash, item_names, created_at)
      select gen_random_uuid(), 'many' || n || '@example.com', 'cancelled', 4.99, 'test', 'many_' || n, '4242', 'many-' || n, 'many', '', now() - make_interval(days => 400, mins => n) from generate_series(1, 10000) as n`);
    const all = await count({});
    expect(all.totalCount).toBe(10_001);
    expect(all.edges).toHaveLength(5);
    expect((await count({ status: 'DELIVERED' })).totalCount).toBe((await app.sql<{ n: string }>(`select count(*) as n from "order" where status = 'delivered'`)).map((r) => Number(r.n))[0]);
  });
});
