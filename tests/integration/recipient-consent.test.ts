import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';

/**
 * Recipients can say no (contract section 11): the unsubscribe link (page, API, RFC 8058 one-click
 * POST), idempotent; tokens that the shop did not write are refused; checkout refuses an address that
 * said no, naming it.
 */

let app: TestApp;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' });
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
