import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/test-app.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { fewestQueries } from '../helpers/queries.js';

/**
 * Account settings (contract section 11): the account as its page shows it, the "opened" notices,
 * "Download my data" and "Delete my account", over REST and GraphQL.
 */

let app: TestApp;
let shop: Shop;
const PASSWORD = 'customer-pass-1';

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' });
  shop = await seedShop(app, await app.login());
});
afterAll(async () => {
  await app?.stop();
});

/** A new customer (registered over REST) with a token. */
async function shopper(name: string): Promise<{ token: string; id: number; email: string }> {
  const res = await app.request('/api/register', { method: 'POST', json: { username: name, email: `${name}@example.com`, password: PASSWORD } });
  expect(res.status).toBe(201);
  const { user } = await res.json();
  return { token: await app.login(name, PASSWORD), id: user.id, email: user.email };
}

const MY_ACCOUNT = `query { myAccount { id username email emailConfirmed emailConfirmedAt pendingEmail notifyOpened createdAt } }`;

describe('the account as Account settings shows it', () => {
  it('answers the caller’s own account over REST and GraphQL, and only to a signed-in caller', async () => {
    const ada = await shopper('adasettings');
    const rest = await app.request('/api/account', { token: ada.token });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ id: ada.id, username: 'adasettings', email: 'adasettings@example.com', email_confirmed: false, email_confirmed_at: null, pending_email: null, notify_opened: true });
    const gql = await app.graphql(MY_ACCOUNT, {}, ada.token);
    expect(gql.body.data.myAccount).toMatchObject({ id: ada.id, email: 'adasettings@example.com', emailConfirmed: false, pendingEmail: null, notifyOpened: true });

    expect((await app.request('/api/account')).status).toBe(401);
    expect((await app.graphql(MY_ACCOUNT)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('turns the "opened" notices off and on (REST and GraphQL)', async () => {
    const bea = await shopper('beasettings');
    const off = await app.request('/api/account', { method: 'PUT', token: bea.token, json: { notify_opened: false } });
    expect(await off.json()).toMatchObject({ notify_opened: false });
    expect((await app.sql('select notify_opened from app_user where id = $1', [bea.id]))[0]).toEqual({ notify_opened: false });
    const on = await app.graphql(`mutation { updateAccountSettings(input: { notifyOpened: true }) { notifyOpened } }`, {}, bea.token);
    expect(on.body.data.updateAccountSettings.notifyOpened).toBe(true);
    // A key left out keeps the setting.
    const kept = await app.graphql(`mutation { updateAccountSettings(input: {}) { notifyOpened } }`, {}, bea.token);
    expect(kept.body.data.updateAccountSettings.notifyOpened).toBe(true);
  });
});

describe('Download my data', () => {
  it('is one JSON file of the account, its orders with their cards and replies, and its contacts; nobody else’s', async () => {
    const cy = await shopper('cysettings');
    const other = await shopper('otherexport');
    const placed = await placeOrder(app, orderInput(shop, { purchaserEmail: cy.email }), cy.token);
    expect(placed.body.errors).toBeUndefined();
    const order = placed.body.data.placeOrder;
    await placeOrder(app, orderInput(shop, { purchaserEmail: other.email, lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Not Cy', message: 'Secret of someone else' }) }] }), other.token);
    // A thank-you on Cy's card (written as the e-card page writes it, once delivered).
    const card = order.items.find((i: { itemUrlUuid: string | null }) => i.itemUrlUuid);
    await app.sql(`update order_item set delivered_at = now() where id = $1`, [card.id]);
    expect((await app.request(`/api/ecards/${card.itemUrlUuid}/replies`, { method: 'POST', json: { name: 'Grace', message: 'Thank you, Cy!' } })).status).toBe(201);

    const res = await app.request('/api/account/export', { token: cy.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="art-and-song-cards-cysettings-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const data = await res.json();
    expect(data.account).toMatchObject({ id: cy.id, username: 'cysettings', email: 'cysettings@example.com', role: 'customer', notify_opened: true });
    expect(data.contacts).toEqual([]);
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({ id: order.id, status: expect.stringMatching(/^(paid|delivered)$/), purchaser_email: cy.email, total: order.total });
    const exported = data.orders[0].items.find((i: { card?: unknown }) => i.card);
    expect(exported.card).toMatchObject({
      url: `https://cards.example/ecards/${card.itemUrlUuid}.html`,
      recipient_name: 'Grace Hopper',
      recipient_email: 'grace@example.com',
      sender_name: 'Ada',
      message: 'Happy birthday, Grace!\nWith love.',
      replies: [{ name: 'Grace', message: 'Thank you, Cy!', created_at: expect.any(String) }],
    });
    expect(JSON.stringify(data)).not.toContain('Secret of someone else');
    expect(JSON.stringify(data)).not.toContain('password');

    // GraphQL answers the same document.
    const gql = await app.graphql(`query { myAccountExport }`, {}, cy.token);
    expect(JSON.parse(gql.body.data.myAccountExport).orders[0].id).toBe(order.id);
    expect((await app.request('/api/account/export')).status).toBe(401);
  });

  it('carries the address book, each contact with its occasions; deleting the account removes the book', async () => {
    const dee = await shopper('deebook');
    const create = `mutation($input: ContactInput!) { createContact(input: $input) { id } }`;
    for (const input of [
      { name: 'Grace Hopper', email: 'grace@example.com', occasions: [{ label: 'Birthday', month: 12, day: 9, year: 1906, remindDaysBefore: 3 }] },
      { name: 'Alan Turing', email: 'alan@example.com', occasions: [] },
    ]) expect((await app.graphql(create, { input }, dee.token)).body.errors).toBeUndefined();
    const data = await (await app.request('/api/account/export', { token: dee.token })).json();
    expect(data.contacts).toEqual([
      { name: 'Alan Turing', email: 'alan@example.com', created_at: expect.any(String), occasions: [] },
      { name: 'Grace Hopper', email: 'grace@example.com', created_at: expect.any(String), occasions: [{ label: 'Birthday', month: 12, day: 9, year: 1906, remind: true, remind_days_before: 3, next_reminder_at: expect.any(String) }] },
    ]);
    expect((await app.request('/api/account', { method: 'DELETE', token: dee.token, json: { password: PASSWORD } })).status).toBe(204);
    expect(await app.sql('select id from contact where user_id = $1', [dee.id])).toEqual([]);
  });

  it('reads any number of orders in the same few queries', async () => {
    const count = async (orders: number) => {
      const who = await shopper(`export${orders}x`);
      for (let i = 0; i < orders; i++) await placeOrder(app, orderInput(shop, { purchaserEmail: who.email }), who.token);
      // The queue's own work (receipts, cards) is done first: only the export's queries are counted.
      await expect.poll(async () => (await app.sql(`select id from mail_job where status in ('queued', 'sending') and due_at <= now()`)).length, { timeout: 30_000 }).toBe(0);
      const read = async () => {
        const res = await app.request('/api/account/export', { token: who.token });
        expect((await res.json()).orders).toHaveLength(orders);
      };
      // Read once first, so that both counts find the same reads cached (the shop keeps some for a moment).
      await read();
      return fewestQueries(app, read, (queries) => queries.filter((q) => /^\s*select/i.test(q)).length);
    };
    const one = await count(1);
    expect(await count(6)).toBe(one);
    expect(one).toBeLessThanOrEqual(8);
  });
});

describe('Delete my account', () => {
  it('needs the password; then the account goes, its tokens are refused, its orders stay without name or address', async () => {
    const eve = await shopper('evedelete');
    const bystander = await shopper('bystander');
    const mine = (await placeOrder(app, orderInput(shop, { purchaserEmail: eve.email }), eve.token)).body.data.placeOrder;
    const theirs = (await placeOrder(app, orderInput(shop, { purchaserEmail: bystander.email }), bystander.token)).body.data.placeOrder;
    // A guest order with Eve's address that never joined her account (not confirmed) is not hers to erase.
    const guest = (await placeOrder(app, orderInput(shop, { purchaserEmail: eve.email }))).body.data.placeOrder;

    const wrong = await app.request('/api/account', { method: 'DELETE', token: eve.token, json: { password: 'not-the-password' } });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });
    expect(await app.sql('select id from app_user where id = $1', [eve.id])).toHaveLength(1);

    const second = await app.login('evedelete', PASSWORD);
    const res = await app.request('/api/account', { method: 'DELETE', token: eve.token, json: { password: PASSWORD } });
    expect(res.status).toBe(204);
    expect(await app.sql('select id from app_user where id = $1', [eve.id])).toEqual([]);
    // Every token of the account is refused, the one that deleted it and any other.
    for (const token of [eve.token, second]) {
      expect((await app.request('/api/me', { token })).status).toBe(401);
      expect((await app.graphql(MY_ACCOUNT, {}, token)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'evedelete', password: PASSWORD } })).status).toBe(401);

    const [kept] = await app.sql<{ purchaser_email: string; user_id: number | null; status: string; total: string }>('select purchaser_email, user_id, status, total::text from "order" where id = $1', [mine.id]);
    expect(kept).toEqual({ purchaser_email: '', user_id: null, status: expect.stringMatching(/^(paid|delivered)$/), total: mine.total });
    expect(await app.sql('select sender_name, recipient_name, message from order_item where order_id = $1 and item_url_uuid is not null', [mine.id])).toEqual([
      { sender_name: null, recipient_name: 'Grace Hopper', message: 'Happy birthday, Grace!\nWith love.' },
    ]);
    // Nobody else's data changed.
    expect(await app.sql('select purchaser_email, user_id from "order" where id = $1', [theirs.id])).toEqual([{ purchaser_email: bystander.email, user_id: bystander.id }]);
    expect(await app.sql('select sender_name from order_item where order_id = $1 and item_url_uuid is not null', [theirs.id])).toEqual([{ sender_name: 'Ada' }]);
    expect(await app.sql('select purchaser_email from "order" where id = $1', [guest.id])).toEqual([{ purchaser_email: eve.email }]);
    expect((await app.request('/api/me', { token: bystander.token })).status).toBe(200);
    // The admin still finds the order, without the purchaser.
    const admin = await app.login();
    const listed = await (await app.request(`/api/admin/orders?search=${mine.id}`, { token: admin })).json();
    expect(listed).toEqual([expect.objectContaining({ id: mine.id, purchaser_email: '' })]);
  });

  it('over GraphQL too; a staff or admin account is removed by an admin, not here', async () => {
    const fay = await shopper('faydelete');
    const bad = await app.graphql(`mutation { deleteAccount(input: { password: "nope-nope" }) }`, {}, fay.token);
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });
    const ok = await app.graphql(`mutation($p: String!) { deleteAccount(input: { password: $p }) }`, { p: PASSWORD }, fay.token);
    expect(ok.body).toEqual({ data: { deleteAccount: true } });
    expect((await app.request('/api/me', { token: fay.token })).status).toBe(401);

    const admin = await app.login();
    const refused = await app.request('/api/account', { method: 'DELETE', token: admin, json: { password: ADMIN.password } });
    expect(refused.status).toBe(409);
    expect(await app.sql(`select id from app_user where username = 'admin'`)).toHaveLength(1);
    expect((await app.request('/api/account', { method: 'DELETE', json: { password: PASSWORD } })).status).toBe(401);
  });
});
