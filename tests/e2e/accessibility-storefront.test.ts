import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, register, signedIn } from '../helpers/account-browser.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { placeGroupCard } from '../helpers/group-card-fixtures.js';
import { orderInput, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';

/**
 * The rest of the storefront's pages under axe-core at both widths (contract section 15: no serious
 * or moderate finding, landmarks included): sign-in, the cart with a card, checkout, an order's
 * confirmation, the blog, unsubscribing, a group card's signing page, the preview, account settings
 * and the address book.
 */
const suite = browserSuite();

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

describe('accessibility of the storefront (axe-core)', () => {
  it('finds no moderate or worse problem on the rest of the storefront, at desktop and phone width', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'axe_guest@example.com' }));
    const orderId = body.data.placeOrder.id as string;
    const group = await placeGroupCard(app, shop, { deliveryDate: '2027-01-20', collectUntil: '2027-01-19T18:00:00Z' });
    const unsubscribe = await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), 'axe_recipient@example.com');
    const cartLine = { id: 'line-1', productId: shop.cardId, name: 'Balloon Birthday', quantity: 1, personalisation: { ...personalisation(), recipients: [{ name: 'Grace Hopper', email: 'grace@example.com' }], deliveryDate: null, deliveryTime: '09:00', timeZone: 'UTC' } };

    const problems: Record<string, string[]> = {};
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const context = await newContext(browser, app.url, { viewport });
      await context.addInitScript((line) => localStorage.setItem('cart', JSON.stringify([line])), cartLine);
      const page = await context.newPage();
      const at = (name: string) => `${name} @${viewport.width}`;
      problems[at('/login')] = await check(page, '/login', () => page.getByRole('button', { name: 'Login', exact: true }).isVisible());
      problems[at('/forgot-password')] = await check(page, '/forgot-password', () => page.getByRole('heading').first().isVisible());
      problems[at('/cart')] = await check(page, '/cart', async () => (await page.getByTestId('cart-total').textContent()) === '$4.50');
      problems[at('/payments')] = await check(page, '/payments', () => page.getByRole('button', { name: 'Pay $4.50' }).isVisible());
      problems[at('/order-confirmation')] = await check(page, `/order-confirmation/${orderId}`, () => page.getByRole('heading', { level: 1 }).isVisible());
      problems[at('/blog')] = await check(page, '/blog', () => page.getByRole('heading', { level: 1 }).isVisible());
      problems[at('/unsubscribe')] = await check(page, new URL(unsubscribe).pathname + new URL(unsubscribe).search, () => page.getByRole('button').first().isVisible());
      problems[at('/sign')] = await check(page, `/sign/${group.token}`, () => page.getByRole('heading', { level: 1 }).isVisible());

      // The preview, over the cart.
      await page.goto('/cart');
      await page.getByRole('button', { name: 'Preview Balloon Birthday' }).click();
      await expect.poll(() => page.frameLocator('iframe.recipient-preview-frame').locator('h1').isVisible(), { timeout: 30_000 }).toBe(true);
      problems[at('preview')] = await seriousProblems(page, SHOPPERS);
      await context.close();
    }

    // A signed-in shopper's settings and address book.
    await register(app, 'axe_settings');
    const page = await signedIn(browser, app, 'axe_settings');
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      await page.setViewportSize(viewport);
      problems[`/account/settings @${viewport.width}`] = await check(page, '/account/settings', () => page.getByRole('button', { name: 'Sign out everywhere' }).isVisible());
      problems[`/account/contacts @${viewport.width}`] = await check(page, '/account/contacts', () => page.getByRole('heading', { level: 1 }).isVisible());
    }

    expect(Object.entries(problems).filter(([, found]) => found.length)).toEqual([]);
    expect(Object.keys(problems)).toHaveLength(22);
  });
});
