import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let shop: Shop;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  // Reminders half an hour after delivery; four thank-yous per address and hour.
  app = await startTestApp(
    { deliveryPollSeconds: 3600, publicUrl: 'https://cards.example', reminderAfterHours: 0.5, limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000, thankYouPerHour: 4 } },
    { clock: clock.now },
  );
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const cardLine = (overrides: Record<string, unknown> = {}) => ({ productId: shop.cardId, quantity: 1, personalisation: personalisation(overrides) });
const emailsTo = (address: string) => [...outbox(app).entries()].filter(([, eml]) => eml.includes(`To: ${address}`));
const emailsOf = (kind: string, address: string) => emailsTo(address).filter(([name]) => name.startsWith(`${kind}-`));
const openedAt = async (uuid: string) => (await app.sql<{ opened_at: Date | null }>('select opened_at from order_item where item_url_uuid = $1', [uuid]))[0]!.opened_at;

async function card(purchaserEmail: string, recipientEmail: string, extra: Record<string, unknown> = {}) {
  const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail, lines: [cardLine({ recipientEmail, recipientName: 'Grace' })], ...extra }));
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  const order = body.data.placeOrder;
  return { orderId: order.id as string, itemId: order.items[0].id as number, uuid: order.items[0].itemUrlUuid as string };
}
const beacon = (uuid: string) => app.request(`/api/ecards/${uuid}/opened`, { method: 'POST' });
const reply = (uuid: string, json: unknown) => app.request(`/api/ecards/${uuid}/replies`, { method: 'POST', json });

