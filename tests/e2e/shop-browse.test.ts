import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * Browsing the shop in a real browser (contract section 15): "Sort by", the type and the price,
 * kept in the address and so through a reload; a tile names its type unless it is a card.
 */
const suite = browserSuite();

describe('browsing the shop in a real browser', () => {
  it("sorts and filters from the address (on sale too), keeps both through a reload, and names the type on album tiles and the sale on a card's", { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const shop = await seedShop(app, token);
    // The card is on sale: $4.50, was $6.00.
    expect((await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token, json: { product: { compare_at_price: 6 } } })).status).toBe(200);
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const context = await newContext(browser, app.url, { viewport });
      const page = await context.newPage();
      await page.goto('/shop');
      const names = () => page.locator('.product-tile-name').allTextContents();
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Balloon Birthday', 'Summer Songs Album']);
      // The album names its type; the card does not.
      await expect.poll(() => page.locator('.product-tile-type').allTextContents(), { timeout: 30_000 }).toEqual(['Music Album']);

      await page.getByLabel('Sort by').selectOption({ label: 'Price: high to low' });
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Summer Songs Album', 'Balloon Birthday']);
      expect(new URL(page.url()).searchParams.get('sort')).toBe('price_desc');

      await page.getByLabel('Price').selectOption({ label: 'Under $5' });
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Balloon Birthday']);
      await page.getByLabel('Price').selectOption({ label: 'Any price' });
      await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Music Album' });
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Summer Songs Album']);
      await expect.poll(() => new URL(page.url()).search, { timeout: 30_000 }).toBe('?sort=price_desc&type=2');
      await screenshot(page, `shop-filtered-${viewport.width}`);

      // A reload (or a shared link) shows the same choices and the same products.
      await page.reload();
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Summer Songs Album']);
      expect(await page.getByLabel('Sort by').inputValue()).toBe('price_desc');
      expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('2');
      await page.goto('/shop?sort=price_asc');
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Balloon Birthday', 'Summer Songs Album']);

      // "On sale": the card alone, its tile with the badge and the regular price struck through, kept through a reload.
      await page.locator('label.shop-on-sale').click();
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Balloon Birthday']);
      await expect.poll(() => new URL(page.url()).search, { timeout: 30_000 }).toBe('?sort=price_asc&on_sale=1');
      const price = page.locator('.product-tile-price');
      expect(await price.textContent()).toBe('Sale: $4.50, was $6.00');
      expect(await price.locator('s').textContent()).toBe('$6.00');
      await screenshot(page, `shop-on-sale-${viewport.width}`);
      await page.reload();
      await expect.poll(names, { timeout: 30_000 }).toEqual(['Balloon Birthday']);
      expect(await page.getByLabel('On sale').isChecked()).toBe(true);
      // The product page says so too.
      await page.locator('.product-tile-link').first().click();
      await expect.poll(() => page.locator('.product-price').textContent(), { timeout: 30_000 }).toBe('Sale: $4.50, was $6.00');
      expect(hydrationErrors(context)).toEqual([]);
      await context.close();
    }
  });
});
