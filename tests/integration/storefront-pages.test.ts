import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { png, uploadRest } from '../helpers/media-fixtures.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { renderAppShell, webDistDir } from '../../gateway/src/web-client.js';
import { renderPage } from '../../gateway/src/server-render.js';

/**
 * The storefront pages as the server sends them: head tags and structured data in the HTML,
 * the first screen's data inlined (never a draft, never while under construction), sitemap and
 * robots, compressed and cached assets, and the responsive sizes of images.
 */

/** The shop's configured address: every absolute link on its pages starts with it, whatever Host a request names. */
const SITE = 'https://cards.example';
let app: TestApp;
let admin: string;
let category: number;
let product: { id: number };
let image: { id: number; file_path: string; thumbnail_path: string };

beforeAll(async () => {
  app = await startTestApp({ publicUrl: SITE });
  admin = await app.login();
  category = await restCategory(app, admin, 'Birthday <Cards> & "More"');
  const folder = (await (await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: 'Pages', parent_id: null } })).json()) as { id: number };
  const res = await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'cover.png', data: await png(1200, 900) }], admin);
  [image] = await res.json();
  const created = await app.request('/api/products', {
    method: 'POST',
    token: admin,
    json: {
      product: {
        name: 'Album $& </script><b>',
        description: 'Songs for a $1 summer "day" </script> & more.',
        sku: 'ALB-1',
        price: 12.5,
        category_id: category,
        product_type_id: 2,
        main_image_id: image.id,
      },
    },
  });
  expect(created.status).toBe(201);
  product = (await created.json()).product;
  for (const json of [
    { title: 'Spring is here', body: 'New cards.', excerpt: 'Fresh designs', status: 'published' },
    { title: 'Secret plans', body: 'Not yet.', excerpt: 'Hidden', status: 'draft' },
  ]) {
    expect((await app.request('/api/blog', { method: 'POST', json, token: admin })).status).toBe(201);
  }
});
afterAll(async () => {
  await app?.stop();
});

const page = async (pathname: string, headers: Record<string, string> = {}) => {
  const res = await app.request(pathname, { headers: { accept: 'text/html', ...headers } });
  return { res, html: await res.text() };
};