describe('opened notices', () => {
  it('records the opening from the page\'s beacon only: never a plain fetch, never a preview', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const { uuid } = await card('notify@example.com', 'open-me@example.com');
    await app.services.deliveries.runDue();

    const page = await (await app.request(`/ecards/${uuid}.html`)).text();
    expect(page).toContain(`data-opened="/api/ecards/${uuid}/opened"`);
    expect(page).toContain('Send a thank-you');
    const preview = await (await app.request(`/ecards/${uuid}.html?preview=1`)).text();
    expect(preview).not.toContain('data-opened');
    expect(preview).not.toContain('thanks-form');
    // A link scanner fetching the page (twice) opens nothing.
    await app.request(`/ecards/${uuid}.html`);
    expect(await openedAt(uuid)).toBeNull();
    await app.services.deliveries.runDue();
    expect(emailsOf('opened', 'notify@example.com')).toHaveLength(0);

    clock.set('2026-12-01T10:05:00Z');
    const answers = await Promise.all([beacon(uuid), beacon(uuid)]);
    expect(answers.map((r) => r.status)).toEqual([204, 204]);
    expect((await openedAt(uuid))!.toISOString()).toBe('2026-12-01T10:05:00.000Z');
    clock.set('2026-12-01T11:00:00Z');
    await beacon(uuid);
    await app.services.deliveries.runDue();
    const notices = emailsOf('opened', 'notify@example.com');
    expect(notices).toHaveLength(1);
    expect(notices[0]![1]).toContain('Subject: Grace opened your card');
    expect(notices[0]![1]).toContain('https://cards.example/account');
    expect((await openedAt(uuid))!.toISOString()).toBe('2026-12-01T10:05:00.000Z');
  });

  it('sends no notice when the purchaser unticked "Tell me when my card is opened"', async () => {
    clock.set('2026-12-02T10:00:00Z');
    const { uuid, orderId } = await card('quiet@example.com', 'quiet-recipient@example.com', { notifyWhenOpened: false });
    expect(await app.sql('select notify_opened from "order" where id = $1', [orderId])).toEqual([{ notify_opened: false }]);
    await app.services.deliveries.runDue();
    expect((await beacon(uuid)).status).toBe(204);
    await app.services.deliveries.runDue();
    expect(await openedAt(uuid)).not.toBeNull();
    expect(emailsOf('opened', 'quiet@example.com')).toHaveLength(0);
  });

  it('refuses an opening and a thank-you before the card went out (409), and its page offers neither', async () => {
    clock.set('2026-12-02T12:00:00Z');
    const { uuid, orderId } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'early@example.com', lines: [cardLine({ recipientEmail: 'later-day@example.com', deliveryDate: '2026-12-20' })] })).then(({ body }) => ({
      uuid: body.data.placeOrder.items[0].itemUrlUuid as string,
      orderId: body.data.placeOrder.id as string,
    }));
    const opened = await beacon(uuid);
    expect(opened.status).toBe(409);
    expect(await opened.json()).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/not been delivered yet/) });
    expect(await openedAt(uuid)).toBeNull();
    expect(await app.sql(`select kind from mail_job where subject = 'order:' || $1 and kind = 'opened'`, [orderId])).toEqual([]);
    const thanks = await reply(uuid, { name: 'Grace', message: 'Thank you!' });
    expect(thanks.status).toBe(409);
    expect((await thanks.json()).code).toBe('CONFLICT');
    expect(await app.sql('select r.id from ecard_reply r join order_item i on i.id = r.item_id where i.item_url_uuid = $1', [uuid])).toEqual([]);
    expect(await app.sql(`select kind from mail_job where subject = 'order:' || $1 and kind = 'thank-you'`, [orderId])).toEqual([]);
    // The purchaser looking at it before its day sees the card, without the recipient's parts.
    const page = await (await app.request(`/ecards/${uuid}.html`)).text();
    expect(page).not.toContain('data-opened');
    expect(page).not.toContain('thanks-form');
    // On its day it goes out, and then it takes both.
    clock.set('2026-12-20T12:00:00Z');
    await app.services.deliveries.runDue();
    // The kept page goes when the database announces the delivery (a moment after it).
    await expect.poll(async () => (await (await app.request(`/ecards/${uuid}.html`)).text()).includes('thanks-form'), { timeout: 30_000 }).toBe(true);
    expect((await beacon(uuid)).status).toBe(204);
    expect((await reply(uuid, { name: 'Grace', message: 'Thank you!' })).status).toBe(201);
  });

  it('answers 404 for a card that does not exist', async () => {
    expect((await beacon('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await beacon('nonsense')).status).toBe(404);
  });
});

describe('thank-you replies', () => {
  it('takes three replies per card, e-mails each to the purchaser, then refuses; the address limit holds across cards', async () => {
    clock.set('2026-12-03T10:00:00Z');
    const first = await card('thanked@example.com', 'grateful@example.com');
    const second = await card('thanked2@example.com', 'grateful2@example.com');
    await app.services.deliveries.runDue();
    await app.sql(`delete from rate_limit where key like 'thank-you%'`);

    // Refused input takes no point: names are one line, messages plain text of 1 to 500 characters.
    for (const bad of [{ name: 'Grace\nBcc: x@example.com', message: 'Hi' }, { name: '', message: 'Hi' }, { name: 'Grace', message: '   ' }, { name: 'Grace', message: 'x'.repeat(501) }]) {
      const res = await reply(first.uuid, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await res.json()).code).toBe('BAD_USER_INPUT');
    }
    expect((await reply('00000000-0000-4000-8000-000000000000', { name: 'Grace', message: 'Hi' })).status).toBe(404);

    for (let i = 1; i <= 3; i += 1) {
      const res = await reply(first.uuid, { name: '  Grace  ', message: `Thank you <b>${i}</b>!\r\nSee you soon.\u0007` });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ name: 'Grace', message: `Thank you <b>${i}</b>!\nSee you soon.`, created_at: '2026-12-03T10:00:00.000Z' });
    }
    const fourth = await reply(first.uuid, { name: 'Grace', message: 'One more' });
    expect(fourth.status).toBe(409);
    expect((await fourth.json()).message).toMatch(/3 thank-yous/);
    expect(await (await app.request(`/ecards/${first.uuid}.html`)).text()).toContain('This card has received all its thank-yous.');

    // The fourth attempt counted against the address: the next card's second reply is over the limit.
    expect((await reply(second.uuid, { name: 'Grace', message: 'Thanks!' })).status).toBe(429);
    await app.sql(`delete from rate_limit where key like 'thank-you%'`);
    expect((await reply(second.uuid, { name: 'Grace', message: 'Thanks!' })).status).toBe(201);

    await app.services.deliveries.runDue();
    const thanks = emailsOf('thank-you', 'thanked@example.com');
    expect(thanks).toHaveLength(3);
    const one = thanks.map(([, eml]) => eml).find((eml) => eml.includes('Thank you <b>1</b>!') || eml.includes('Thank you &lt;b&gt;1&lt;/b&gt;!'))!;
    expect(one).toContain('Subject: A thank-you from Grace');
    // Plain text in the text part, escaped in the HTML part.
    expect(one).toContain('Thank you <b>1</b>!\nSee you soon.');
    expect(one).toContain('Thank you &lt;b&gt;1&lt;/b&gt;!<br>See you soon.');
    expect(one).not.toContain('<b>1</b>!<br>');
  });

  it('answers 429 with Retry-After once the address used its thank-yous', async () => {
    clock.set('2026-12-04T10:00:00Z');
    const { uuid } = await card('limit@example.com', 'limit-recipient@example.com');
    await app.services.deliveries.runDue();
    await app.sql(`delete from rate_limit where key like 'thank-you%'`);
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 5; i += 1) {
      last = await reply(uuid, { name: 'Grace', message: `Thanks ${i}` });
      statuses.push(last.status);
    }
    // Three replies, the card's refusal (a point spent), then the address limit.
    expect(statuses).toEqual([201, 201, 201, 409, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await last!.json()).code).toBe('RATE_LIMITED');
  });
});

