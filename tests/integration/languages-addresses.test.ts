import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedShop, type Shop } from '../helpers/order-fixtures.js';
import { APP_SHELL, STOREFRONT_ROUTES, textsKey } from '../helpers/bundle.js';

/**
 * The language in the address (contract section 20): every storefront page under /de, /fr and /es
 * drawn, cached and described as its English one, in its language (`<html lang>`, the footer's
 * words, prices); canonical and hreflang alternates; the sitemap in every language; `/` sending a
 * visitor to the language of their cookie or browser; the page cache keeping languages apart; the
 * console in English.
 */

const SITE = 'https://cards.example';
let app: TestApp;
let admin: string;
let shop: Shop;
let categoryId: number;
let postSlug: string;

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  html: string;
}

/** A request as a browser sends it, redirects not followed, the body decompressed. */
function get(pathname: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(app.url + pathname, { headers: { accept: 'text/html', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const plain = !body.length ? body : encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
        resolve({ status: res.statusCode!, headers: res.headers, html: plain.toString() });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const langOf = (html: string) => /<html lang="([^"]+)">/.exec(html)?.[1];
const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'));
const pagesServed = () => app.cachedReads!.stats.served.page;
/** The footer's first link in each language. */
const FOOTER = { en: 'Membership', de: 'Mitgliedschaft', fr: 'Abonnement', es: 'Membresía' };

beforeAll(async () => {
  app = await startTestApp({ publicUrl: SITE });
  admin = await app.login();
  shop = await seedShop(app, admin);
  categoryId = (await (await app.request(`/api/products/${shop.cardId}`)).json()).product.category_id;
  const post = await app.request('/api/blog', { method: 'POST', token: admin, json: { title: 'Cards for spring', body: 'New songs.', excerpt: 'Spring', status: 'published' } });
  postSlug = (await post.json()).slug;
});
afterAll(async () => {
  await app?.stop();
});

const PAGES = () => ['/', '/shop', `/shop?category=${categoryId}`, `/product/${shop.cardId}`, '/blog', `/blog/${postSlug}`, '/developers'];
const at = (locale: string, path: string) => (locale === 'en' ? path : path === '/' ? `/${locale}` : `/${locale}${path}`);

describe('pages in every language', () => {
  it('draws every storefront page at its address in each language, in that language, with its data', async () => {
    for (const locale of ['en', 'de', 'fr', 'es'] as const) {
      for (const path of PAGES()) {
        const page = await get(at(locale, path), { 'accept-language': 'en' });
        expect(page.status, at(locale, path)).toBe(200);
        expect(langOf(page.html), at(locale, path)).toBe(locale);
        // Drawn by the server, its first data inlined, the footer in the page's words.
        expect(rootOf(page.html), at(locale, path)).toContain(`>${FOOTER[locale]}<`);
        expect(page.html, at(locale, path)).toContain('id="initial-state"');
      }
    }
  });

  it("preloads the page's texts with its code (the app's part of the language's catalogue and the screen's), and none on an English page", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../web/dist/.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
    const texts = (module: string, locale: string) => `/${manifest[textsKey(module, locale)]!.file}`;
    const preloaded = (html: string) => [...html.matchAll(/data-preload="([^"]*)"|<link rel="modulepreload" crossorigin href="([^"]+)">/g)].flatMap((m) => (m[1] ?? m[2]!).split(' '));
    const textsIn = (hrefs: string[]) => hrefs.filter((href) => /\.(de|fr|es)-[\w-]+\.js$/.test(href)).sort();
    for (const locale of ['de', 'fr', 'es']) {
      // A page the server draws (its scripts start once it has painted), with its screen's texts; and one the browser draws.
      expect(textsIn(preloaded((await get(`/${locale}/product/${shop.cardId}`)).html))).toEqual([texts(APP_SHELL, locale), texts(STOREFRONT_ROUTES['/product/{id}']!, locale)].sort());
      expect(textsIn(preloaded((await get(`/${locale}/cart`)).html))).toEqual([texts(APP_SHELL, locale)]);
    }
    for (const pathname of [`/product/${shop.cardId}`, '/cart']) expect(textsIn(preloaded((await get(pathname)).html))).toEqual([]);
  });

  it('writes prices as the language writes them', async () => {
    const english = await get(`/product/${shop.cardId}`);
    expect(rootOf(english.html)).toContain('$4.50');
    const german = await get(`/de/product/${shop.cardId}`);
    expect(rootOf(german.html)).toMatch(/4,50\s\$/u);
    expect(rootOf(german.html)).not.toContain('$4.50');
  });

  it('answers an unknown subject with 404 in the language of its address, and the shop under construction alike', async () => {
    const missing = await get('/de/product/999999');
    expect(missing.status).toBe(404);
    expect(langOf(missing.html)).toBe('de');
    expect((await get('/fr/blog/no-such-post')).status).toBe(404);
    // A page the browser draws (the cart) is the shell in the address's language.
    const cart = await get('/es/cart');
    expect(cart.status).toBe(200);
    expect(langOf(cart.html)).toBe('es');
    expect((await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: true } })).status).toBe(200);
    try {
      const closed = await get('/de/shop');
      expect(closed.status).toBe(200);
      expect(langOf(closed.html)).toBe('de');
      expect(closed.html).not.toContain('Balloon Birthday');
    } finally {
      await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: false } });
    }
  });

  it('names its canonical address in its language and its alternates in every language', async () => {
    const head = headOf((await get(`/de/shop?category=${categoryId}&utm_source=mail`)).html);
    expect(head).toContain(`<link rel="canonical" href="${SITE}/de/shop?category=${categoryId}" />`);
    for (const [hreflang, href] of [['en', `/shop?category=${categoryId}`], ['de', `/de/shop?category=${categoryId}`], ['fr', `/fr/shop?category=${categoryId}`], ['es', `/es/shop?category=${categoryId}`], ['x-default', `/shop?category=${categoryId}`]]) {
      expect(head).toContain(`<link rel="alternate" hreflang="${hreflang}" href="${SITE}${href}" />`);
    }
    const home = headOf((await get('/fr')).html);
    expect(home).toContain(`<link rel="canonical" href="${SITE}/fr" />`);
    expect(home).toContain(`<link rel="alternate" hreflang="x-default" href="${SITE}/" />`);
    expect(headOf((await get('/', { 'accept-language': 'en' })).html)).toContain(`<link rel="canonical" href="${SITE}/" />`);
  });
});

