import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import { CacheKeys } from '../../server/src/core/read-cache.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Server-drawn pages through the read cache: what the cache serves is what a fresh render serves
 * (byte for byte, in each theme), every write path drops the pages that show it in this process and
 * in another one on the same database, the shop under construction and drafts stay private, a page
 * drawn for a request with a token is never kept, and purchased e-cards are kept and dropped when
 * their card changes.
 */

let app: TestApp;
/** A second process on the same database (its own cache, its own change feed). */
let other: RunningApp;
let otherDir: string;
let admin: string;
let shop: Shop;
let categoryId: number;
let postSlug: string;

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The HTML, decompressed. */
  html: string;
}

function get(base: string, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + pathname, { method, headers: { accept: 'text/html', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const plain = !body.length ? body : encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
        resolve({ status: res.statusCode!, headers: res.headers, body, html: plain.toString() });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const pagesServed = (running: RunningApp) => running.cachedReads!.stats.served.page;
const ecardsServed = (running: RunningApp) => running.cachedReads!.stats.served.ecard;
const both = () => [app as RunningApp, other];
const put = (pathname: string, json: unknown) => app.request(pathname, { method: 'PUT', token: admin, json });

/** The page drawn afresh for this request (the cache stepped aside), as the cache would have drawn it. */
async function fresh(pathname: string, headers: Record<string, string> = {}): Promise<Got> {
  app.services.cache.setActive(false);
  try {
    return await get(app.url, pathname, headers);
  } finally {
    app.services.cache.setActive(true);
  }
}

beforeAll(async () => {
  app = await startTestApp();
  otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-other-'));
  other = await startApp({ ...app.config, port: 0, dataDir: otherDir }, pino({ level: 'silent' }));
  admin = await app.login();
  shop = await seedShop(app, admin);
  categoryId = (await (await app.request(`/api/products/${shop.cardId}`)).json()).product.category_id;
  const post = await app.request('/api/blog', { method: 'POST', token: admin, json: { title: 'Cards for spring', body: 'New songs.', excerpt: 'Spring', status: 'published' } });
  postSlug = (await post.json()).slug;
});
afterAll(async () => {
  await other?.stop();
  if (otherDir) fs.rmSync(otherDir, { recursive: true, force: true });
  await app?.stop();
});

const PAGES = () => ['/', '/shop', `/shop?category=${categoryId}`, `/product/${shop.cardId}`, `/product/${shop.albumId}`, '/blog', `/blog/${postSlug}`];

describe('the page cache', () => {
  it('serves what a fresh render serves, byte for byte, in each theme, from memory from the second visit on', async () => {
    for (const pathname of PAGES()) {
      for (const cookie of [undefined, 'theme=light', 'other=1; theme=dark']) {
        const headers: Record<string, string> = cookie ? { cookie } : {};
        const first = await get(app.url, pathname, headers);
        expect(first.status, pathname).toBe(200);
        const before = pagesServed(app);
        const cached = await get(app.url, pathname, headers);
        expect(pagesServed(app), `${pathname} ${cookie} from the cache`).toBe(before + 1);
        const drawn = await fresh(pathname, headers);
        expect(cached.html, `${pathname} ${cookie}`).toBe(drawn.html);
        expect(cached.html).toBe(first.html);
        expect(cached.html).toContain('<div id="root"><');
        // The light theme is drawn light, the others dark.
        expect(cached.html.includes('<body class="bp6-dark">'), `${pathname} ${cookie}`).toBe(cookie !== 'theme=light');
        // Every encoding carries the same page.
        for (const encoding of ['br', 'gzip', 'gzip, deflate, br']) expect((await get(app.url, pathname, { ...headers, 'accept-encoding': encoding })).html).toBe(drawn.html);
      }
    }
  });

  it('answers with a strong ETag, 304s, shared-cache headers varying on the theme cookie, and HEAD', async () => {
    const pathname = `/product/${shop.cardId}`;
    const page = await get(app.url, pathname, { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(page.headers['cache-control']).toBe('public, max-age=0, s-maxage=5');
    // Stale copies are a CDN's to serve, never a browser's: a reload after a change shows the change.
    expect(page.headers['cdn-cache-control']).toBe('max-age=5, stale-while-revalidate=30');
    expect(page.headers.vary).toBe('Accept-Encoding, Cookie');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const again = await get(app.url, pathname, { 'if-none-match': page.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await get(app.url, pathname, { cookie: 'theme=light', 'if-none-match': page.headers.etag! })).status).toBe(200);
    const head = await get(app.url, pathname, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(page.body.length));
  });

  it("reads the plain page for a newsletter's parameters, and draws a search for the request alone", async () => {
    const plain = await get(app.url, `/product/${shop.albumId}`);
    await get(app.url, '/shop');
    const before = pagesServed(app);
    const tagged = await get(app.url, `/product/${shop.albumId}?utm_source=newsletter&utm_medium=email`);
    expect(pagesServed(app)).toBe(before + 1);
    expect(tagged.html).toBe(plain.html);
    const searched = await get(app.url, '/shop?q=balloon');
    expect(searched.status).toBe(200);
    expect(searched.headers['cache-control']).toBe('no-cache');
    expect(pagesServed(app)).toBe(before + 1);
    // The plain shop page is still the one kept.
    expect(app.services.cache.peek(`${CacheKeys.shopPages}all:dark`)).toBeDefined();
    expect((await get(app.url, '/shop')).html).not.toContain('value="balloon"');
  });
});

describe('every write path drops the pages that show it, in this process and in the other', () => {
  /** Visits the pages in both processes until both keep them. */
  async function warm(paths: string[]): Promise<void> {
    for (const running of both()) {
      for (const pathname of paths) {
        await get(running.url, pathname);
        const before = pagesServed(running);
        await get(running.url, pathname);
        expect(pagesServed(running), `${pathname} kept`).toBe(before + 1);
      }
    }
  }
  const everywhere = async (pathname: string, check: (html: string) => void) => {
    for (const running of both()) check((await get(running.url, pathname)).html);
  };

  it('a product saved: its page, the shop and the home page', async () => {
    await warm([`/product/${shop.cardId}`, '/shop', '/', `/shop?category=${categoryId}`]);
    expect((await put(`/api/products/${shop.cardId}`, { product: { name: 'Balloon Birthday Deluxe' } })).status).toBe(200);
    for (const pathname of [`/product/${shop.cardId}`, '/shop', '/', `/shop?category=${categoryId}`]) await everywhere(pathname, (html) => expect(html, pathname).toContain('Balloon Birthday Deluxe'));
  });

  it('a category renamed: the product pages that name it and the shop', async () => {
    await warm([`/product/${shop.albumId}`, `/shop?category=${categoryId}`, '/shop']);
    expect((await put(`/api/categories/${categoryId}`, { name: 'Birthdays & Parties' })).status).toBe(200);
    // In the title, and in the product's structured data (JSON, where & is written \u0026).
    for (const pathname of [`/product/${shop.albumId}`, `/shop?category=${categoryId}`, '/shop']) await everywhere(pathname, (html) => expect(html, pathname).toMatch(/Birthdays (&amp;|\\u0026) Parties/));
  });

  it('a file renamed and a file deleted: the pages that show them', async () => {
    await warm([`/product/${shop.cardId}`, `/product/${shop.albumId}`]);
    const song = (await (await app.request('/api/media/files/all', { token: admin })).json()).find((f: { file_path: string }) => f.file_path === shop.files.songs[0]);
    expect((await put(`/api/media/files/${song.id}`, { friendly_name: 'Happy tune, renamed' })).status).toBe(200);
    await everywhere(`/product/${shop.cardId}`, (html) => expect(html).toContain('Happy tune, renamed'));

    await warm([`/product/${shop.cardId}`, `/product/${shop.albumId}`]);
    await everywhere(`/product/${shop.albumId}`, (html) => expect(html).toContain(shop.files.back));
    const back = (await (await app.request('/api/media/files/all', { token: admin })).json()).find((f: { file_path: string }) => f.file_path === shop.files.back);
    expect((await app.request(`/api/media/files/${back.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    for (const pathname of [`/product/${shop.cardId}`, `/product/${shop.albumId}`]) await everywhere(pathname, (html) => expect(html, pathname).not.toContain(shop.files.back));
  });

  it('the under-construction switch: no page shows the catalogue until the shop opens again, cached or not', async () => {
    const pages = PAGES();
    await warm(pages);
    expect((await put('/api/settings', { underConstructionMode: 'true' })).status).toBe(200);
    try {
      for (const pathname of pages) {
        for (const running of both()) {
          for (const method of ['GET', 'HEAD']) {
            const closed = await get(running.url, pathname, {}, method);
            expect(closed.status, pathname).toBe(200);
            expect(closed.headers['cache-control'], pathname).toBe('no-cache');
            if (method === 'GET') {
              expect(closed.html, pathname).not.toContain('Balloon');
              expect(closed.html, pathname).toContain('"underConstructionMode":true');
            }
          }
        }
      }
    } finally {
      expect((await put('/api/settings', { underConstructionMode: 'false' })).status).toBe(200);
    }
    await everywhere(`/product/${shop.cardId}`, (html) => expect(html).toContain('Balloon Birthday Deluxe'));
  });

  it('a blog post written, renamed and published: the blog and the post', async () => {
    await warm(['/blog', `/blog/${postSlug}`]);
    const post = await app.request('/api/blog', { method: 'POST', token: admin, json: { title: 'Autumn songs', body: 'Leaves.', status: 'published' } });
    expect(post.status).toBe(201);
    await everywhere('/blog', (html) => expect(html).toContain('Autumn songs'));
    const id = (await (await app.request(`/api/blog/${postSlug}`)).json()).id;
    expect((await put(`/api/blog/${id}`, { title: 'Cards for a bright spring' })).status).toBe(200);
    await everywhere(`/blog/${postSlug}`, (html) => expect(html).toContain('Cards for a bright spring'));
    await everywhere('/blog', (html) => expect(html).toContain('Cards for a bright spring'));
  });
});

describe('what stays private', () => {
  it('a draft: never described or kept, not even for an admin token', async () => {
    const draft = await app.request('/api/blog', { method: 'POST', token: admin, json: { title: 'Secret winter plans', body: 'Not yet.', status: 'draft' } });
    const slug = (await draft.json()).slug;
    for (const headers of [{}, { authorization: `Bearer ${admin}` }] as Record<string, string>[]) {
      const page = await get(app.url, `/blog/${slug}`, headers);
      expect(page.status).toBe(404);
      expect(page.html).not.toContain('Secret winter plans');
    }
    expect(app.services.cache.peek(`${CacheKeys.blogPages}post:${slug}:dark`)).toBeUndefined();
    expect((await get(app.url, '/blog')).html).not.toContain('Secret winter plans');
  });

  it('a page drawn for a request with a token is never kept, nor served to anyone else', async () => {
    const pathname = `/product/${shop.albumId}`;
    app.services.cache.invalidate(['*']);
    const key = CacheKeys.productPage(shop.albumId, 'dark');
    const signedIn = await get(app.url, pathname, { authorization: `Bearer ${admin}` });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('private, no-store');
    expect(app.services.cache.peek(key)).toBeUndefined();
    const before = pagesServed(app);
    const anonymous = await get(app.url, pathname);
    expect(pagesServed(app)).toBe(before);
    expect(anonymous.headers['cache-control']).toMatch(/^public/);
    expect(app.services.cache.peek(key)).toBeDefined();
    // With a token the kept page is not served either: it is drawn again, privately.
    const again = await get(app.url, pathname, { authorization: `Bearer ${admin}` });
    expect(pagesServed(app)).toBe(before);
    expect(again.headers['cache-control']).toBe('private, no-store');
  });

  it('a post scheduled for later joins the kept blog page at its time', async () => {
    const at = new Date(Date.now() + 3000);
    const res = await app.request('/api/blog', { method: 'POST', token: admin, json: { title: 'Scheduled surprise', body: 'Soon.', status: 'published', published_at: at.toISOString() } });
    expect(res.status).toBe(201);
    expect((await get(app.url, '/blog')).html).not.toContain('Scheduled surprise');
    const before = pagesServed(app);
    expect((await get(app.url, '/blog')).html).not.toContain('Scheduled surprise');
    expect(pagesServed(app)).toBe(before + 1);
    await expect.poll(async () => (await get(app.url, '/blog')).html.includes('Scheduled surprise'), { timeout: 30_000 }).toBe(true);
  });
});

describe('a purchased e-card', () => {
  async function deliveredCard(): Promise<{ uuid: string; orderId: string }> {
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Grace' }) }] }));
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    await app.services.deliveries.runDue();
    // The queue's own run (woken by the order) may hold the card: it is delivered once that run settled it.
    const orderId = String(body.data.placeOrder.id);
    await expect.poll(async () => (await app.sql(`select count(*)::int as n from mail_job where subject = 'order:' || $1 and status = 'sending'`, [orderId]))[0].n, { timeout: 30_000 }).toBe(0);
    return { uuid: body.data.placeOrder.items[0].itemUrlUuid, orderId: body.data.placeOrder.id };
  }
  const reply = (uuid: string) => app.request(`/api/ecards/${uuid}/replies`, { method: 'POST', json: { name: 'Grace', message: 'Thank you!' } });

  it('is kept (its preview apart), stays private to shared caches, and goes when a reply closes its form, in both processes', async () => {
    const { uuid } = await deliveredCard();
    for (const running of both()) {
      for (const suffix of ['', '?preview=1']) {
        const first = await get(running.url, `/ecards/${uuid}.html${suffix}`);
        expect(first.status).toBe(200);
        // The delivery's own announcement may reach this process just after the first visit and drop
        // that copy: the page is asked again until it comes from memory.
        let again: Got | null = null;
        await expect
          .poll(
            async () => {
              const before = ecardsServed(running);
              again = await get(running.url, `/ecards/${uuid}.html${suffix}`);
              return ecardsServed(running) - before;
            },
            { timeout: 30_000, interval: 200 },
          )
          .toBe(1);
        again = again!;
        expect(again.html).toBe(first.html);
        expect(again.headers['cache-control']).toBe('private, no-cache');
        expect(again.headers['x-robots-tag']).toBe('noindex');
        expect((await get(running.url, `/ecards/${uuid}.html${suffix}`, { 'if-none-match': again.headers.etag! })).status).toBe(304);
      }
      expect((await get(running.url, `/ecards/${uuid}.html`)).html).toContain('thanks-form');
      expect((await get(running.url, `/ecards/${uuid}.html?preview=1`)).html).not.toContain('thanks-form');
    }
    for (let i = 0; i < 3; i++) expect((await reply(uuid)).status).toBe(201);
    for (const running of both()) {
      await expect.poll(async () => (await get(running.url, `/ecards/${uuid}.html`)).html.includes('received all its thank-yous'), { timeout: 30_000 }).toBe(true);
    }
  });

  it('goes when its order is refunded, in both processes', async () => {
    const { uuid, orderId } = await deliveredCard();
    for (const running of both()) {
      await get(running.url, `/ecards/${uuid}.html`);
      expect((await get(running.url, `/ecards/${uuid}.html`)).status).toBe(200);
    }
    expect((await app.request(`/api/admin/orders/${orderId}/refund`, { method: 'POST', token: admin })).status).toBe(200);
    for (const running of both()) await expect.poll(async () => (await get(running.url, `/ecards/${uuid}.html`)).status, { timeout: 30_000 }).toBe(410);
  });
});
