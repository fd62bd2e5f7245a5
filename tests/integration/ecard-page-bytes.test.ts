import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import pino from 'pino';
import { createSystemContext } from '../../server/src/core/context.js';
import { CachedAnswer } from '../../server/src/core/read-cache.js';
import { renderEcardPage } from '../../server/src/modules/ecard/ecard-page.js';
import { pageStateOf } from '../../server/src/modules/ecard/ecard-page-state.js';
import { keepPage } from '../../server/src/modules/ecard/ecard-pages.js';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { placeGroupCard, sign } from '../helpers/group-card-fixtures.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A card's page kept drawn in the database (ecard_page): what is served, in this process and in
 * another one on the same database, is a fresh render's bytes after every change that affects the
 * page (a reply, a refund, a signature) and after one that does not (the product's own edit: a
 * bought card keeps its design); the kept bytes go in the very transaction of the change, and a
 * drawing read before a change is never kept after it.
 */

let app: TestApp;
/** The shop's entry point run as a process of its own on the same database (its own pool, cache and drawer). */
let other: AppProcess;
let admin: string;
let shop: Shop;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A GET of a card's page as a browser sends it, its body decompressed. */
function open(base: string, uuid: string, encoding = 'gzip, deflate, br'): Promise<{ status: number; etag: string | undefined; encoding: string | undefined; body: Buffer; html: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/ecards/${uuid}.html`, { headers: { accept: 'text/html', 'accept-encoding': encoding }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const coding = res.headers['content-encoding'];
          const plain = coding === 'br' ? zlib.brotliDecompressSync(body) : coding === 'gzip' ? zlib.gunzipSync(body) : body;
          resolve({ status: res.statusCode!, etag: res.headers.etag, encoding: coding, body, html: plain.toString() });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The page drawn afresh from the card's rows through the modules' own services (no statement of ecard_page's). */
async function freshRender(uuid: string): Promise<string> {
  const ctx = createSystemContext({ em: app.orm.em.fork(), log: pino({ level: 'silent' }), task: 'fresh-render' });
  const item = await app.services.ecards.open(ctx, uuid);
  if (!item) throw new Error(`no page for ${uuid}`);
  const [repliesLeft, signatures] = await Promise.all([app.services.ecardLoop.repliesLeft(ctx, item), app.services.groupCards.signaturesOf(ctx, item)]);
  return renderEcardPage(item, { preview: false, repliesLeft, signatures });
}

const etagOf = (html: string) => `"${crypto.createHash('sha1').update(html).digest('base64url')}"`;
const bases = () => [app.url, other.url];

/** Both processes serve the fresh render's bytes (in br, gzip and plain), its ETag with them; `note` says what the page must show. */
async function servedFresh(uuid: string, note: string): Promise<void> {
  const html = await freshRender(uuid);
  expect(html).toContain(note);
  for (const base of bases()) {
    // A process may hold the page in memory until the change's announcement reaches it (a moment): asked until it has.
    await expect.poll(async () => (await open(base, uuid)).html, { timeout: 30_000, interval: 100 }).toBe(html);
    for (const encoding of ['br', 'gzip', 'identity']) {
      const page = await open(base, uuid, encoding);
      expect(page.status).toBe(200);
      expect(page.html).toBe(html);
      expect(page.etag).toBe(etagOf(html));
    }
  }
}

/** What ecard_page keeps of a card: its generation and whether its bytes are there. */
async function kept(uuid: string): Promise<{ generation: number; drawn: boolean } | undefined> {
  const [row] = await app.sql(`select generation, br is not null as drawn from ecard_page where item_url_uuid = $1`, [uuid]);
  return row as { generation: number; drawn: boolean } | undefined;
}

async function deliveredCard(recipientName: string): Promise<{ uuid: string; orderId: string }> {
  const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName }) }] }));
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  const uuid = body.data.placeOrder.items[0].itemUrlUuid as string;
  await app.services.deliveries.runDue();
  await expect.poll(async () => (await app.sql(`select delivered_at is not null as sent from order_item where item_url_uuid = $1`, [uuid]))[0].sent, { timeout: 30_000 }).toBe(true);
  return { uuid, orderId: body.data.placeOrder.id };
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  shop = await seedShop(app, admin);
  other = await startAppProcess('ecard-other', { DATABASE_URL: app.config.databaseUrl!, PAYMENT_PROVIDER: 'test', JWT_SECRET: app.config.jwtSecret! }, 200_000);
}, 240_000);
afterAll(async () => {
  await other?.stop();
  await app?.stop();
});

describe("a card's page kept drawn in the database", () => {
  it('is drawn once the card is delivered, before anyone opens it, and served as kept by both processes', async () => {
    const { uuid } = await deliveredCard('Grace');
    await expect.poll(async () => (await kept(uuid))?.drawn, { timeout: 30_000 }).toBe(true);
    const [row] = await app.sql(`select etag, br, gzip from ecard_page where item_url_uuid = $1`, [uuid]);
    for (const base of bases()) {
      const br = await open(base, uuid, 'br');
      expect(br.encoding).toBe('br');
      expect(br.body.equals(row.br as Buffer)).toBe(true);
      expect(br.etag).toBe(row.etag);
      const gzip = await open(base, uuid, 'gzip');
      expect(gzip.body.equals(row.gzip as Buffer)).toBe(true);
    }
    await servedFresh(uuid, 'thanks-form');
    // The page's report of its opening changes nothing it shows: the kept bytes stay.
    const { generation } = (await kept(uuid))!;
    expect((await app.request(`/api/ecards/${uuid}/opened`, { method: 'POST' })).status).toBeLessThan(300);
    expect((await app.sql(`select opened_at is not null as opened from order_item where item_url_uuid = $1`, [uuid]))[0].opened).toBe(true);
    expect(await kept(uuid)).toEqual({ generation, drawn: true });
  });

  it('is a fresh render after each thank-you, up to the closed form, in both processes', async () => {
    const { uuid } = await deliveredCard('Linus');
    await servedFresh(uuid, 'thanks-form');
    for (let i = 0; i < 3; i++) {
      const before = (await kept(uuid))!.generation;
      expect((await app.request(`/api/ecards/${uuid}/replies`, { method: 'POST', json: { name: 'Linus', message: `Thank you, ${i}!` } })).status).toBe(201);
      // Forgotten in the reply's own transaction: no process can read the old bytes once it has answered.
      const now = (await kept(uuid))!;
      expect(now.generation).toBeGreaterThan(before);
      await servedFresh(uuid, i < 2 ? 'thanks-form' : 'received all its thank-yous');
    }
  });

  it('is withdrawn (410) in both processes once its order is refunded, its bytes gone', async () => {
    const { uuid, orderId } = await deliveredCard('Margaret');
    await servedFresh(uuid, 'thanks-form');
    expect((await app.request(`/api/admin/orders/${orderId}/refund`, { method: 'POST', token: admin })).status).toBe(200);
    expect((await kept(uuid))!.drawn).toBe(false);
    for (const base of bases()) await expect.poll(async () => (await open(base, uuid)).status, { timeout: 30_000 }).toBe(410);
    expect((await kept(uuid))!.drawn).toBe(false);
  });

  it("shows each new signature of a group card, in both processes", async () => {
    const card = await placeGroupCard(app, shop, { deliveryDate: day(5), collectUntil: new Date(Date.now() + 3 * 86_400_000).toISOString(), recipientName: 'Hedy' });
    await servedFresh(card.uuid, 'Hedy');
    for (const name of ['Alan Turing', 'Barbara Liskov']) {
      expect((await sign(app, card.token, { name, message: `All the best from ${name}.` })).status).toBe(201);
      await servedFresh(card.uuid, name);
    }
  });

  it("stays the card as bought when its product changes, drawn as a fresh render would draw it", async () => {
    const { uuid } = await deliveredCard('Katherine');
    await servedFresh(uuid, 'Dancing+Script');
    const changed = await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token: admin, json: { product: { name: 'Balloon Birthday (new)' }, e_greeting_card_data: { message_location: 'bottom-right', font_name: 'Lobster' } } });
    expect(changed.status).toBe(200);
    await servedFresh(uuid, 'Dancing+Script');
    expect((await open(app.url, uuid)).html).not.toContain('Lobster');
  });

  it('never keeps a drawing read before a change that committed after it', async () => {
    const { uuid } = await deliveredCard('Edsger');
    await expect.poll(async () => (await kept(uuid))?.drawn, { timeout: 30_000 }).toBe(true);
    const pool = new pg.Pool({ connectionString: app.config.databaseUrl!, max: 1 });
    try {
      const before = (await pageStateOf(pool, uuid))!;
      expect((await app.request(`/api/ecards/${uuid}/replies`, { method: 'POST', json: { name: 'Edsger', message: 'Thanks!' } })).status).toBe(201);
      // The drawing of the rows as they were arrives late: nothing is kept.
      const stale = await CachedAnswer.formsOf(renderEcardPage(before.view, { preview: false, repliesLeft: before.repliesLeft, signatures: before.signatures }));
      expect(await keepPage(pool, uuid, before.generation, stale)).toBe(false);
      const now = (await pageStateOf(pool, uuid))!;
      expect(now.repliesLeft).toBe(before.repliesLeft - 1);
      expect(await keepPage(pool, uuid, now.generation, await CachedAnswer.formsOf(renderEcardPage(now.view, { preview: false, repliesLeft: now.repliesLeft, signatures: now.signatures })))).toBe(true);
    } finally {
      await pool.end();
    }
    await servedFresh(uuid, 'thanks-form');
  });
});
