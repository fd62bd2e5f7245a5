import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * The shop and a card's page in German (contract section 20): the navigation, the shop's filters and
 * count, the card's form, its checks and its confirmation all speak the address's language, while the
 * products keep the names their owner gave them. On a phone the longer German words stay inside the page.
 */
const suite = browserSuite();

/** Whether anything on the page reaches past the viewport's right edge (a word too long for its box). */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().right > width + 1 && getComputedStyle(element).position !== 'fixed')
      .filter((element) => !element.closest('.product-gallery-thumbs, .card-book, [aria-hidden="true"], .visually-hidden'))
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 80));
  });

describe('the storefront in German', () => {
  it('shows /de/shop and /de/product/{id} in German on a phone, without overflow', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    for (const viewport of [{ width: 390, height: 844 }, { width: 360, height: 740 }]) {
      const context = await newContext(browser, app.url, { viewport });
      const page = await context.newPage();

      await page.goto('/de/shop');
      await expect.poll(() => page.locator('.shop-count').textContent(), { timeout: 30_000 }).toBe('2 Produkte');
      expect(await page.getByRole('searchbox', { name: 'Produkte suchen' }).getAttribute('placeholder')).toBe('Karten, Alben und Kollektionen suchen');
      expect(await page.getByRole('combobox', { name: 'Sortieren nach' }).locator('option:checked').textContent()).toBe('Name');
      expect(await page.getByRole('combobox', { name: 'Preis' }).locator('option').allTextContents()).toEqual(['Alle Preise', 'Unter 5\u00a0$', '5\u00a0$ bis 15\u00a0$', 'Über 15\u00a0$']);
      expect(await page.getByRole('combobox', { name: 'Kategorie' }).locator('option').first().textContent()).toBe('Alles');
      expect(await page.getByRole('checkbox', { name: 'Im Angebot' }).count()).toBe(1);
      expect(await page.getByRole('navigation', { name: 'Shop' }).getByRole('link', { name: 'Warenkorb' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Anmelden' }).count()).toBe(1);
      // The owner's products keep their names.
      expect(await page.locator('.product-tile-name').allTextContents()).toEqual(['Balloon Birthday', 'Summer Songs Album']);
      await page.getByRole('searchbox', { name: 'Produkte suchen' }).fill('Balloon');
      await expect.poll(() => page.locator('.shop-count').textContent(), { timeout: 15_000 }).toBe('1 Produkt für „Balloon“');
      expect(await overflowing(page)).toEqual([]);
      await screenshot(page, `languages-de-shop-${viewport.width}`);

      await page.locator('.product-tile-link', { hasText: 'Balloon Birthday' }).click();
      await page.waitForURL(`**/de/product/${shop.cardId}`);
      await expect.poll(() => page.locator('.product-personalise h2').textContent(), { timeout: 30_000 }).toBe('Gestalten Sie Ihre Karte');
      expect(await page.locator('.product-songs h2').textContent()).toBe('Lieder auf dieser Karte');
      expect(await page.getByRole('button', { name: 'Karte für jemand Besonderen öffnen' }).count()).toBe(1);
      expect(await page.locator('[data-testid="preview-message"]').textContent()).toBe('Hier erscheint Ihre Nachricht.');

      // The checks speak German too, and the focus goes to the first field that is wrong.
      await page.getByRole('button', { name: 'In den Warenkorb' }).click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 15_000 }).toBe('recipient-name-0');
      expect(await page.locator('.personalisation-form').textContent()).toContain('Geben Sie den Namen des Empfängers ein.');
      expect(await page.locator('.personalisation-form').textContent()).toContain('Geben Sie Ihren Namen ein.');

      await page.getByLabel('Name des Empfängers').fill('Grace');
      await page.getByLabel('E-Mail des Empfängers').fill('grace@example.com');
      await page.getByRole('button', { name: 'Empfänger hinzufügen' }).click();
      await page.getByLabel('Name von Empfänger 2').fill('Linus');
      await page.getByLabel('E-Mail von Empfänger 2').fill('linus@example.com');
      await page.getByLabel('Ihr Name').fill('Ada');
      expect(await page.locator('.personalisation-count').textContent()).toBe('2 Empfänger: je eine Karte');
      expect(await page.locator('.personalisation-total').textContent()).toMatch(/^2 Karten × .+ = .+$/);
      expect(await page.getByRole('button', { name: 'Karte für Grace öffnen' }).count()).toBe(1);
      expect(await overflowing(page)).toEqual([]);
      await screenshot(page, `languages-de-product-${viewport.width}`);

      await page.getByRole('button', { name: 'In den Warenkorb' }).click();
      const confirmation = page.getByRole('status').filter({ hasText: 'liegt in Ihrem Warenkorb' });
      await expect.poll(() => confirmation.textContent(), { timeout: 15_000 }).toBe('„Balloon Birthday“ für Grace und Linus liegt in Ihrem Warenkorb. Zum Warenkorb');
      await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 15_000 }).toBe('2');
      expect(await page.locator('.top-navbar-links .visually-hidden').textContent()).toBe(' im Warenkorb');
      await screenshot(page, `languages-de-product-added-${viewport.width}`);
      await context.close();
    }
  });
});
