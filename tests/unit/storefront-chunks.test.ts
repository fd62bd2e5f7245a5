import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { ECARD_SCRIPT } from '../../server/src/modules/ecard/ecard-page.js';
import { ACCOUNT_ROUTES, APP_SHELL, DIST, KEPT_APART, LANGUAGE_GOAL_KB, LANGUAGES, PAGE_GOAL_KB, STOREFRONT_ROUTES, compressedKb, languageFiles, readManifest, routeFiles, staticClosure, textsKey } from '../helpers/bundle.js';

/**
 * The built web client (npm test builds it first): no storefront page loads the admin console,
 * the blog editor or the GraphQL explorer (GraphiQL and Monaco), which stay in chunks of their own;
 * a first visit fetches a handful of scripts (web/vite/storefront-chunks.ts), carrying only the
 * GraphQL documents of the storefront (web/vite/graphql-documents.ts); in German, French or Spanish
 * it loads the texts of its app and screen, not the whole catalogue (web/vite/catalogue-parts.ts);
 * and no storefront page, the e-card page included, loads more than PAGE_GOAL_KB of script as sent.
 */
describe('storefront chunks', () => {
  const manifest = readManifest();
  const text = (file: string) => fs.readFileSync(path.join(DIST, file), 'utf8');

  it.each(KEPT_APART)('$what has chunks of its own, recognisable by their text', ({ module, marker }) => {
    expect(manifest[module], module).toBeDefined();
    expect(manifest[module]!.isEntry || manifest[module]!.isDynamicEntry).toBe(true);
    const own = [...staticClosure(manifest, module)].map((key) => manifest[key]!.file);
    expect(own.some((file) => text(file).toLowerCase().includes(marker.toLowerCase()))).toBe(true);
  });

  it.each(Object.entries(STOREFRONT_ROUTES))('a first visit to %s loads none of them', (_route, screen) => {
    expect(manifest[screen], screen).toBeDefined();
    const { js } = routeFiles(manifest, screen);
    for (const { what, module, marker } of KEPT_APART) {
      expect(js, what).not.toContain(manifest[module]!.file);
      for (const file of js) expect(text(file).toLowerCase().includes(marker.toLowerCase()), `${what} in ${file}`).toBe(false);
    }
    for (const file of js) expect(text(file), file).not.toMatch(/monaco/i);
  });

  it.each(Object.entries(STOREFRONT_ROUTES))('a first visit to %s fetches a handful of scripts', (_route, screen) => {
    const { js } = routeFiles(manifest, screen);
    // The entry, the runtime, React, Apollo, the shell, the page and what only it uses; a cart or checkout screen a few more.
    expect(js.length).toBeLessThanOrEqual(10);
    expect(js.length).toBeGreaterThanOrEqual(5);
  });

  it.each(Object.entries(STOREFRONT_ROUTES))(`a first visit to %s loads at most ${PAGE_GOAL_KB} kB of JavaScript (brotli, as the server sends it)`, (_route, screen) => {
    const total = routeFiles(manifest, screen).js.reduce((sum, file) => sum + compressedKb(file).br, 0);
    expect(total).toBeLessThanOrEqual(PAGE_GOAL_KB);
  });

  it(`the e-card page's one script is within ${PAGE_GOAL_KB} kB too (compressed as the server sends it)`, () => {
    const br = zlib.brotliCompressSync(Buffer.from(ECARD_SCRIPT)).length / 1024;
    expect(br).toBeGreaterThan(0);
    expect(br).toBeLessThanOrEqual(PAGE_GOAL_KB);
  });

  it('a first visit carries no ICU message parser: the texts come parsed (web/vite/precompiled-messages.ts)', () => {
    const { js } = routeFiles(manifest, STOREFRONT_ROUTES['/']!);
    // The parser's own error, and its number-skeleton parser's.
    for (const file of js) expect(text(file), file).not.toMatch(/EXPECT_ARGUMENT_CLOSING_BRACE|Number skeleton cannot be empty/);
  });

  it.each(Object.entries(STOREFRONT_ROUTES))('a first visit to %s carries no admin GraphQL document', (_route, screen) => {
    const { js } = routeFiles(manifest, screen);
    const code = js.map(text).join('\n');
    // Operations of the admin console and the blog editor, by name as their documents carry it.
    for (const operation of ['AdminOrders', 'CreateProduct', 'DeleteMediaFolder', 'SalesSummary', 'CreateBlogPost']) {
      expect(code, operation).not.toMatch(new RegExp(`value:\\s*[\`"']${operation}[\`"']`));
    }
    // The client preset's map of every document's text is not there either.
    expect(code).not.toContain('mutation CreateProduct');
  });

  it.each(LANGUAGES)('the %s catalogue is loaded in parts: the app\'s with the app, each screen\'s with the screen', (language) => {
    expect(manifest[textsKey(APP_SHELL, language)], 'the app\'s part').toBeDefined();
    expect(manifest[`src/i18n/messages/${language}.json`], 'the whole catalogue').toBeUndefined();
    // A screen with texts of its own beside the app's has its part (the developers' page has none).
    for (const route of ['/', '/shop', '/product/{id}', '/cart', '/payments', '/order-confirmation/{id}', '/membership']) {
      expect(manifest[textsKey(STOREFRONT_ROUTES[route]!, language)], route).toBeDefined();
    }
  });

  it.each(Object.entries({ ...STOREFRONT_ROUTES, ...ACCOUNT_ROUTES }))(`a first visit to %s loads at most ${LANGUAGE_GOAL_KB} kB more in another language, and no texts in English`, (_route, screen) => {
    expect(routeFiles(manifest, screen).js.filter((file) => /\.(de|fr|es)-[\w-]+\.js$/.test(file))).toEqual([]);
    for (const language of LANGUAGES) {
      const extra = languageFiles(manifest, screen, language);
      expect(extra.length, language).toBeGreaterThanOrEqual(1);
      expect(extra.reduce((sum, file) => sum + compressedKb(file).br, 0), language).toBeLessThanOrEqual(LANGUAGE_GOAL_KB);
    }
  });
});