describe('reminders', () => {
  it('sends one reminder to the recipient of a card left unopened, and shows it to admins', async () => {
    clock.set('2026-12-05T10:00:00Z');
    const { uuid, orderId } = await card('remind-buyer@example.com', 'forgetful@example.com');
    await app.services.deliveries.runDue();
    expect(emailsOf('card', 'forgetful@example.com')).toHaveLength(1);

    clock.set('2026-12-05T10:29:59Z');
    await app.services.deliveries.runDue();
    expect(emailsOf('reminder', 'forgetful@example.com')).toHaveLength(0);
    clock.set('2026-12-05T10:30:00Z');
    await Promise.all([app.services.deliveries.runDue(), app.services.deliveries.runDue()]);
    clock.set('2026-12-09T10:30:00Z');
    await app.services.deliveries.runDue();
    const reminders = emailsOf('reminder', 'forgetful@example.com');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]![1]).toContain('Subject: Your card from Ada is waiting: Balloon Birthday');
    expect(reminders[0]![1]).toContain(`https://cards.example/ecards/${uuid}.html`);

    // A resend does not bring a second reminder.
    const itemId = (await app.sql<{ id: number }>('select id from order_item where item_url_uuid = $1', [uuid]))[0]!.id;
    await app.graphql(`mutation($id: Int!) { resendCardEmail(itemId: $id) { id } }`, { id: itemId }, admin);
    await app.services.deliveries.runDue();
    clock.set('2026-12-12T10:30:00Z');
    await app.services.deliveries.runDue();
    expect(emailsOf('reminder', 'forgetful@example.com')).toHaveLength(1);

    const { body } = await app.graphql(`query($id: ID!) { order(id: $id) { items { remindedAt } emails { kind status sentAt } } }`, { id: orderId }, admin);
    expect(body.data.order.items[0].remindedAt).toBe('2026-12-05T10:30:00.000Z');
    expect(body.data.order.emails.filter((e: any) => e.kind === 'REMINDER')).toEqual([{ kind: 'REMINDER', status: 'SENT', sentAt: '2026-12-05T10:30:00.000Z' }]);

    const rest = await (await app.request(`/api/admin/orders?search=${orderId}`, { token: admin })).json();
    expect(rest[0].items[0]).toMatchObject({ delivered_at: '2026-12-05T10:00:00.000Z', opened_at: null, reminded_at: '2026-12-05T10:30:00.000Z' });
  });

  it('sends none once the card was opened, also when the reminder was already due', async () => {
    clock.set('2026-12-06T10:00:00Z');
    const early = await card('b1@example.com', 'opened-early@example.com');
    const late = await card('b2@example.com', 'opened-late@example.com');
    await app.services.deliveries.runDue();
    await beacon(early.uuid);
    // The opening's notice goes out through the queue: let that run end before the clock moves on.
    await app.services.deliveries.runDue();
    clock.set('2026-12-06T11:00:00Z');
    // Opened after its reminder fell due but before the queue ran.
    await beacon(late.uuid);
    await app.services.deliveries.runDue();
    expect(emailsOf('reminder', 'opened-early@example.com')).toHaveLength(0);
    expect(emailsOf('reminder', 'opened-late@example.com')).toHaveLength(0);
    expect(await app.sql(`select id from mail_job where kind = 'reminder' and ref in ('card:' || $1, 'card:' || $2)`, [early.itemId, late.itemId])).toEqual([]);
    const rest = await (await app.request(`/api/admin/orders?search=${early.orderId}`, { token: admin })).json();
    expect(rest[0].items[0]).toMatchObject({ opened_at: '2026-12-06T10:00:00.000Z', reminded_at: null });
  });

  it('sends none when REMINDER_AFTER_HOURS is 0', async () => {
    const off = await startTestApp({ deliveryPollSeconds: 3600, reminderAfterHours: 0 }, { clock: clock.now });
    try {
      clock.set('2026-12-07T10:00:00Z');
      const offShop = await seedShop(off, await off.login());
      const { body } = await placeOrder(off, orderInput(offShop, { lines: [{ productId: offShop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'never-reminded@example.com' }) }] }));
      await off.services.deliveries.runDue();
      clock.set('2027-01-07T10:00:00Z');
      await off.services.deliveries.runDue();
      expect(await off.sql(`select kind from mail_job where subject = 'order:' || $1 order by id`, [body.data.placeOrder.id])).toEqual([{ kind: 'receipt' }, { kind: 'card' }]);
      expect([...outbox(off).keys()].filter((name) => name.startsWith('reminder-'))).toEqual([]);
    } finally {
      await off.stop();
    }
  });
});
