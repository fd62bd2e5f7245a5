import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../gateway/src/boot.js';
import { loadConfig } from '../../server/src/config.js';
import { manualClock, orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let shop: Shop;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  // The worker polls rarely here: the tests run the queue themselves, at the times they choose.
  app = await startTestApp({ deliveryPollSeconds: 3600, publicUrl: 'https://cards.example' }, { clock: clock.now });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const cardLine = (overrides: Record<string, unknown> = {}) => ({ productId: shop.cardId, quantity: 1, personalisation: personalisation(overrides) });
const emailsTo = (address: string) => [...outbox(app).entries()].filter(([, eml]) => eml.includes(`To: ${address}`));
const status = async (id: string) => (await app.sql<{ status: string }>('select status from "order" where id = $1', [id]))[0]!.status;

describe('delivery on the due date', () => {
  it('sends the receipt at once and the card exactly once at 09:00 of its day in the shopper\'s time zone', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const { body } = await placeOrder(app, orderInput(shop, {
      purchaserEmail: 'planner@example.com',
      lines: [cardLine({ recipientEmail: 'later@example.com', deliveryDate: '2026-12-24', timeZone: 'America/New_York' })],
    }));
    const order = body.data.placeOrder;
    // 09:00 in New York is 14:00 UTC in December.
    expect(order.items[0].deliverAt).toBe('2026-12-24T14:00:00.000Z');
    await app.services.deliveries.runDue();

    const receipts = emailsTo('planner@example.com');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]![1]).toContain(`Subject: Your Art & Song Cards order ${order.id.slice(0, 8).toUpperCase()}`);
    expect(receipts[0]![1]).toContain(`https://cards.example/ecards/${order.items[0].itemUrlUuid}.html`);
    expect(emailsTo('later@example.com')).toHaveLength(0);
    expect(await status(order.id)).toBe('paid');

    clock.set('2026-12-24T13:59:59Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('later@example.com')).toHaveLength(0);

    clock.set('2026-12-24T14:00:00Z');
    await Promise.all([app.services.deliveries.runDue(), app.services.deliveries.runDue()]);
    await app.services.deliveries.runDue();
    const cards = emailsTo('later@example.com');
    expect(cards).toHaveLength(1);
    expect(cards[0]![1]).toContain('Subject: Ada sent you a card: Balloon Birthday');
    expect(cards[0]![1]).toContain(`https://cards.example/ecards/${order.items[0].itemUrlUuid}.html`);
    expect(await status(order.id)).toBe('delivered');
    const [item] = await app.sql<{ delivered_at: Date }>('select delivered_at from order_item where id = $1', [order.items[0].id]);
    expect(item!.delivered_at.toISOString()).toBe('2026-12-24T14:00:00.000Z');
    expect(await app.sql(`select id from mail_job where subject = 'order:' || $1 and status <> 'sent' and kind <> 'reminder'`, [order.id])).toHaveLength(0);
  });

  it('sends a card for now at once, and an order delivers only when all its cards went out', async () => {
    clock.set('2026-12-02T08:00:00Z');
    const { body } = await placeOrder(app, orderInput(shop, {
      lines: [cardLine({ recipientEmail: 'now@example.com' }), cardLine({ recipientEmail: 'tomorrow@example.com', deliveryDate: '2026-12-03' })],
    }));
    const order = body.data.placeOrder;
    await app.services.deliveries.runDue();
    expect(emailsTo('now@example.com')).toHaveLength(1);
    expect(await status(order.id)).toBe('paid');
    clock.set('2026-12-03T09:00:00Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('tomorrow@example.com')).toHaveLength(1);
    expect(await status(order.id)).toBe('delivered');
  });

  it('delivers an order without cards once its receipt is sent', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'albums@example.com', lines: [{ productId: shop.albumId, quantity: 1 }] }));
    await app.services.deliveries.runDue();
    expect(emailsTo('albums@example.com')).toHaveLength(1);
    expect(await status(body.data.placeOrder.id)).toBe('delivered');
  });

  it('retries a failed send later and never loses it', async () => {
    clock.set('2026-12-05T09:00:00Z');
    const outboxDir = path.join(app.dataDir, 'outbox');
    const saved = path.join(app.dataDir, 'outbox-saved');
    fs.renameSync(outboxDir, saved);
    fs.writeFileSync(outboxDir, 'not a directory'); // every send fails now
    let orderId = '';
    try {
      const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'retry@example.com', lines: [cardLine({ recipientEmail: 'retry-card@example.com' })] }));
      orderId = body.data.placeOrder.id;
      await app.services.deliveries.runDue();
      const jobs = await app.sql<{ status: string; attempts: number; due_at: Date; last_error: string }>(`select status, attempts, due_at, last_error from mail_job where subject = 'order:' || $1`, [orderId]);
      expect(jobs).toHaveLength(2);
      for (const job of jobs) {
        expect(job).toMatchObject({ status: 'queued', attempts: 1 });
        expect(job.due_at.getTime()).toBeGreaterThan(clock.now().getTime());
        expect(job.last_error).toBeTruthy();
      }
    } finally {
      fs.rmSync(outboxDir);
      fs.renameSync(saved, outboxDir);
    }
    await app.services.deliveries.runDue();
    expect(emailsTo('retry-card@example.com')).toHaveLength(0); // not due again yet
    clock.set('2026-12-05T09:01:00Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('retry-card@example.com')).toHaveLength(1);
    expect(emailsTo('retry@example.com')).toHaveLength(1);
    expect(await status(orderId)).toBe('delivered');
  });

  it('keeps due mail across a restart: the queue lives in the database', async () => {
    clock.set('2026-12-06T09:00:00Z');
    const { body } = await placeOrder(app, orderInput(shop, { lines: [cardLine({ recipientEmail: 'restart@example.com', deliveryDate: '2026-12-07' })] }));
    const [job] = await app.sql<{ status: string }>(`select status from mail_job where subject = 'order:' || $1 and kind = 'card'`, [body.data.placeOrder.id]);
    expect(job!.status).toBe('queued');
    // A second shop process on the same database and data directory picks the job up.
    const config = { ...loadConfig({}), port: 0, host: '127.0.0.1', logLevel: 'silent', jwtSecret: 'restart', dataDir: app.dataDir, databaseUrl: app.orm.config.get('clientUrl'), deliveryPollSeconds: 3600 };
    const second = await startApp(config, pino({ level: 'silent' }), { clock: () => new Date('2026-12-07T09:00:01Z') });
    try {
      await second.services.deliveries.runDue();
    } finally {
      await second.stop();
    }
    expect(emailsTo('restart@example.com')).toHaveLength(1);
  });
});

