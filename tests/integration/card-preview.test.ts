import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailHeader, waitForMail } from '../helpers/account-mail.js';
import { manualClock, personalisation, placeOrder, seedShop, orderInput, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Preview before paying (contract section 15): `POST /api/ecards/preview` draws the e-card page as
 * its recipient will see it from a product and a personalisation, checked as placeOrder checks it,
 * recording nothing; `POST /api/ecards/preview/send` mails the card's e-mail to the signed-in
 * shopper, its link opening the preview for a week, five an hour.
 */
let app: TestApp;
let shop: Shop;
let shopper: string;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' }, { clock: clock.now });
  shop = await seedShop(app, await app.login());
  shopper = await app.customer('preview_ada');
});
afterAll(async () => {
  await app?.stop();
});

const preview = (json: unknown, token?: string) => app.request('/api/ecards/preview', { method: 'POST', json, token });
const sendTest = (json: unknown, token?: string) => app.request('/api/ecards/preview/send', { method: 'POST', json, token });

/** The rows a preview must not write: orders, their items, e-mails, group cards. */
const counts = async () => (await app.sql<{ n: string }>(`select (select count(*) from "order") + (select count(*) from order_item) + (select count(*) from mail_job) + (select count(*) from group_card) as n`))[0]!.n;

describe('POST /api/ecards/preview', () => {
  it('draws the card as its first recipient will see it, with a Preview ribbon, and records nothing', async () => {
    const before = await counts();
    const res = await preview({
      product_id: shop.cardId,
      personalisation: { senderName: 'Ada', message: 'Dear {firstName},\nmany happy returns!', recipients: [{ name: 'Grace Hopper', email: 'grace@example.com' }, { name: 'Linus Pauling', email: 'linus@example.com' }] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const page = await res.text();
    expect(page).toContain('<h1>Ada sent you a card, Grace Hopper</h1>');
    // The message in its place and font, `{firstName}` filled for the first recipient.
    expect(page).toContain('<div class="message placement-top-left"><p>Dear Grace,\nmany happy returns!</p></div>');
    expect(page).toContain('family=Dancing+Script');
    for (const file of [shop.files.cover, shop.files.greeting, shop.files.back, shop.files.extra, ...shop.files.songs]) expect(page).toContain(`/api/${file}`);
    expect(page).toMatch(/<p class="preview-ribbon"[^>]*>Preview<\/p>/);
    // Neither an opening reported nor a thank-you taken.
    expect(page).not.toContain('data-opened');
    expect(page).not.toContain('thanks-form');
    expect(await counts()).toBe(before);
  });

  it('refuses a personalisation with the message and field placeOrder gives it, and an album, an unknown product or none', async () => {
    const bad = personalisation({ recipientEmail: 'not-an-address' });
    const res = await preview({ product_id: shop.cardId, personalisation: bad });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string; field: string };
    const order = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: bad }] }));
    const placed = order.body.errors![0]!;
    expect(body).toMatchObject({ code: 'BAD_USER_INPUT', field: 'personalisation.recipientEmail' });
    expect(placed.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lines.0.personalisation.recipientEmail' });
    expect(body.message).toBe(placed.message);

    const past = await preview({ product_id: shop.cardId, personalisation: personalisation({ deliveryDate: '2026-11-01' }) });
    expect(past.status).toBe(400);
    expect((await past.json()).field).toMatch(/^personalisation\./);

    const album = await preview({ product_id: shop.albumId, personalisation: personalisation() });
    expect(album.status).toBe(400);
    expect(await album.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'product_id', message: '"Summer Songs Album" is not a card: there is nothing to preview.' });

    expect((await preview({ product_id: 987654, personalisation: personalisation() })).status).toBe(404);
    const none = await preview({ personalisation: personalisation() });
    expect(none.status).toBe(400);
    expect((await none.json()).field).toBe('product_id');
  });

  it('refuses an address that said no to the shop, as checkout does', async () => {
    const url = await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), 'no-cards@example.com');
    const token = new URL(url).searchParams.get('token')!;
    expect((await app.request('/api/unsubscribe', { method: 'POST', json: { token } })).status).toBe(200);
    const res = await preview({ product_id: shop.cardId, personalisation: personalisation({ recipientEmail: 'no-cards@example.com' }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'personalisation.recipientEmail' });
  });

  it('is the storefront: while the shop is under construction only an admin previews', async () => {
    const admin = await app.login();
    const set = (on: boolean) => app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: on } });
    expect((await set(true)).status).toBe(200);
    try {
      expect((await preview({ product_id: shop.cardId, personalisation: personalisation() })).status).toBe(503);
      expect((await preview({ product_id: shop.cardId, personalisation: personalisation() }, admin)).status).toBe(200);
    } finally {
      expect((await set(false)).status).toBe(200);
    }
  });
});

describe('POST /api/ecards/preview/send', () => {
  const card = { product_id: 0, personalisation: personalisation({ recipientName: 'Grace Hopper', message: 'Happy birthday, {name}!' }) };

  it('needs a signed-in shopper', async () => {
    const res = await sendTest({ ...card, product_id: shop.cardId });
    expect(res.status).toBe(401);
  });

  it("mails the card's e-mail to the shopper, whose link opens the preview for a week; five an hour, then 429", async () => {
    const input = { ...card, product_id: shop.cardId };
    // A refused personalisation sends nothing and counts nothing.
    const refused = await sendTest({ ...input, personalisation: personalisation({ senderName: '' }) }, shopper);
    expect(refused.status).toBe(400);

    const res = await sendTest(input, shopper);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ to: 'preview_ada@example.com' });
    const mail = await waitForMail(app, 'preview_ada@example.com', 'Test: Ada sent you a card: Balloon Birthday');
    expect(mail).toContain('Dear Grace Hopper,');
    expect(mail).toContain('This is a test you sent yourself');
    expect(mailHeader(mail, 'List-Unsubscribe')).toBeUndefined();
    const link = /https:\/\/cards\.example(\/ecards\/preview\?card=[A-Za-z0-9_.-]+)/.exec(mail)![1]!;

    const opened = await app.request(link);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    const page = await opened.text();
    expect(page).toContain('<p>Happy birthday, Grace Hopper!</p>');
    expect(page).toContain('>Preview</p>');
    // The names and the message left the queue's row once the e-mail was out: the link alone keeps them.
    const [job] = await app.sql<{ payload: Record<string, unknown> }>(`select payload from mail_job where kind = 'card-test'`);
    expect(job!.payload).not.toHaveProperty('m');

    // A link changed by hand, or a week old, opens nothing.
    const tampered = link.replace(/card=(.)/, (_m, c: string) => `card=${c === 'A' ? 'B' : 'A'}`);
    expect((await app.request(tampered)).status).toBe(404);
    expect((await app.request('/ecards/preview?card=nonsense')).status).toBe(404);
    clock.set('2026-12-08T10:00:01Z');
    const expired = await app.request(link);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toContain('This preview has expired');
    clock.set('2026-12-01T10:00:00Z');

    for (let n = 2; n <= 5; n++) expect((await sendTest(input, shopper)).status).toBe(202);
    const sixth = await sendTest(input, shopper);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await sixth.json()).code).toBe('RATE_LIMITED');
    // Another shopper has five of their own.
    expect((await sendTest(input, await app.customer('preview_bob'))).status).toBe(202);
  });
});
