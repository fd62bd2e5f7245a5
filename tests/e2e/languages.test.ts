import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';
import en from '../../web/src/i18n/messages/en.json';
import de from '../../web/src/i18n/messages/de.json';

const suite = browserSuite();

/** A phone: what most shoppers open the shop on. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe('the shop in the language a shopper chooses, on a phone', () => {
  it('switches to German in the footer, stays German through its links and a reload, and comes back to German at /', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    await seedShop(app, await app.login());
    const context = await newContext(browser, app.url, { ...PHONE, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/');
    const languages = page.getByRole('navigation', { name: 'Language' });
    await expect.poll(() => languages.getByRole('link', { name: 'English' }).getAttribute('aria-current'), { timeout: 10_000 }).toBe('true');
    await page.waitForLoadState('networkidle');

    await languages.getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForURL((url) => url.pathname === '/de');
    const sprachen = page.getByRole('navigation', { name: 'Sprache' });
    await expect.poll(() => sprachen.getByRole('link', { name: 'Deutsch' }).getAttribute('aria-current'), { timeout: 10_000 }).toBe('true');
    expect(await page.locator('.site-footer').getByRole('link', { name: 'Mitgliedschaft' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await sprachen.getByRole('link', { name: 'Français' }).getAttribute('lang')).toBe('fr');
    const cookie = (await context.cookies()).find((c) => c.name === 'lang');
    expect(cookie).toMatchObject({ value: 'de', path: '/', sameSite: 'Lax' });
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);

    // A link of the page stays under /de: the router's base is the language's.
    await page.locator('a[href="/de/shop"]').first().click();
    await page.waitForURL((url) => url.pathname === '/de/shop');
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.locator('.product-tile').first().innerText()).toMatch(/\d,\d\d\s\$/u);
    expect(await page.locator('.site-footer').getByRole('link', { name: 'Mitgliedschaft' }).isVisible()).toBe(true);

    await page.reload();
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/de/shop');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'languages-phone-de-shop');

    // The choice is remembered: the shop's plain address opens in German.
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/de');
    await expect.poll(() => page.getByRole('navigation', { name: 'Sprache' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });

  it('loads the texts of each screen with it: German from the first paint of every screen, from /de to checkout', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url, PHONE);
    await context.addInitScript((albumId) => {
      if (!localStorage.getItem('cart')) localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: albumId, name: 'Summer Songs Album', quantity: 2, personalisation: null }]));
      // Every text the page ever shows, as it is added: an English text drawn for a moment and replaced shows here.
      const drawn: string[] = ((window as unknown as { drawnTexts: string[] }).drawnTexts = []);
      const collect = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) drawn.push(node.textContent ?? '');
        else if (node.nodeType === Node.ELEMENT_NODE) for (const child of node.childNodes) collect(child);
      };
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.type === 'characterData') collect(record.target);
          else record.addedNodes.forEach(collect);
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    }, shop.albumId);
    const page = await context.newPage();
    const texts: string[] = [];
    page.on('request', (request) => {
      const part = /\/assets\/([\w-]+)\.(de|fr|es)-[\w-]+\.js$/.exec(new URL(request.url()).pathname);
      if (part) texts.push(`${part[1]}.${part[2]}`);
    });

    await page.goto('/de');
    await page.getByText('Schöne Grüße ohne Wartezeit.').waitFor();
    await page.waitForLoadState('networkidle');
    // The first visit: the German texts of the app and of the home page, nothing else.
    expect(texts.sort()).toEqual(['HomePage.de', 'start.de']);
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));

    await page.getByRole('link', { name: 'Karten entdecken' }).click();
    await page.waitForURL((url) => url.pathname === '/de/shop');
    // (The file's other test seeds the same shop: the cards are there once or twice.)
    await expect.poll(() => page.locator('.shop-count').textContent(), { timeout: 15_000 }).toMatch(/^\d+ Produkte$/);
    expect(await page.getByRole('searchbox', { name: 'Produkte suchen' }).count()).toBe(1);

    await page.locator('.product-tile-link', { hasText: 'Balloon Birthday' }).first().click();
    await page.waitForURL((url) => /^\/de\/product\/\d+$/.test(url.pathname));
    await expect.poll(() => page.locator('.product-personalise h2').textContent(), { timeout: 15_000 }).toBe('Gestalten Sie Ihre Karte');

    await page.getByRole('navigation', { name: 'Shop' }).getByRole('link', { name: /Warenkorb/ }).first().click();
    await page.waitForURL((url) => url.pathname === '/de/cart');
    await page.getByRole('heading', { name: 'Ihr Warenkorb' }).waitFor();

    await page.getByRole('button', { name: 'Zur Kasse' }).click();
    await page.waitForURL((url) => url.pathname === '/de/payments');
    await page.getByRole('heading', { name: 'Kasse' }).waitFor();
    await page.getByRole('heading', { name: 'Ihre Bestellung' }).waitFor();
    await screenshot(page, 'languages-de-payments-after-navigation');

    // All of it in one page: each screen came by the router, its texts with its code.
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    expect(texts).toEqual(expect.arrayContaining(['ShopPage.de', 'ProductOrderPage.de', 'CartPage.de', 'PaymentsPage.de']));
    expect(texts.filter((part) => !part.endsWith('.de'))).toEqual([]);
    // No English text of the catalogue was ever drawn (those long enough not to be a product's name).
    const english = new Map(Object.entries(en as Record<string, string>).filter(([id, text]) => text !== (de as Record<string, string>)[id] && text.length >= 12 && !/[{<]/.test(text)).map(([id, text]) => [text, id]));
    const drawn = await page.evaluate(() => (window as unknown as { drawnTexts: string[] }).drawnTexts.map((text) => text.trim()));
    expect(drawn.length).toBeGreaterThan(100);
    expect(drawn.filter((text) => english.has(text)).map((text) => `${english.get(text)}: ${text}`)).toEqual([]);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });
});