describe('the sitemap', () => {
  it('lists every page in every language, each naming the others', async () => {
    const xml = await (await app.request('/sitemap.xml')).text();
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const urls = [...xml.matchAll(/<url>(.*?)<\/url>/g)].map((m) => m[1]!);
    const locs = urls.map((url) => /<loc>([^<]*)<\/loc>/.exec(url)![1]);
    for (const path of PAGES()) {
      for (const locale of ['en', 'de', 'fr', 'es']) expect(locs).toContain(`${SITE}${at(locale, path).replace('&', '&amp;')}`);
    }
    expect(locs).toHaveLength(new Set(locs).size);
    const german = urls.find((url) => url.includes(`<loc>${SITE}/de/product/${shop.cardId}</loc>`))!;
    expect(german).toMatch(/<lastmod>[^<]+<\/lastmod>/);
    for (const [hreflang, path] of [['en', ''], ['de', '/de'], ['fr', '/fr'], ['es', '/es'], ['x-default', '']]) {
      expect(german).toContain(`<xhtml:link rel="alternate" hreflang="${hreflang}" href="${SITE}${path}/product/${shop.cardId}"/>`);
    }
  });
});

describe('the first visit to /', () => {
  it("goes to the browser's language when the shop speaks it and it is not English", async () => {
    const german = await get('/', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' });
    expect(german.status).toBe(302);
    expect(german.headers.location).toBe('/de');
    expect(german.headers.vary).toMatch(/Accept-Language/);
    expect(german.headers.vary).toMatch(/Cookie/);
    expect((await get('/?utm_source=mail', { 'accept-language': 'es' })).headers.location).toBe('/es?utm_source=mail');
    expect((await get('/', { 'accept-language': 'it, fr;q=0.5, es;q=0.8' })).headers.location).toBe('/es');
    for (const english of ['en-US,en;q=0.9,de;q=0.8', 'it, ja', '']) {
      const page = await get('/', english ? { 'accept-language': english } : {});
      expect(page.status, english).toBe(200);
      expect(langOf(page.html)).toBe('en');
    }
  });

  it('goes to the language of the lang cookie, whatever the browser asks', async () => {
    expect((await get('/', { 'accept-language': 'de', cookie: 'theme=light; lang=fr' })).headers.location).toBe('/fr');
    const english = await get('/', { 'accept-language': 'de', cookie: 'lang=en' });
    expect(english.status).toBe(200);
    expect(langOf(english.html)).toBe('en');
    // A cookie the shop does not speak is no choice: the browser's language decides.
    expect((await get('/', { 'accept-language': 'de', cookie: 'lang=xx' })).headers.location).toBe('/de');
  });

  it('only / chooses: other English addresses stay English', async () => {
    for (const path of ['/shop', `/product/${shop.cardId}`, '/blog']) {
      const page = await get(path, { 'accept-language': 'de', cookie: 'lang=de' });
      expect(page.status, path).toBe(200);
      expect(langOf(page.html), path).toBe('en');
    }
  });
});

describe('the page cache', () => {
  it('keeps each language apart: a German page is never served to an English request, nor the other way', async () => {
    for (const path of ['/shop', `/product/${shop.cardId}`, '/blog']) {
      // Each address twice: the second time from the cache.
      for (const locale of ['en', 'de', 'en', 'de', 'fr']) {
        const before = pagesServed();
        const page = await get(at(locale, path));
        expect(langOf(page.html), `${at(locale, path)}`).toBe(locale);
        expect(rootOf(page.html)).toContain(`>${FOOTER[locale as 'en']}<`);
        if (locale !== 'fr') expect(pagesServed() - before, at(locale, path)).toBeLessThanOrEqual(1);
      }
      const cached = pagesServed();
      expect(langOf((await get(at('de', path))).html)).toBe('de');
      expect(pagesServed()).toBe(cached + 1);
      expect(langOf((await get(path)).html)).toBe('en');
      expect(pagesServed()).toBe(cached + 2);
    }
  });

  it('never gives the kept English home page to a visitor who is sent to their language', async () => {
    await get('/', { 'accept-language': 'en' });
    const before = pagesServed();
    const english = await get('/', { 'accept-language': 'en' });
    expect(pagesServed()).toBe(before + 1);
    expect(english.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie');
    expect(langOf(english.html)).toBe('en');
    const german = await get('/', { 'accept-language': 'de' });
    expect(german.status).toBe(302);
    const chosen = await get('/', { 'accept-language': 'en', cookie: 'lang=es' });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.location).toBe('/es');
    expect(pagesServed()).toBe(before + 1);
    // The German home page is kept as German pages are: the same to everyone.
    await get('/de');
    expect((await get('/de', { 'accept-language': 'fr' })).headers.vary).toBe('Accept-Encoding, Cookie');
  });
});

describe('the console', () => {
  it('goes to its one, English, address from under a prefix', async () => {
    for (const [asked, english] of [
      ['/de/admindash', '/admindash'],
      ['/de/admindash?view=orders&order=3', '/admindash?view=orders&order=3'],
      ['/fr/settings', '/settings'],
      ['/es/admin/blog/new', '/admin/blog/new'],
      ['/de/admindash/products/4', '/admindash/products/4'],
    ]) {
      const res = await get(asked!);
      expect(res.status, asked).toBe(302);
      expect(res.headers.location, asked).toBe(english);
    }
    const console = await get('/admindash');
    expect(console.status).toBe(200);
    expect(langOf(console.html)).toBe('en');
  });
});

describe("a page's head", () => {
  it('says its title, description and schema.org data in its language, a product by its translated name', async () => {
    expect((await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token: admin, json: { translations: [{ locale: 'de', name: 'Luftballon-Geburtstag', description: 'Eine Karte voller Luftballons.' }] } })).status).toBe(200);
    const german = headOf((await get(`/de/product/${shop.cardId}`)).html);
    expect(german).toMatch(/<title>Luftballon-Geburtstag · [^<]+<\/title>/);
    expect(german).toContain('<meta name="description" content="Eine Karte voller Luftballons." />');
    expect(german).toContain('"inLanguage":"de"');
    expect(german).toContain(`"url":"${SITE}/de/product/${shop.cardId}"`);
    // A language without a translation says the English name; English never says the German one.
    expect(headOf((await get(`/fr/product/${shop.cardId}`)).html)).not.toContain('Luftballon');
    expect(headOf((await get(`/product/${shop.cardId}`)).html)).not.toContain('Luftballon');

    expect(headOf((await get('/fr/shop')).html)).toMatch(/<title>Boutique · [^<]+<\/title>/);
    expect(headOf((await get('/es/blog')).html)).toContain('Historias, ideas y novedades de');
    expect(headOf((await get('/de')).html)).toContain('E-Grußkarten mit Liedern und Bildern');
    expect(headOf((await get('/')).html)).toContain('e-greeting cards with songs and pictures');
  });
});