describe('the e-card page', () => {
  let uuid: string;
  beforeAll(async () => {
    clock.set('2026-12-10T09:00:00Z');
    const { body } = await placeOrder(app, orderInput(shop, { lines: [cardLine({ recipientName: 'Grace <b>Hopper</b>', message: 'Happy birthday!\n<script>alert(1)</script>' })] }));
    uuid = body.data.placeOrder.items[0].itemUrlUuid;
    await app.services.deliveries.runDue();
  });

  it('shows the message in place and in its font, the images and the songs, escaped', async () => {
    const res = await app.request(`/ecards/${uuid}.html?preview=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    expect(page).toContain('class="message placement-top-left"');
    expect(page).toContain('Happy birthday!\n&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('Grace &lt;b&gt;Hopper&lt;/b&gt;');
    expect(page).toContain('href="https://fonts.googleapis.com/css2?family=Dancing+Script&amp;display=swap"');
    expect(page).toMatch(/font-family: 'Dancing Script', 'Dancing Script Local', Georgia/);
    expect(page).toContain("src: local('Dancing Script')");
    for (const file of [shop.files.cover, shop.files.greeting, shop.files.back, shop.files.extra]) expect(page).toContain(`src="/api/${file}"`);
    for (const song of shop.files.songs) expect(page).toMatch(new RegExp(`<audio controls preload="\\w+" src="/api/${song}">`));
    expect(page).toContain('<script src="/ecards/ecard.js" defer></script>');
    expect(page.length).toBeLessThan(16_000);
    const script = await app.request('/ecards/ecard.js');
    expect(script.status).toBe(200);
    expect(await script.text()).toContain("addEventListener('click'");
  });

  it('records the first opening reported by the page, never a plain fetch of it', async () => {
    const openedAt = async () => (await app.sql<{ opened_at: Date | null }>('select opened_at from order_item where item_url_uuid = $1', [uuid]))[0]!.opened_at;
    await app.request(`/ecards/${uuid}.html?preview=1`);
    await app.request(`/ecards/${uuid}.html`);
    expect(await openedAt()).toBeNull();
    clock.set('2026-12-11T18:30:00Z');
    const beacon = () => app.request(`/api/ecards/${uuid}/opened`, { method: 'POST' });
    await Promise.all([beacon(), beacon()]);
    expect((await openedAt())!.toISOString()).toBe('2026-12-11T18:30:00.000Z');
    clock.set('2026-12-12T08:00:00Z');
    expect((await beacon()).status).toBe(204);
    expect((await openedAt())!.toISOString()).toBe('2026-12-11T18:30:00.000Z');
    // The first opening is for the shop's admins (Order Details).
    const { body } = await app.graphql(
      `query($id: ID!) { order(id: $id) { items { openedAt } } }`,
      { id: (await app.sql<{ order_id: string }>('select order_id from order_item where item_url_uuid = $1', [uuid]))[0]!.order_id },
      await app.login(),
    );
    expect(body.data.order.items[0].openedAt).toBe('2026-12-11T18:30:00.000Z');
  });

  it('answers an unknown card with a friendly 404 page', async () => {
    for (const pathname of ['/ecards/00000000-0000-4000-8000-000000000000.html', '/ecards/nonsense.html', `/ecards/${uuid}.txt`]) {
      const res = await app.request(pathname);
      expect(res.status, pathname).toBe(404);
      expect(await res.text()).toContain('We could not find this card');
    }
  });
});
