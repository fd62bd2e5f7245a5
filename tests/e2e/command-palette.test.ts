import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, signIn } from '../helpers/browser.js';
import { orderInput, placeOrder, seedShop } from '../helpers/order-fixtures.js';

/**
 * The console's command palette (contract section 16): Ctrl+K anywhere in the console finds a screen,
 * a product, an order by its number and a customer, and opens each.
 */
const suite = browserSuite();

describe('the command palette in a real browser', () => {
  it('opens a screen, a product, an order by its number and a customer', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const shopper = await app.customer('palette_ada');
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'palette_ada@example.com' }), shopper);
    const order = body.data.placeOrder.id as string;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page.goto('/admindash');
    await page.getByRole('button', { name: 'Search the console (Ctrl+K)' }).waitFor({ timeout: 30_000 });

    const palette = page.getByRole('textbox', { name: 'Search the console' });
    const choose = async (typed: string, option: string | RegExp) => {
      await page.keyboard.press('Control+k');
      await palette.waitFor({ timeout: 15_000 });
      await palette.fill(typed);
      const item = page.getByRole('option', { name: option });
      await item.waitFor({ timeout: 30_000 });
      await item.click();
      await palette.waitFor({ state: 'hidden', timeout: 15_000 });
    };

    await choose('audit', /^Audit log/);
    await expect.poll(() => new URL(page.url()).searchParams.get('view'), { timeout: 15_000 }).toBe('audit');

    await choose('balloon', /^Balloon Birthday/);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe(`/admindash/products/${shop.cardId}`);
    await page.getByRole('heading', { name: 'Balloon Birthday' }).waitFor({ timeout: 15_000 });

    await choose(order.slice(0, 8).toUpperCase(), new RegExp(`^Order ${order.slice(0, 8).toUpperCase()}`));
    await expect.poll(() => new URL(page.url()).searchParams.get('order'), { timeout: 15_000 }).toBe(order);
    await page.getByRole('dialog', { name: 'Order Details' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+k');
    await palette.fill('palette_');
    await page.getByRole('option', { name: /^palette_ada/ }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'command-palette');
    await page.getByRole('option', { name: /^palette_ada/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view'), { timeout: 15_000 }).toBe('customers');
    expect(new URL(page.url()).searchParams.get('customer')).toMatch(/^\d+$/);
    await context.close();
  });
});