function headOf(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

function initialState(html: string): any {
  const match = /<script type="application\/json" id="initial-state">(.*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

/** What the server drew into #root (before the page's initial state). */
function rootOf(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.indexOf('<script type="application/json" id="initial-state">');
  expect(start).toBeGreaterThan(0);
  return html.slice(start, end > start ? end : undefined);
}

const meta = (html: string, attr: 'name' | 'property', key: string) => new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(html)?.[1];

describe('a product page', () => {
  it('carries its title, description, canonical address, Open Graph, Twitter and Product data, every value escaped', async () => {
    const { res, html } = await page(`/product/${product.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=5');
    const head = headOf(html);
    // `$&` and `$1` are text, never replacement patterns; `</script>` never closes an element.
    expect(head).toContain('<title>Album $&amp; &lt;/script&gt;&lt;b&gt; · Art &amp; Song Cards</title>');
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(meta(head, 'name', 'description')).toBe('Songs for a $1 summer &quot;day&quot; &lt;/script&gt; &amp; more.');
    expect(head.match(/<meta name="description"/g)).toHaveLength(1);
    expect(head).toContain(`<link rel="canonical" href="${SITE}/product/${product.id}" />`);
    expect(meta(head, 'property', 'og:type')).toBe('product');
    expect(meta(head, 'property', 'og:image')).toBe(`${SITE}/api/${image.file_path}`);
    expect(meta(head, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(head).not.toContain('</script><b>');
    const [data] = jsonLd(head);
    expect(data).toMatchObject({
      '@type': 'Product',
      name: 'Album $& </script><b>',
      sku: 'ALB-1',
      category: 'Birthday <Cards> & "More"',
      offers: { '@type': 'Offer', price: '12.50', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    // The main picture is preloaded with its sizes, ahead of the scripts that draw it.
    expect(head).toMatch(/<link rel="preload" as="image" href="\/api\/uploads\/[^"]+\.thumb\.webp" imagesrcset="[^"]+ 320w, [^"]+\.w640\.webp 640w, [^"]+\.w1024\.webp 1024w, [^"]+\.w1600\.webp 1200w" imagesizes="[^"]+" fetchpriority="high" \/>/);
  });

  it('carries the product as the client asks for it, so the page paints without a round trip', async () => {
    const { html } = await page(`/product/${product.id}`);
    const state = initialState(html);
    expect(state.settings).toEqual({ underConstructionMode: false, isAdmin: false });
    expect(state.queries).toHaveLength(1);
    expect(state.queries[0]).toMatchObject({ operationName: 'StoreProduct', variables: { id: product.id, locale: 'en' }, data: { product: { __typename: 'Product', id: product.id, name: 'Album $& </script><b>' } } });
    expect(html).not.toMatch(/<\/script><b>/);
  });

  it('answers an unknown product with 404 and the app shell, describing nothing', async () => {
    const { res, html } = await page('/product/999999');
    expect(res.status).toBe(404);
    expect(jsonLd(html)).toEqual([]);
    expect(initialState(html).queries).toBeUndefined();
    expect((await page('/product/abc')).res.status).toBe(404);
  });
});

describe('the shop, a category, the home page and the blog', () => {
  it('describes the shop and a category, with the first page of products and the categories inlined', async () => {
    const shop = await page('/shop');
    expect(headOf(shop.html)).toContain('<title>Shop · Art &amp; Song Cards</title>');
    expect(headOf(shop.html)).toContain(`<link rel="canonical" href="${SITE}/shop" />`);
    const state = initialState(shop.html);
    expect(state.queries.map((q: any) => q.operationName)).toEqual(['ShopProducts', 'ShopCategories', 'ShopProductTypes']);
    expect(state.queries[0].variables).toEqual({ query: null, categoryId: null, first: 24, locale: 'en' });
    expect(state.queries[0].data.searchProducts.edges[0].node).toMatchObject({ id: product.id, mainImage: { srcSet: expect.stringContaining('.w640.webp 640w') } });
    // The types name album and collection tiles; a sorted or filtered shop is the shopper's own (fetched, not inlined, not kept).
    expect(state.queries[2].data.productTypes.map((t: { name: string }) => t.name)).toEqual(['E-Greeting Card', 'Music Album', 'Image Collection', 'Gift Card', 'Gift Membership']);
    for (const browsed of ['/shop?sort=price_desc', '/shop?type=2', '/shop?min_price=5&max_price=15']) {
      expect(initialState((await page(browsed)).html).queries.map((q: any) => q.operationName)).toEqual(['ShopCategories', 'ShopProductTypes']);
    }

    const inCategory = await page(`/shop?category=${category}`);
    expect(headOf(inCategory.html)).toContain('<title>Birthday &lt;Cards&gt; &amp; &quot;More&quot; · Shop · Art &amp; Song Cards</title>');
    expect(headOf(inCategory.html)).toContain(`<link rel="canonical" href="${SITE}/shop?category=${category}" />`);
    expect(jsonLd(inCategory.html)[0]).toMatchObject({ '@type': 'CollectionPage', mainEntity: { numberOfItems: 1, itemListElement: [{ url: `${SITE}/product/${product.id}` }] } });
    expect(initialState(inCategory.html).queries[0].variables).toEqual({ query: null, categoryId: category, first: 24, locale: 'en' });
    expect((await page('/shop?category=999999')).res.status).toBe(404);
  });

  it('inlines the featured cards and categories on the home page', async () => {
    const { html } = await page('/');
    expect(headOf(html)).toContain(`<link rel="canonical" href="${SITE}/" />`);
    expect(jsonLd(html)[0]['@type']).toBe('WebSite');
    expect(initialState(html).queries.map((q: any) => [q.operationName, q.variables])).toEqual([
      ['ShopProducts', { productTypeId: 1, first: 8, locale: 'en' }],
      ['ShopCategories', {}],
    ]);
  });

  it('lists published posts only on /blog and describes a post, never a draft, even to an admin token', async () => {
    const blog = await page('/blog');
    const posts = initialState(blog.html).queries[0].data.blogPosts.edges.map((e: any) => e.node.title);
    expect(posts).toEqual(['Spring is here']);
    expect(blog.html).not.toContain('Secret plans');
    expect(jsonLd(blog.html)[0]).toMatchObject({ '@type': 'Blog', blogPost: [{ headline: 'Spring is here' }] });

    const post = await page('/blog/spring-is-here');
    expect(jsonLd(post.html)[0]).toMatchObject({ '@type': 'BlogPosting', headline: 'Spring is here', url: `${SITE}/blog/spring-is-here` });
    expect(meta(headOf(post.html), 'property', 'og:type')).toBe('article');

    const draft = await page('/blog/secret-plans', { authorization: `Bearer ${admin}` });
    expect(draft.res.status).toBe(404);
    expect(draft.html).not.toContain('Secret plans');
    const adminBlog = await page('/blog', { authorization: `Bearer ${admin}` });
    expect(adminBlog.html).not.toContain('Secret plans');
    expect(initialState(adminBlog.html).settings.isAdmin).toBe(false);
  });

  it('while under construction, says nothing about the catalogue and tells the client so', async () => {
    expect((await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: true } })).status).toBe(200);
    try {
      for (const pathname of ['/', '/shop', `/product/${product.id}`, '/blog']) {
        const { res, html } = await page(pathname, { authorization: `Bearer ${admin}` });
        expect(res.status, pathname).toBe(200);
        // The shop's name and look stay (the notice is headed by them); nothing of the catalogue does.
        expect(initialState(html), pathname).toEqual({ settings: { underConstructionMode: true, isAdmin: false }, shop: expect.objectContaining({ name: 'Art & Song Cards', announcement: null }) });
        expect(html, pathname).not.toContain('Album');
        expect(jsonLd(html), pathname).toEqual([]);
      }
      expect((await app.request('/sitemap.xml')).status).toBe(503);
    } finally {
      await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: false } });
    }
  });
});

describe('the first screen, drawn by the server', () => {
  it('writes the product page into #root: its name (escaped), price and the navigation', async () => {
    const { res, html } = await page(`/product/${product.id}`);
    expect(res.status).toBe(200);
    const root = rootOf(html);
    expect(root).toContain('<h1>Album $&amp; &lt;/script&gt;&lt;b&gt;</h1>');
    expect(root).toContain('$12.50');
    expect(root).toContain('class="bp6-navbar top-navbar"');
    expect(root).toContain('Sign in');
    expect(root).not.toMatch(/<\/script><b>/);
  });

  it('writes the shop, a category, the home page and the blog into #root', async () => {
    const shop = rootOf((await page('/shop')).html);
    expect(shop).toContain('<h1>Shop</h1>');
    expect(shop).toContain('Album $&amp; &lt;/script&gt;&lt;b&gt;');
    expect(shop).toContain('Birthday &lt;Cards&gt; &amp;');
    expect(shop).toContain(`href="/product/${product.id}"`);

    const inCategory = rootOf((await page(`/shop?category=${category}`)).html);
    expect(inCategory).toMatch(/<h1>Birthday &lt;Cards&gt; &amp; (&quot;|")More(&quot;|")<\/h1>/);

    const home = rootOf((await page('/')).html);
    expect(home).toContain('Beautiful greetings without the wait.');
    expect(home).toMatch(/<h1 id="hero-title" class="hero-title">Art &amp; Song Cards<\/h1>/);
    expect(home).toContain(`href="/shop?category=${category}"`);

    const blog = rootOf((await page('/blog')).html);
    expect(blog).toContain('Spring is here');
    expect(blog).not.toContain('Secret plans');

    // A post's page, with the post's data inlined for hydration (under the variables its address gives).
    const postPage = (await page('/blog/spring-is-here')).html;
    const post = rootOf(postPage);
    expect(post).toContain('Spring is here');
    expect(post).toContain('New cards.');
    expect(initialState(postPage).queries).toEqual([{ operationName: 'BlogPost', variables: { idOrSlug: 'spring-is-here' }, data: expect.objectContaining({ blogPost: expect.objectContaining({ title: 'Spring is here' }) }) }]);
    // A draft is never drawn, even for a request carrying an admin's token.
    const draft = await page('/blog/secret-plans', { authorization: `Bearer ${admin}` });
    expect(draft.html).toContain('<div id="root"></div>');
  });

  it('draws the page in the theme of the theme cookie, dark by default', async () => {
    const dark = (await page('/shop')).html;
    expect(dark).toContain('<body class="bp6-dark">');
    expect(rootOf(dark)).toContain('aria-label="Switch to light theme"');
    const light = (await page('/shop', { cookie: 'other=1; theme=light' })).html;
    expect(light).toContain('<body>');
    expect(light).toContain('<meta name="theme-color" content="#f6f7f9" />');
    expect(rootOf(light)).toContain('aria-label="Switch to dark theme"');
  });

  it('draws the anonymous view even for a request carrying an admin token', async () => {
    const root = rootOf((await page('/blog', { authorization: `Bearer ${admin}` })).html);
    expect(root).toContain('Sign in');
    expect(root).not.toContain('Secret plans');
  });

  it('leaves #root empty for an unknown product (404) and while under construction, for the browser to draw', async () => {
    const missing = await page('/product/999999');
    expect(missing.res.status).toBe(404);
    expect(missing.html).toContain('<div id="root"></div>');

    expect((await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: true } })).status).toBe(200);
    try {
      for (const pathname of ['/', '/shop', `/product/${product.id}`, '/blog']) {
        const { html } = await page(pathname);
        expect(html, pathname).toContain('<div id="root"></div>');
        expect(html, pathname).not.toContain('Album');
      }
    } finally {
      await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: false } });
    }
    expect(rootOf((await page('/shop')).html)).toContain('<h1>Shop</h1>');
  });

  it('sends the page for the browser alone to draw when there is no server renderer', async () => {
    const state = { settings: { underConstructionMode: false, isAdmin: false } };
    const log = { warn: () => undefined };
    expect(await renderPage(path.join(os.tmpdir(), 'no-such-web', 'dist'), '/shop', state, log)).toBeNull();
    const shell = renderAppShell('<head></head><body><div id="root"></div></body>', { state, root: null });
    expect(shell).toContain('<div id="root"></div>');
  });

  it('moves the resources React found while drawing into the head', () => {
    const shell = renderAppShell('<head>\n</head><body><div id="root"></div></body>', { root: '<link rel="preload" as="image" href="/a.svg"/><div class="app-shell">x</div>' });
    expect(shell).toContain('<link rel="preload" as="image" href="/a.svg"/>\n  </head>');
    expect(shell).toContain('<div id="root"><div class="app-shell">x</div></div>');
  });
});

describe('the developers page', () => {
  it('is drawn by the server with its head, every section in #root, and kept for every visitor', async () => {
    const { res, html } = await page('/developers');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=5');
    const head = headOf(html);
    expect(head).toContain('<title>Developers · Art &amp; Song Cards</title>');
    expect(meta(head, 'name', 'description')).toMatch(/^Build on the shop’s API: API keys and scopes/);
    expect(head).toContain(`<link rel="canonical" href="${SITE}/developers" />`);
    expect(jsonLd(head)[0]).toMatchObject({ '@type': 'TechArticle', url: `${SITE}/developers`, publisher: { name: 'Art & Song Cards' } });
    const root = rootOf(html);
    for (const id of ['authentication', 'scopes', 'pagination', 'errors', 'rate-limits', 'webhooks', 'explorer']) expect(root, id).toContain(`id="${id}"`);
    // Its scope table is the shared rules' list, the one keys are checked against.
    expect(root).toContain('<code>customers:read</code>');
    expect(root).toContain('<code>GET /api/admin/customers/{id}</code>');
    // The second visitor gets the kept page.
    const again = await page('/developers?utm_source=newsletter');
    expect(again.res.headers.get('etag')).toBe(res.headers.get('etag'));
  });
});

describe('sitemap and robots', () => {
  it('lists the home page, the shop, categories, products and published posts, in every language', async () => {
    const res = await app.request('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    const pages = ['/', '/shop', `/shop?category=${category}`, `/product/${product.id}`, '/blog', '/blog/spring-is-here', '/developers'];
    expect(locs).toEqual(pages.flatMap((page) => ['', '/de', '/fr', '/es'].map((prefix) => `${SITE}${prefix && page === '/' ? prefix : prefix + page}`)));
  });

  it('points crawlers at the sitemap and keeps them out of the admin console and the API', async () => {
    const text = await (await app.request('/robots.txt')).text();
    expect(text).toContain(`Sitemap: ${SITE}/sitemap.xml`);
    expect(text).toMatch(/^Disallow: \/admindash$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
  });

  it('builds every absolute address from the configured public URL, never from the Host header or forwarded headers', async () => {
    // Publicly cacheable answers: a forged Host must not put its links into them.
    const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'gopher' };
    for (const pathname of ['/blog/rss.xml', '/sitemap.xml', '/robots.txt', '/', `/product/${product.id}`, '/blog/spring-is-here']) {
      const { status, body } = await rawGet(app.url, pathname, { ...forged, accept: 'text/html' });
      expect(status, pathname).toBe(200);
      expect(body, pathname).not.toContain('evil.example');
      expect(body, pathname).not.toContain('gopher');
      expect(body, pathname).toContain(`${SITE}/`);
    }
  });
});

/** A GET with exactly these headers (fetch would not send a Host of the caller's choosing). */
function rawGet(base: string, pathname: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname, port, path: pathname, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('the web client files', () => {
  const dist = webDistDir();
  const mainScript = () => /src="\/(assets\/main-[^"]+\.js)"/.exec(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))![1]!;

  it('loads the boot script of a drawn page from an address made from its content, cached for good like every other script', async () => {
    const html = await (await fetch(`${app.url}/shop`, { headers: { accept: 'text/html' } })).text();
    const href = /<script src="(\/boot\.[0-9a-f]{16}\.js)" defer data-entry=/.exec(html)?.[1];
    expect(href, 'the boot script of a drawn page').toBeDefined();
    const source = fs.readFileSync(path.join(dist, 'boot.js'));
    expect(href).toBe(`/boot.${crypto.createHash('sha256').update(source).digest('hex').slice(0, 16)}.js`);
    const br = await fetch(`${app.url}${href}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(Buffer.from(await br.arrayBuffer()).equals(source)).toBe(true);
    const plain = await fetch(`${app.url}${href}`, { headers: { 'accept-encoding': 'identity' } });
    expect(Buffer.from(await plain.arrayBuffer()).equals(source)).toBe(true);
    // Another build's boot script is not this one under its name.
    const other = await fetch(`${app.url}/boot.0123456789abcdef.js`);
    expect(other.status).toBe(404);
    expect(other.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
  });

  it('sends scripts brotli- or gzip-compressed as built, cached for good under their hashed names', async () => {
    const file = mainScript();
    const br = await fetch(`${app.url}/${file}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // fetch decodes: the bytes are the script itself.
    expect(Buffer.from(await br.arrayBuffer()).equals(fs.readFileSync(path.join(dist, file)))).toBe(true);

    const gz = await fetch(`${app.url}/${file}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const plain = await fetch(`${app.url}/${file}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Number(plain.headers.get('content-length'))).toBe(fs.statSync(path.join(dist, file)).size);
  });

  it('revalidates unhashed files, lets shared caches keep a page for seconds, and compresses the page itself', async () => {
    expect((await app.request('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
    const res = await fetch(`${app.url}/shop`, { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=5');
    expect(await res.text()).toContain('id="initial-state"');
  });
});

describe('responsive image sizes', () => {
  const name = () => path.basename(image.file_path);

  it('made after upload: WebP copies at 640, 1024 and the original width, listed in srcSet', async () => {
    const { body } = await app.graphql(`query { mediaFile(id: ${image.id}) { srcSet width height } }`, {}, admin);
    expect(body.data.mediaFile.srcSet).toBe(
      `/api/${image.thumbnail_path} 320w, /api/uploads/${name()}.w640.webp 640w, /api/uploads/${name()}.w1024.webp 1024w, /api/uploads/${name()}.w1600.webp 1200w`,
    );
    for (const [width, expected] of [[640, 640], [1024, 1024], [1600, 1200]] as const) {
      // Made in the background, without a request for them.
      await expect.poll(() => fs.existsSync(path.join(app.dataDir, 'uploads', `${name()}.w${width}.webp`)), { timeout: 20_000 }).toBe(true);
      const res = await app.request(`/api/uploads/${name()}.w${width}.webp`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(expected);
    }
  });

  it('made on first request for an image stored before (or whose copy went missing); unknown names and widths are 404', async () => {
    const file = path.join(app.dataDir, 'uploads', `${name()}.w640.webp`);
    fs.rmSync(file);
    const res = await app.request(`/api/uploads/${name()}.w640.webp`);
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(640);
    expect(fs.existsSync(file)).toBe(true);
    expect((await app.request(`/api/uploads/${name()}.w700.webp`)).status).toBe(404);
    expect((await app.request('/api/uploads/nothing-here.png.w640.webp')).status).toBe(404);
  });

  it('go with their image when it is deleted', async () => {
    const folder = (await (await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: 'Doomed', parent_id: null } })).json()) as { id: number };
    const [doomed] = await (await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'doomed.png', data: await png(800, 600) }], admin)).json();
    const key = path.basename(doomed.file_path);
    await expect.poll(() => fs.existsSync(path.join(app.dataDir, 'uploads', `${key}.w1024.webp`)), { timeout: 20_000 }).toBe(true);
    expect((await app.request(`/api/media/files/${doomed.id}`, { method: 'DELETE', token: admin })).status).toBeLessThan(300);
    expect(fs.readdirSync(path.join(app.dataDir, 'uploads')).filter((f) => f.startsWith(key))).toEqual([]);
  });
});
