import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * The product page's form as a shopper uses it (contract section 15): the total before "Add to cart",
 * the focus on the first field that is wrong, and a confirmation beside the form that keeps the
 * sender's name for the next card.
 */
const suite = browserSuite();

describe('the product page in a real browser', () => {
  it('shows the total for many recipients, focuses the first wrong field, and confirms beside the form', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const context = await newContext(browser, app.url, { viewport });
      const page = await context.newPage();
      await page.goto(`/product/${shop.cardId}`);
      const total = page.locator('.personalisation-total');
      await expect.poll(() => total.textContent(), { timeout: 30_000 }).toBe('$4.50');

      // A refused "Add to cart" puts the focus on the first field that says what is wrong.
      await page.getByLabel('Your name').fill('Ada');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 15_000 }).toBe('recipient-name-0');
      await page.getByLabel("Recipient's name").fill('Grace');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 15_000 }).toBe('recipient-email-0');

      // Three recipients: one card each, and the total says so before the button is pressed.
      await page.getByLabel("Recipient's e-mail").fill('grace@example.com');
      for (const [n, name] of [[2, 'Linus'], [3, 'Ken']] as const) {
        await page.getByRole('button', { name: 'Add recipient' }).click();
        await page.getByLabel(`Recipient ${n}'s name`).fill(name);
        await page.getByLabel(`Recipient ${n}'s e-mail`).fill(`${name.toLowerCase()}@example.com`);
      }
      await expect.poll(() => total.textContent(), { timeout: 15_000 }).toBe('3 cards × $4.50 = $13.50');
      await page.getByLabel('Your message').fill('Happy birthday, {firstName}!');
      await screenshot(page, `product-total-${viewport.width}`);
      await page.getByRole('button', { name: 'Add to cart' }).click();

      // The confirmation sits above the form, covering nothing; the sender's name stays for the next card.
      const confirmation = page.getByRole('status').filter({ hasText: 'is in your cart' });
      await expect.poll(() => confirmation.textContent(), { timeout: 15_000 }).toBe('“Balloon Birthday” for Grace, Linus and Ken is in your cart. View cart');
      expect(await page.getByLabel('Your name').inputValue()).toBe('Ada');
      expect(await page.getByLabel("Recipient's name").inputValue()).toBe('');
      expect(await page.getByLabel('Your message').inputValue()).toBe('');
      expect(await total.textContent()).toBe('$4.50');
      await page.getByLabel('Your message').scrollIntoViewIfNeeded();
      const [box, message] = [await confirmation.boundingBox(), await page.getByLabel('Your message').boundingBox()];
      expect(box!.y + box!.height).toBeLessThanOrEqual(message!.y);
      await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 15_000 }).toBe('3');
      await screenshot(page, `product-added-${viewport.width}`);
      await context.close();
    }
  });
});
