import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { register, signedIn } from './account-browser.js';
import { seriousProblems, SHOPPERS } from './axe.js';
import { newContext, screenshot } from './browser.js';
import { placeGroupCard } from './group-card-fixtures.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from './order-fixtures.js';
import type { TestApp } from './test-app.js';

/** The shop both checks below look at, seeded once per app (a file's tests share one). */
const shops = new WeakMap<TestApp, Promise<Shop>>();
function shopOf(app: TestApp): Promise<Shop> {
  if (!shops.has(app)) shops.set(app, app.login().then((token) => seedShop(app, token)));
  return shops.get(app)!;
}

/** Waits for what shows the page is ready and for the app to have taken it over, then asks axe. */
async function check(page: Page, path: string, ready: () => Promise<boolean>): Promise<string[]> {
  await page.goto(path);
  await expect.poll(ready, { timeout: 20_000 }).toBe(true).catch(async (error) => {
    await screenshot(page, `axe-not-ready${path.replace(/[^a-z0-9]+/gi, '-')}`);
    throw error;
  });
  await page.waitForFunction(() => !document.getElementById('root')?.hasAttribute('aria-disabled'), undefined, { timeout: 15_000 });
  return seriousProblems(page, SHOPPERS);
}

/**
 * The rest of the storefront's pages under axe-core at one width (contract section 15: no serious or
 * moderate finding, landmarks included): sign-in, the cart with a card, checkout, an order's
 * confirmation, the blog, unsubscribing, a group card's signing page, the preview, account settings
 * and the address book. Answers what axe found, by page (11 pages).
 */
export async function storefrontProblems(app: TestApp, browser: Browser, viewport: { width: number; height: number }): Promise<Record<string, string[]>> {
  const shop = await shopOf(app);
  const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'axe_guest@example.com' }));
  const orderId = body.data.placeOrder.id as string;
  const group = await placeGroupCard(app, shop, { deliveryDate: '2027-01-20', collectUntil: '2027-01-19T18:00:00Z' });
  const unsubscribe = await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), 'axe_recipient@example.com');
  const cartLine = { id: 'line-1', productId: shop.cardId, name: 'Balloon Birthday', quantity: 1, personalisation: { ...personalisation(), recipients: [{ name: 'Grace Hopper', email: 'grace@example.com' }], deliveryDate: null, deliveryTime: '09:00', timeZone: 'UTC' } };

  const problems: Record<string, string[]> = {};
  const context = await newContext(browser, app.url, { viewport });
  await context.addInitScript((line) => localStorage.setItem('cart', JSON.stringify([line])), cartLine);
  const page = await context.newPage();
  problems['/login'] = await check(page, '/login', () => page.getByRole('button', { name: 'Login', exact: true }).isVisible());
  problems['/forgot-password'] = await check(page, '/forgot-password', () => page.getByRole('heading').first().isVisible());
  problems['/cart'] = await check(page, '/cart', async () => (await page.getByTestId('cart-total').textContent()) === '$4.50');
  problems['/payments'] = await check(page, '/payments', () => page.getByRole('button', { name: 'Pay $4.50' }).isVisible());
  problems['/order-confirmation'] = await check(page, `/order-confirmation/${orderId}`, () => page.getByRole('heading', { level: 1 }).isVisible());
  problems['/blog'] = await check(page, '/blog', () => page.getByRole('heading', { level: 1 }).isVisible());
  problems['/unsubscribe'] = await check(page, new URL(unsubscribe).pathname + new URL(unsubscribe).search, () => page.getByRole('button').first().isVisible());
  problems['/sign'] = await check(page, `/sign/${group.token}`, () => page.getByRole('heading', { level: 1 }).isVisible());

  // The preview, over the cart.
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Preview Balloon Birthday' }).click();
  await expect.poll(() => page.frameLocator('iframe.recipient-preview-frame').locator('h1').isVisible(), { timeout: 30_000 }).toBe(true);
  problems.preview = await seriousProblems(page, SHOPPERS);
  await context.close();

  // A signed-in shopper's settings and address book.
  await register(app, 'axe_settings');
  const account = await signedIn(browser, app, 'axe_settings');
  await account.setViewportSize(viewport);
  problems['/account/settings'] = await check(account, '/account/settings', () => account.getByRole('button', { name: 'Sign out everywhere' }).isVisible());
  problems['/account/contacts'] = await check(account, '/account/contacts', () => account.getByRole('heading', { level: 1 }).isVisible());
  return problems;
}

/**
 * The storefront's home, shop, product and cart pages in German and French under axe-core at one
 * width (contract sections 15 and 20): besides what axe finds, each page must say its language
 * (`<html lang>`) and the footer's switch must give each language's link its own `lang`. Answers
 * what was found, by page (8 pages).
 */
export async function languageProblems(app: TestApp, browser: Browser, viewport: { width: number; height: number }): Promise<Record<string, string[]>> {
  const shop = await shopOf(app);
  const cartLine = { id: 'line-1', productId: shop.cardId, name: 'Balloon Birthday', quantity: 1, personalisation: { ...personalisation(), recipients: [{ name: 'Grace Hopper', email: 'grace@example.com' }], deliveryDate: null, deliveryTime: '09:00', timeZone: 'UTC' } };
  const context = await newContext(browser, app.url, { viewport });
  await context.addInitScript((line) => localStorage.setItem('cart', JSON.stringify([line])), cartLine);
  const page = await context.newPage();
  const problems: Record<string, string[]> = {};
  for (const locale of ['de', 'fr']) {
    const pages: [string, () => Promise<boolean>][] = [
      [`/${locale}`, () => page.locator('.product-grid .product-tile').first().isVisible()],
      [`/${locale}/shop`, async () => (await page.locator('.product-tile').count()) === 2],
      [`/${locale}/product/${shop.cardId}`, () => page.locator('#card-message').isVisible()],
      [`/${locale}/cart`, async () => /4,50/.test((await page.getByTestId('cart-total').textContent()) ?? '')],
    ];
    for (const [path, ready] of pages) {
      const found = await check(page, path, ready);
      if ((await page.evaluate(() => document.documentElement.lang)) !== locale) found.push(`<html lang> is not ${locale}`);
      const switches = await page.locator('.site-footer a[hreflang]').evaluateAll((links) => links.map((link) => [link.getAttribute('hreflang'), link.getAttribute('lang')]));
      if (switches.length !== 4 || switches.some(([hreflang, lang]) => !hreflang || hreflang !== lang)) found.push(`the language switch's links: ${JSON.stringify(switches)}`);
      problems[path.replace(/\/\d+$/, '/{id}')] = found;
    }
  }
  await context.close();
  return problems;
}
