import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import { pageEdition } from '../../gateway/src/stored-pages.js';
import { webDistDir } from '../../gateway/src/web-client.js';
import { CachedAnswer, Changes } from '../../server/src/core/read-cache.js';
import { seedShop, type Shop } from '../helpers/order-fixtures.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Product pages drawn in the background when the catalogue changes and stored in PostgreSQL: the
 * shop draws its catalogue after it changes and a worker what is missing when it starts, a stored page is what a request draws (byte for byte, in each
 * theme), a process that misses memory reads the stored page instead of drawing, and once a change has
 * answered neither this process nor another serves the page from before it, even when a drawing that
 * began before the change finishes after it.
 */

let app: TestApp;
/** A second process on the same database (its own cache, its own change feed), drawing too. */
let other: RunningApp;
let otherDir: string;
let admin: string;
let shop: Shop;

const THEMES = ['dark', 'light'] as const;
const cookieOf = (theme: string) => ({ cookie: `theme=${theme}` });

function get(base: string, pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string | undefined; html: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + pathname, { headers: { accept: 'text/html', 'accept-encoding': 'br', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const html = (res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(body) : body).toString();
        resolve({ status: res.statusCode!, etag: res.headers.etag as string | undefined, html });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page drawn on request for this request alone (the cache, and with it the stored pages, stepped aside). */
async function drawnOnRequest(pathname: string, theme: string): Promise<string> {
  app.services.cache.setActive(false);
  try {
    return (await get(app.url, pathname, cookieOf(theme))).html;
  } finally {
    app.services.cache.setActive(true);
  }
}

interface Row {
  product_id: number;
  theme: string;
  etag: string;
  br: Buffer;
  gzip: Buffer;
}

const storedRows = (id: number) => app.sql<Row>('select product_id, theme, etag, br, gzip from product_page where product_id = $1 order by theme', [id]);
const waiting = async () => Number((await app.sql<{ n: number }>('select count(*)::int as n from product_page_work'))[0]!.n);

/** Waits until nothing is left to draw and every active product has its pages in both themes. */
async function settled(): Promise<void> {
  await expect
    .poll(async () => {
      const [row] = await app.sql<{ missing: number }>(
        `select count(*)::int as missing from product p cross join (values ('dark'), ('light')) t(theme)
         where p.status = 'active' and not exists (select 1 from product_page pp where pp.product_id = p.id and pp.theme = t.theme
           and pp.drawn_from > coalesce((select max(changed) from product_page_stamp s where s.product_id in (0, p.id)), 0))`,
      );
      return { missing: row!.missing, waiting: await waiting() };
    }, { timeout: 60_000, interval: 100 })
    .toEqual({ missing: 0, waiting: 0 });
}

beforeAll(async () => {
  app = await startTestApp({ backgroundPages: true });
  otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-other-'));
  other = await startApp({ ...app.config, port: 0, dataDir: otherDir }, pino({ level: 'silent' }));
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await other?.stop();
  if (otherDir) fs.rmSync(otherDir, { recursive: true, force: true });
  await app?.stop();
});

describe('product pages drawn in the background', () => {
  it('draws the catalogue after it changes, and stores what a request draws, byte for byte, in each theme', async () => {
    await settled();
    for (const id of [shop.cardId, shop.albumId]) {
      const rows = await storedRows(id);
      expect(rows.map((row) => row.theme)).toEqual([...THEMES]);
      for (const row of rows) {
        const drawn = await drawnOnRequest(`/product/${id}`, row.theme);
        expect(drawn).toContain('<div id="root"><');
        expect(zlib.brotliDecompressSync(row.br).toString(), `${id} ${row.theme} br`).toBe(drawn);
        expect(zlib.gunzipSync(row.gzip).toString(), `${id} ${row.theme} gzip`).toBe(drawn);
        expect(row.etag).toBe(CachedAnswer.html(drawn).etag);
      }
    }
  });

  it('is drawn by a worker that starts on a shop whose pages are missing', async () => {
    await settled();
    await app.sql('delete from product_page where product_id = $1', [shop.albumId]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-worker-'));
    const worker = await startApp({ ...app.config, appRole: 'worker', port: 0, dataDir: dir }, pino({ level: 'silent' }));
    try {
      await settled();
      expect((await storedRows(shop.albumId)).map((row) => row.theme)).toEqual([...THEMES]);
    } finally {
      await worker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves a stored page to a process that misses memory with one read, instead of drawing it', async () => {
    await settled();
    other.services.cache.invalidate(['page:']);
    for (const theme of THEMES) {
      const [row] = (await storedRows(shop.albumId)).filter((r) => r.theme === theme);
      let page: Awaited<ReturnType<typeof get>> | null = null;
      const queries = await recordQueries(other, async () => void (page = await get(other.url, `/product/${shop.albumId}`, cookieOf(theme))));
      expect(page!.status).toBe(200);
      expect(page!.etag).toBe(row!.etag);
      expect(page!.html).toBe(zlib.gunzipSync(row!.gzip).toString());
      expect(queries.filter((q) => q.includes('product_page p'))).toHaveLength(1);
      // Nothing of the product itself was read: the page was not drawn.
      expect(queries.filter((q) => /from product p\b|from "product"/.test(q))).toEqual([]);
    }
  });

  it('never serves the page from before a change, in this process or another, and draws it again', async () => {
    await settled();
    const pathname = `/product/${shop.cardId}`;
    for (const [round, name] of ['Balloon Birthday Gold', 'Balloon Birthday Silver', 'Balloon Birthday Bronze'].entries()) {
      // Both processes hold the page in memory, and the table holds it too.
      for (const running of [app as RunningApp, other]) for (const theme of THEMES) expect((await get(running.url, pathname, cookieOf(theme))).status).toBe(200);
      const put = await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token: admin, json: { product: { name } } });
      expect(put.status, `round ${round}`).toBe(200);
      for (const running of [app as RunningApp, other]) {
        for (const theme of THEMES) {
          const page = await get(running.url, pathname, cookieOf(theme));
          expect(page.html, `round ${round} ${theme}`).toContain(name);
        }
      }
      await settled();
      for (const row of await storedRows(shop.cardId)) expect(zlib.gunzipSync(row.gzip).toString()).toContain(name);
    }
  });

  it('never takes a page whose drawing began before a change, whenever that drawing is stored', async () => {
    await settled();
    const pathname = `/product/${shop.albumId}`;
    const old = (await storedRows(shop.albumId)).find((row) => row.theme === 'dark')!;
    // A drawing starts (its stamp taken) and reads the album as it is now...
    const [{ stamp }] = await app.sql<{ stamp: string }>(`select nextval('product_page_stamp_seq')::text as stamp`) as [{ stamp: string }];
    // ...the album changes meanwhile...
    expect((await app.request(`/api/products/${shop.albumId}`, { method: 'PUT', token: admin, json: { product: { name: 'Winter Songs Album' } } })).status).toBe(200);
    // ...and the drawing stores the old page after the change has answered.
    const edition = pageEdition(webDistDir(), app.config.publicUrl);
    await app.services.productPages.store({ productId: shop.albumId, theme: 'dark', locale: 'en' }, stamp, edition.build, { etag: old.etag, length: 0, br: old.br, gzip: old.gzip });
    for (const running of [app as RunningApp, other]) {
      running.services.cache.invalidate(['page:']);
      const page = await get(running.url, pathname, cookieOf('dark'));
      expect(page.html).toContain('Winter Songs Album');
      expect(page.etag).not.toBe(old.etag);
    }
  });

  it('marks every product page old on a change to what they all show, and draws them again', async () => {
    await settled();
    const before = await storedRows(shop.cardId);
    const renamed = await app.graphql('mutation($input: UpdateSettingsInput!) { updateSettings(input: $input) { shopName } }', { input: { shopName: 'Songbird Cards' } }, admin);
    expect(renamed.body.errors).toBeUndefined();
    for (const running of [app as RunningApp, other]) expect((await get(running.url, `/product/${shop.cardId}`, cookieOf('dark'))).html).toContain('Songbird Cards');
    await settled();
    const after = await storedRows(shop.cardId);
    expect(after.map((row) => row.etag)).not.toEqual(before.map((row) => row.etag));
    expect(zlib.gunzipSync(after[0]!.gzip).toString()).toContain('Songbird Cards');
    // The store is told of product changes by the keys that name their pages.
    expect(Changes.product(shop.cardId, [])).toContain(`page:product:${shop.cardId}:`);
  });
});
