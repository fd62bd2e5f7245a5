import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

// A shop in production without PAYMENT_PROVIDER.
const suite = browserSuite({ paymentProvider: null });

describe('checkout without a payment provider', () => {
  it('tells the shopper that payments are not set up, and takes no order', { timeout: 90_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.goto(`/product/${shop.albumId}`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('1');
    await page.goto('/payments');
    await expect.poll(() => page.getByText('Payments are not set up').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByText('This shop cannot take payments yet').isVisible()).toBe(true);
    expect(await page.getByText('This shop takes test payments').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: /^Pay/ }).isDisabled(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'store-payments-unavailable');
    expect(await app.sql('select id from "order"')).toEqual([]);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });
});
