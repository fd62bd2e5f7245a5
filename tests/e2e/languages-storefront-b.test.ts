/**
 * The cart, the checkout and the sign-in page in German on a phone (contract section 20): the page's
 * language is its address prefix, and German's long words must stay inside a 390-pixel screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * A page under a language's prefix. Where the gateway does not answer such an address itself, the
 * browser is given the bare app shell for it: the client then reads the language from the address
 * and draws the page in it.
 */
async function servePrefixedPages(context: BrowserContext): Promise<void> {
  const shell = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/dist/index.html'), 'utf8');
  await context.route(/^https?:\/\/[^/]+\/(de|fr|es)(\/[^.]*)?(\?.*)?$/, async (route) => {
    const response = await route.fetch();
    if (response.status() === 404) await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: shell });
    else await route.fulfill({ response });
  });
}

/** Whatever sticks out to the right of the screen (a word too long for its box), by class and text. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('#root *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > width + 1;
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${(element.textContent ?? '').slice(0, 60)}`);
  });
}

describe('the storefront in German on a phone', () => {
  it('shows the cart, the checkout and the sign-in page in German, each inside the screen', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url, PHONE);
    await servePrefixedPages(context);
    await context.addInitScript((albumId) => {
      if (!localStorage.getItem('cart')) localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: albumId, name: 'Summer Songs Album', quantity: 2, personalisation: null }]));
    }, shop.albumId);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);

    await page.goto('/de/cart');
    await page.getByRole('heading', { name: 'Ihr Warenkorb' }).waitFor();
    await page.getByText('2 Artikel').waitFor();
    expect(await page.getByRole('button', { name: 'Zur Kasse' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Weiter einkaufen' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Menge von Summer Songs Album').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Summer Songs Album entfernen' }).isVisible()).toBe(true);
    await screenshot(page, 'de-cart-phone');
    expect(await overflowing(page)).toEqual([]);

    // The router is based at /de: the cart's button leads to the German checkout.
    await page.getByRole('button', { name: 'Zur Kasse' }).click();
    await page.waitForURL('**/de/payments');
    await page.getByRole('heading', { name: 'Kasse' }).waitFor();
    await page.getByRole('heading', { name: 'Ihre Bestellung' }).waitFor();
    for (const label of ['Ihre E-Mail-Adresse', 'Rabattcode', 'Gutschein', 'Kartennummer', 'Gültig bis', 'Prüfnummer', 'Name auf der Karte (optional)']) expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    expect(await page.getByRole('button', { name: 'Gutschein einlösen' }).isVisible()).toBe(true);
    // The form's own checks speak German too.
    await page.getByRole('button', { name: /bezahlen$/i }).click();
    await page.getByText('Geben Sie Ihre E-Mail-Adresse für die Quittung ein.').waitFor();
    await page.getByText('Geben Sie die Kartennummer ein.').waitFor();
    await screenshot(page, 'de-checkout-phone');
    expect(await overflowing(page)).toEqual([]);

    await page.goto('/de/login');
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Konto erstellen' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Benutzername').isVisible()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Angemeldet bleiben' }).isChecked()).toBe(true);
    expect(await page.getByRole('link', { name: 'Passwort vergessen?' }).isVisible()).toBe(true);
    await screenshot(page, 'de-login-phone');
    expect(await overflowing(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Konto erstellen' }).click();
    await page.getByRole('heading', { name: 'Konto erstellen' }).waitFor();
    await page.getByText('3 bis 32 Buchstaben, Ziffern, „_“, „.“ oder „-“.').waitFor();
    await screenshot(page, 'de-register-phone');
    expect(await overflowing(page)).toEqual([]);
    await context.close();
  });
});
