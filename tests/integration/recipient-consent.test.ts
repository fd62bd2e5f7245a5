import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { mailHeader, waitForMail } from '../helpers/account-mail.js';

/**
 * Recipients can say no (contract section 11): the unsubscribe link (page, API, RFC 8058 one-click
 * POST), idempotent; tokens that the shop did not write are refused; checkout refuses an address that
 * said no, naming it.
 */

let app: TestApp;
let shop: Shop;

beforeAll(async () => {
  // A reminder a couple of seconds after a card goes out, so that one is sent while the test runs.
  app = await startTestApp({ publicUrl: 'https://cards.example', reminderAfterHours: 0.0005 });
  shop = await seedShop(app, await app.login());
});
afterAll(async () => {
  await app?.stop();
});

/** The unsubscribe link the shop writes into e-mails to `email`. */
async function linkFor(email: string): Promise<{ url: string; token: string; path: string }> {
  const url = await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), email);
  const parsed = new URL(url);
  return { url, token: parsed.searchParams.get('token')!, path: parsed.pathname + parsed.search };
}

const hashes = () => app.sql<{ address_hash: string }>('select address_hash from unsubscribed_address');

describe('unsubscribe links', () => {
  it('name the address to the shop alone: https from PUBLIC_URL, no address in them', async () => {
    const { url, token } = await linkFor('Hal@Example.com');
    expect(url).toMatch(/^https:\/\/cards\.example\/unsubscribe\?token=[A-Za-z0-9_-]{50,}$/);
    expect(url.toLowerCase()).not.toContain('hal');
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('hal@example.com');
    const described = await app.request(`/api/unsubscribe?token=${token}`);
    expect(await described.json()).toEqual({ masked_email: 'h•••@example.com', unsubscribed: false });
    const gql = await app.graphql(`query($t: String!) { unsubscribeLink(token: $t) { maskedEmail unsubscribed } }`, { t: token });
    expect(gql.body.data.unsubscribeLink).toEqual({ maskedEmail: 'h•••@example.com', unsubscribed: false });
  });

  it('one-click POST to the link itself unsubscribes at once (200), and again changes nothing', async () => {
    const { path } = await linkFor('ivy@example.com');
    const before = (await hashes()).length;
    const first = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('i•••@example.com');
    expect(await hashes()).toHaveLength(before + 1);
    const again = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(again.status).toBe(200);
    expect(await hashes()).toHaveLength(before + 1);
    // Only a digest of the address is kept.
    expect(JSON.stringify(await hashes())).not.toContain('ivy');
    // A new link to the same address (another e-mail) knows it already said no.
    const other = await linkFor('IVY@example.com');
    expect(await (await app.request(`/api/unsubscribe?token=${other.token}`)).json()).toEqual({ masked_email: 'i•••@example.com', unsubscribed: true });
  });

  it('the page’s button (GraphQL) and the REST call unsubscribe idempotently too', async () => {
    const jay = await linkFor('jay@example.com');
    const gql = await app.graphql(`mutation($t: String!) { unsubscribe(token: $t) { maskedEmail unsubscribed } }`, { t: jay.token });
    expect(gql.body.data.unsubscribe).toEqual({ maskedEmail: 'j•••@example.com', unsubscribed: true });
    const twice = await app.graphql(`mutation($t: String!) { unsubscribe(token: $t) { unsubscribed } }`, { t: jay.token });
    expect(twice.body.data.unsubscribe.unsubscribed).toBe(true);
    const kim = await linkFor('kim@example.com');
    const rest = await app.request('/api/unsubscribe', { method: 'POST', json: { token: kim.token } });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toEqual({ message: 'You are unsubscribed.', masked_email: 'k•••@example.com', unsubscribed: true });
  });

  it('refuses unknown, tampered and malformed tokens (400 TOKEN_INVALID), nothing changed', async () => {
    const { token } = await linkFor('lea@example.com');
    const bytes = Buffer.from(token, 'base64url');
    bytes[20] = bytes[20]! ^ 0x01;
    const tampered = bytes.toString('base64url');
    const before = (await hashes()).length;
    for (const bad of [tampered, token.slice(0, -2), 'not-a-token', 'x'.repeat(500), '%00', '']) {
      const post = await app.request(`/unsubscribe?token=${encodeURIComponent(bad)}`, { method: 'POST' });
      expect(post.status).toBe(400);
      expect(await post.json()).toMatchObject({ code: 'TOKEN_INVALID' });
      const api = await app.request('/api/unsubscribe', { method: 'POST', json: { token: bad } });
      expect([400]).toContain(api.status);
      const gql = await app.graphql(`mutation($t: String!) { unsubscribe(token: $t) { unsubscribed } }`, { t: bad });
      expect(gql.body.errors![0]!.extensions!.code).toMatch(/TOKEN_INVALID|BAD_USER_INPUT/);
    }
    expect(await hashes()).toHaveLength(before);
  });

  it('the page itself is the web client’s (a GET is never an unsubscribe)', async () => {
    const { path } = await linkFor('max@example.com');
    const page = await app.request(path, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await (await app.request(`/api/unsubscribe?token=${new URL(`https://x${path}`).searchParams.get('token')}`)).json()).toMatchObject({ unsubscribed: false });
  });
});

describe('checkout for an address that said no', () => {
  it('answers 400 RECIPIENT_UNSUBSCRIBED "{email} does not accept cards from this shop.", charging nothing', async () => {
    const { token } = await linkFor('nora@example.com');
    await app.request('/api/unsubscribe', { method: 'POST', json: { token } });
    const orders = async () => Number((await app.sql<{ n: string }>('select count(*)::text as n from "order"'))[0]!.n);
    const before = await orders();
    const refused = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: ' Nora@Example.com ' }) }] }));
    expect(refused.body.errors![0]!.message).toBe('nora@example.com does not accept cards from this shop.');
    expect(refused.body.errors![0]!.extensions).toMatchObject({ code: 'RECIPIENT_UNSUBSCRIBED', field: 'lines.0.personalisation.recipientEmail' });
    expect(await orders()).toBe(before);

    // Two recipients who said no in one cart: each is named.
    const { token: other } = await linkFor('olga@example.com');
    await app.request('/api/unsubscribe', { method: 'POST', json: { token: other } });
    const both = await placeOrder(app, orderInput(shop, {
      lines: [
        { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'grace@example.com' }) },
        { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'nora@example.com' }) },
        { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'olga@example.com' }) },
      ],
    }));
    expect(both.body.errors![0]!.message).toBe('nora@example.com does not accept cards from this shop. olga@example.com does not accept cards from this shop.');
    expect(both.body.errors![0]!.extensions!.field).toBe('lines.1.personalisation.recipientEmail');

    // Anyone else still gets cards.
    const fine = await placeOrder(app, orderInput(shop));
    expect(fine.body.errors).toBeUndefined();
  });

  it('is one query for any number of addresses, for the features that write to many recipients', async () => {
    const em = app.orm.em.fork();
    const refused = await app.services.recipients.unsubscribedAmong(em, ['grace@example.com', 'NORA@example.com', 'olga@example.com', 'nobody@example.com']);
    expect([...refused].sort()).toEqual(['NORA@example.com', 'olga@example.com']);
  });
});

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describe('e-mails to recipients', () => {
  it('carry List-Unsubscribe (https) and List-Unsubscribe-Post; one click on it stops the cards still queued', async () => {
    const customer = await app.customer('pia');
    const placed = await placeOrder(app, orderInput(shop, {
      purchaserEmail: 'pia@example.com',
      lines: [
        { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Quinn', recipientEmail: 'quinn@example.com' }) },
        { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Quinn', recipientEmail: 'quinn@example.com', deliveryDate: tomorrow(), timeZone: 'UTC' }) },
      ],
    }), customer);
    expect(placed.body.errors).toBeUndefined();
    const order = placed.body.data.placeOrder;
    const [now, later] = order.items as { id: number }[];

    // The card sent now: its headers and its visible link, https from PUBLIC_URL.
    const card = await waitForMail(app, 'quinn@example.com', 'Ada sent you a card: Balloon Birthday');
    const header = mailHeader(card, 'List-Unsubscribe')!;
    expect(header).toMatch(/^<https:\/\/cards\.example\/unsubscribe\?token=[A-Za-z0-9_-]+>$/);
    expect(mailHeader(card, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(card).toContain('You receive this e-mail because Ada sent you a card through Art & Song Cards.');
    expect(card).toContain(header.slice(1, -1));
    // The purchaser's receipt is no e-mail to a recipient: it says why it came, and has no unsubscribe header.
    const receipt = await waitForMail(app, 'pia@example.com', `Your Art & Song Cards order ${order.id.slice(0, 8).toUpperCase()}`);
    expect(mailHeader(receipt, 'List-Unsubscribe')).toBeUndefined();
    expect(receipt).toContain('You receive this e-mail because you placed this order at Art & Song Cards with this address.');

    // The reminder of the unopened card goes out with the same headers.
    const reminder = await waitForMail(app, 'quinn@example.com', 'Your card from Ada is waiting: Balloon Birthday');
    expect(mailHeader(reminder, 'List-Unsubscribe')).toMatch(/^<https:\/\/cards\.example\/unsubscribe\?token=/);
    expect(mailHeader(reminder, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // Quinn's mail program posts the one-click unsubscribe to the header's address.
    const url = new URL(header.slice(1, -1));
    const click = await app.request(url.pathname + url.search, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(click.status).toBe(200);

    // Tomorrow's card comes due: it is not sent, and says why, to the purchaser and to admins.
    await app.sql(`update mail_job set due_at = now() where ref = 'card:' || $1 and kind = 'card'`, [later!.id]);
    await app.services.deliveries.runDue();
    await expect.poll(async () => (await app.sql<{ status: string; last_error: string | null }>(`select status, last_error from mail_job where ref = 'card:' || $1 and kind = 'card'`, [later!.id]))[0], { timeout: 30_000 }).toEqual({ status: 'withheld', last_error: 'Not delivered: the recipient unsubscribed' });
    expect(await app.sql('select delivered_at from order_item where id = $1', [later!.id])).toEqual([{ delivered_at: null }]);
    const mine = await app.graphql(`{ myOrders { edges { node { id items { id deliveredAt notDeliveredReason } } } } }`, {}, customer);
    const items = mine.body.data.myOrders.edges[0].node.items;
    expect(items.find((i: { id: number }) => i.id === later!.id).notDeliveredReason).toBe('Not delivered: the recipient unsubscribed');
    expect(items.find((i: { id: number }) => i.id === now!.id).notDeliveredReason).toBeNull();
    const admin = await app.login();
    const details = await app.graphql(`query($id: ID!) { order(id: $id) { items { id notDeliveredReason } emails { kind status lastError } } }`, { id: order.id }, admin);
    expect(details.body.data.order.items.find((i: { id: number }) => i.id === later!.id).notDeliveredReason).toBe('Not delivered: the recipient unsubscribed');
    expect(details.body.data.order.emails).toContainEqual({ kind: 'CARD', status: 'WITHHELD', lastError: 'Not delivered: the recipient unsubscribed' });
    // Someone who sees only the confirmation page is not told.
    const anonymous = await app.graphql(`query($id: ID!) { order(id: $id) { items { notDeliveredReason } } }`, { id: order.id });
    expect(anonymous.body.data.order.items.every((i: { notDeliveredReason: string | null }) => i.notDeliveredReason === null)).toBe(true);

    // Sending the delivered card again is refused, naming the address.
    const resend = await app.graphql(`mutation($id: Int!) { resendMyCard(itemId: $id) { id } }`, { id: now!.id }, customer);
    expect(resend.body.errors![0]!.message).toBe('quinn@example.com does not accept cards from this shop.');
    expect(resend.body.errors![0]!.extensions!.code).toBe('RECIPIENT_UNSUBSCRIBED');
    const adminResend = await app.graphql(`mutation($id: Int!) { resendCardEmail(itemId: $id) { id } }`, { id: now!.id }, admin);
    expect(adminResend.body.errors![0]!.extensions!.code).toBe('RECIPIENT_UNSUBSCRIBED');
  });

  it('"opened" notices follow the account’s setting', async () => {
    const token = await app.customer('rhea');
    await app.request('/api/account', { method: 'PUT', token, json: { notify_opened: false } });
    const placed = await placeOrder(app, orderInput(shop, { purchaserEmail: 'rhea@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'sam@example.com' }) }] }), token);
    const item = placed.body.data.placeOrder.items[0];
    await expect.poll(async () => (await app.sql<{ delivered_at: Date | null }>('select delivered_at from order_item where id = $1', [item.id]))[0]!.delivered_at, { timeout: 30_000 }).not.toBeNull();
    expect((await app.request(`/api/ecards/${item.itemUrlUuid}/opened`, { method: 'POST' })).status).toBe(204);
    expect(await app.sql(`select id from mail_job where kind = 'opened' and ref = 'card:' || $1`, [item.id])).toEqual([]);
    // Turned on again, the next opened card tells.
    await app.request('/api/account', { method: 'PUT', token, json: { notify_opened: true } });
    const again = (await placeOrder(app, orderInput(shop, { purchaserEmail: 'rhea@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Sam', recipientEmail: 'sam@example.com' }) }] }), token)).body.data.placeOrder.items[0];
    await expect.poll(async () => (await app.sql<{ delivered_at: Date | null }>('select delivered_at from order_item where id = $1', [again.id]))[0]!.delivered_at, { timeout: 30_000 }).not.toBeNull();
    expect((await app.request(`/api/ecards/${again.itemUrlUuid}/opened`, { method: 'POST' })).status).toBe(204);
    const notice = await waitForMail(app, 'rhea@example.com', 'Sam opened your card');
    expect(notice).toContain('You receive this e-mail because you asked to be told when your card is opened');
    expect(notice).toContain('https://cards.example/account/settings');
  });
});

describe('My orders with the reason a card was kept back', () => {
  it('reads any number of cards in the same number of queries', async () => {
    const { fewestQueries, selects } = await import('../helpers/queries.js');
    const { queueIdle } = await import('../helpers/account-mail.js');
    const count = async (orders: number) => {
      const token = await app.customer(`many${orders}`);
      for (let i = 0; i < orders; i++) await placeOrder(app, orderInput(shop, { purchaserEmail: `many${orders}@example.com` }), token);
      await queueIdle(app);
      const read = async () => {
        const res = await app.graphql(`{ myOrders(first: 20) { edges { node { items { id notDeliveredReason replies { id } } } } } }`, {}, token);
        expect(res.body.data.myOrders.edges).toHaveLength(orders);
      };
      // Read once first, so that both counts find the same reads cached (the shop keeps some for a moment).
      await read();
      return fewestQueries(app, read, (queries) => selects(queries).length);
    };
    expect(await count(4)).toBe(await count(1));
  });
});
