import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, waitForMail } from '../helpers/account-mail.js';
import { placeGroupCard } from '../helpers/group-card-fixtures.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { invite } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Secret links stay out of the log: the shop keeps only digests of its links' tokens, and an
 * e-card's address is enough to see the card, so no log line (the request log, the lines written
 * while a request runs, the read cache's lines, the background jobs') may hold a token or a card's
 * uuid, in a path or in a query. Each line names its route template instead.
 */

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

let app: TestApp;
let admin: string;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' }, {}, { log: pino({ level: 'trace' }, sink) });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const day = (days: number) => new Date(Date.now() + days * 86_400_000);
const html = { accept: 'text/html' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** The routes each line names (request lines carry `req.route`). */
const routesLogged = () => new Set(lines.map((line) => (line.req as { route?: string } | undefined)?.route).filter(Boolean));

describe('the log of requests that carry secret links', () => {
  it('holds none of the links’ tokens or card uuids, and names each request’s route template', async () => {
    const secrets: [kind: string, secret: string][] = [];
    const expectStatus = async (answer: Promise<Response>, status: number) => expect((await answer).status).toBe(status);
    // A page of the web client: its app shell (503 where the web client is not built).
    const visit = async (address: string) => expect([200, 503]).toContain((await app.request(address, { headers: html })).status);

    const customer = `logged${Date.now().toString(36)}`;
    await app.customer(customer);

    // E-mail confirmation: the page of the link, then the confirmation.
    const verify = linkIn(await waitForMail(app, `${customer}@example.com`, 'Confirm your e-mail address'), '/verify-email').searchParams.get('token')!;
    secrets.push(['verify-email token', verify]);
    await visit(`/verify-email?token=${verify}`);
    await expectStatus(app.request('/api/verify-email', { method: 'POST', json: { token: verify } }), 200);

    // Password reset (after the confirmation: a reset ends the account's other links): the page of the link, then the confirmation.
    expect((await app.request('/api/password-reset', { method: 'POST', json: { email: `${customer}@example.com` } })).status).toBe(202);
    const reset = linkIn(await waitForMail(app, `${customer}@example.com`, 'Reset your Art & Song Cards password'), '/reset-password').searchParams.get('token')!;
    secrets.push(['reset token', reset]);
    await visit(`/reset-password?token=${reset}`);
    await expectStatus(app.request('/api/password-reset/confirm', { method: 'POST', json: { token: reset, password: 'new-customer-pass-1' } }), 200);

    // A staff invitation: the page of the link, then the acceptance.
    const staff = await invite(app, admin, 'logged-staff@example.com');
    secrets.push(['staff invitation token', staff]);
    await visit(`/staff/accept?token=${staff}`);
    await expectStatus(app.request('/api/staff/accept', { method: 'POST', json: { token: staff, username: 'loggedstaff', password: 'staff-password-1' } }), 201);

    // A card: its page (drawn, then answered from the read cache), its opening beacon and a thank-you.
    const placed = await placeOrder(app, orderInput(shop, { purchaserEmail: 'log-buyer@example.com' }));
    const uuid: string = placed.body.data.placeOrder.items[0].itemUrlUuid;
    secrets.push(['e-card uuid', uuid]);
    await app.services.deliveries.runDue();
    await expect.poll(async () => (await app.sql('select delivered_at from order_item where item_url_uuid = $1', [uuid]))[0]?.delivered_at).not.toBeNull();
    await expectStatus(app.request(`/ecards/${uuid}.html`), 200);
    await expectStatus(app.request(`/ecards/${uuid}.html`), 200);
    await expectStatus(app.request(`/ecards/${uuid}.html?preview=1`), 200);
    await expectStatus(app.request(`/api/ecards/${uuid}/opened`, { method: 'POST' }), 204);
    await expectStatus(app.request(`/api/ecards/${uuid}/replies`, { method: 'POST', json: { name: 'Grace', message: 'Thank you!' } }), 201);

    // The recipient's unsubscribe link: its page, its API and the one-click POST.
    const unsubscribe = new URL(await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), 'log-recipient@example.com')).searchParams.get('token')!;
    secrets.push(['unsubscribe token', unsubscribe]);
    await visit(`/unsubscribe?token=${unsubscribe}`);
    await expectStatus(app.request(`/api/unsubscribe?token=${unsubscribe}`), 200);
    await expectStatus(app.request(`/unsubscribe?token=${encodeURIComponent(unsubscribe)}`, { method: 'POST', headers: form, body: 'List-Unsubscribe=One-Click' }), 200);

    // An occasion reminder's stop link: its page and its one-click POST.
    const shopper = await app.customer();
    const created = await app.graphql(`mutation($input: ContactInput!) { createContact(input: $input) { occasions { id } } }`, { input: { name: 'Grace Hopper', email: 'grace@example.com', occasions: [{ label: 'Birthday', month: 12, day: 9 }] } }, shopper);
    const stop = app.services.occasionReminders.stopToken(created.body.data.createContact.occasions[0].id);
    secrets.push(['reminder stop token', stop], ['reminder stop signature', stop.split('.').at(-1)!]);
    await visit(`/reminders/stop?token=${stop}`);
    await expectStatus(app.request(`/api/reminders/stop?token=${stop}`, { method: 'POST', headers: form, body: 'List-Unsubscribe=One-Click' }), 200);

    // A group card: the signing page, its API, a signature changed and removed, and the card's page.
    const group = await placeGroupCard(app, shop, { deliveryDate: day(10).toISOString().slice(0, 10), collectUntil: day(9).toISOString() });
    secrets.push(['signing token', group.token], ['group card uuid', group.uuid]);
    await expectStatus(app.request(`/sign/${group.token}`), 200);
    await expectStatus(app.request(`/api/sign/${group.token}`), 200);
    const signed = await app.request(`/api/sign/${group.token}/signatures`, { method: 'POST', json: { name: 'Linus', message: 'Happy birthday!' } });
    expect(signed.status).toBe(201);
    const { id, edit_token: edit } = await signed.json();
    secrets.push(['signature edit token', edit]);
    await expectStatus(app.request(`/api/sign/${group.token}/signatures/${id}`, { method: 'PUT', json: { name: 'Linus', message: 'Many happy returns!' }, headers: { 'x-edit-token': edit } }), 200);
    await expectStatus(app.request(`/api/sign/${group.token}/signatures/${id}`, { method: 'DELETE', headers: { 'x-edit-token': edit } }), 204);
    await expectStatus(app.request(`/ecards/${group.uuid}.html?preview=1`), 200);

    // Links that are not (or no longer) valid are logged the same way.
    await expectStatus(app.request(`/sign/${group.token}x`), 404);
    await expectStatus(app.request(`/api/sign/${group.token}x/signatures`, { method: 'POST', json: { name: 'Ann', message: 'Hi' } }), 404);
    await expectStatus(app.request('/api/password-reset/confirm', { method: 'POST', json: { token: reset, password: 'new-customer-pass-2' } }), 400);
    expect((await app.request(`/api/unsubscribe?token=${unsubscribe.slice(0, -4)}`)).status).toBe(400);
    await expectStatus(app.request(`/ecards/${uuid.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}.html`), 404);

    // The request log's line of a request is written when its answer has gone out: a last request
    // (the only 401 here) whose line is there follows every other line.
    await expectStatus(app.request('/api/me'), 401);
    await expect.poll(() => lines.some((line) => line.msg === 'request completed' && (line.res as { statusCode?: number } | undefined)?.statusCode === 401)).toBe(true);
    expect(lines.length).toBeGreaterThan(40);
    const text = lines.map((line) => JSON.stringify(line));
    const leaks = secrets.flatMap(([kind, secret]) =>
      [...new Set([secret, encodeURIComponent(secret), secret.toUpperCase()])].flatMap((form) => text.filter((line) => line.includes(form)).map((line) => `${kind} in ${line}`)),
    );
    expect(leaks).toEqual([]);
    expect([...routesLogged()]).toEqual(expect.arrayContaining([
      '/reset-password',
      '/api/password-reset/confirm',
      '/verify-email',
      '/api/verify-email',
      '/staff/accept',
      '/api/staff/accept',
      '/ecards/:file',
      '/api/ecards/:uuid/opened',
      '/api/ecards/:uuid/replies',
      '/unsubscribe',
      '/api/unsubscribe',
      '/reminders/stop',
      '/api/reminders/stop',
      '/sign/:token',
      '/api/sign/:token',
      '/api/sign/:token/signatures',
      '/api/sign/:token/signatures/:id',
    ]));
    // The lines still tell what happened: the request, its answer and the service's own lines.
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toEqual(expect.arrayContaining([
      expect.objectContaining({ req: expect.objectContaining({ method: 'DELETE', route: '/api/sign/:token/signatures/:id' }), res: { statusCode: 204 } }),
      expect.objectContaining({ req: expect.objectContaining({ method: 'GET', route: '/sign/:token' }), res: { statusCode: 404 } }),
    ]));
    expect(lines).toEqual(expect.arrayContaining([
      expect.objectContaining({ msg: 'request completed from the read cache', req: expect.objectContaining({ route: '/ecards/:file' }) }),
      expect.objectContaining({ msg: 'group card signed', req: expect.objectContaining({ route: '/api/sign/:token/signatures' }) }),
    ]));
  });
});
