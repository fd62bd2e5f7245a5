import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext } from '../helpers/browser.js';
import { PHONE, lookAt } from '../helpers/language-screens.js';
import { cardMailTo, openCardAsRecipient, translateCard } from '../helpers/language-purchase.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * A card bought, sent and received in German on a phone (contract section 20), in a shop whose own
 * language is English: the shopper finds it by its German name, pays at /de/payments and reads a
 * German confirmation; the recipient's e-mail and the card's page are German too.
 */
const suite = browserSuite();

/** The shop's content that has no German: its category's name. */
const UNTRANSLATED = ['Birthday'];

describe('buying a card in German on a phone', () => {
  it('goes from /de to the German confirmation, the German e-mail and the German card page', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    const shop = await seedShop(app, admin);
    await translateCard(app, admin, shop.cardId, { locale: 'de', name: 'Luftballon-Geburtstag', description: 'Luftballons und ein Lied.', default_message: 'Alles Gute zum Geburtstag!' });
    // The shop's own language stays English.
    expect((await (await app.request(`/api/products/${shop.cardId}`)).json()).product.name).toBe('Balloon Birthday');

    const context = await newContext(browser, app.url, { ...PHONE, locale: 'en-US', timezoneId: 'Europe/Berlin' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);

    // The home page, then the shop through its German button.
    await page.goto('/de');
    await page.getByRole('heading', { level: 1, name: 'Art & Song Cards' }).waitFor();
    await page.getByText('Schöne Grüße ohne Wartezeit.').waitFor();
    await page.getByRole('link', { name: /Luftballon-Geburtstag/ }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.waitForLoadState('networkidle');
    await lookAt(page, 'de', 'purchase-de-1-home', UNTRANSLATED);

    await page.getByRole('link', { name: 'Karten entdecken' }).click();
    await page.waitForURL('**/de/shop');
    await expect.poll(() => page.locator('.shop-count').textContent()).toBe('2 Produkte');
    // The shop's own product types in German; the album has no German name and keeps its own.
    await expect.poll(() => page.locator('.product-tile-type').allTextContents()).toEqual(['Musikalbum']);
    expect(await page.getByRole('combobox', { name: 'Art' }).locator('option').allTextContents()).toEqual(['Alle Arten', 'E-Grußkarte', 'Musikalbum', 'Bilderkollektion', 'Gutschein', 'Mitgliedschaft als Geschenk']);
    await page.getByRole('searchbox', { name: 'Produkte suchen' }).fill('Luftballon');
    await expect.poll(() => page.locator('.shop-count').textContent()).toBe('1 Produkt für „Luftballon“');
    expect(await page.locator('.product-tile-name').allTextContents()).toEqual(['Luftballon-Geburtstag']);
    expect(await page.locator('.product-tile-price').textContent()).toBe('4,50\u00a0$');
    await lookAt(page, 'de', 'purchase-de-2-shop-search', UNTRANSLATED);

    // The card: its German name and default message, one recipient, then the cart.
    await page.locator('.product-tile-link').click();
    await page.waitForURL(`**/de/product/${shop.cardId}`);
    await page.getByRole('heading', { level: 1, name: 'Luftballon-Geburtstag' }).waitFor();
    expect(await page.locator('.product-type').textContent()).toBe('E-Grußkarte');
    await expect.poll(() => page.getByLabel('Ihre Nachricht').inputValue()).toBe('Alles Gute zum Geburtstag!');
    await page.getByLabel('Name des Empfängers').fill('Grete');
    await page.getByLabel('E-Mail des Empfängers').fill('grete@example.com');
    await page.getByLabel('Ihr Name').fill('Ada');
    // A later day asks for its date and time, in German too; the shopper then sends it at once after all.
    await page.getByText('An einem späteren Tag').click();
    await page.getByLabel('Zustelldatum').waitFor();
    expect(await page.getByLabel('Zustellzeit').count()).toBe(1);
    await lookAt(page, 'de', 'purchase-de-3-product-later');
    await page.getByText('Sofort senden').click();
    await expect.poll(() => page.getByLabel('Zustelldatum').count()).toBe(0);
    await lookAt(page, 'de', 'purchase-de-3-product');
    await page.getByRole('button', { name: 'In den Warenkorb' }).click();
    const added = page.getByRole('status').filter({ hasText: 'liegt in Ihrem Warenkorb' });
    await expect.poll(() => added.textContent()).toBe('„Luftballon-Geburtstag“ für Grete liegt in Ihrem Warenkorb. Zum Warenkorb');
    await lookAt(page, 'de', 'purchase-de-4-product-added');

    await added.getByRole('link', { name: 'Zum Warenkorb' }).click();
    await page.waitForURL('**/de/cart');
    await page.getByRole('heading', { level: 1, name: 'Ihr Warenkorb' }).waitFor();
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe('4,50\u00a0$');
    await page.getByText('Luftballon-Geburtstag').first().waitFor();
    await lookAt(page, 'de', 'purchase-de-5-cart');

    // Checkout with the shop's test payments.
    await page.getByRole('button', { name: 'Zur Kasse' }).click();
    await page.waitForURL('**/de/payments');
    await page.getByRole('heading', { level: 1, name: 'Kasse' }).waitFor();
    await page.getByText('Dieser Shop nimmt Testzahlungen an', { exact: false }).waitFor();
    await page.getByLabel('Ihre E-Mail-Adresse', { exact: true }).fill('ada@example.com');
    await page.getByLabel('Kartennummer', { exact: true }).fill('4242 4242 4242 4242');
    await page.getByLabel('Gültig bis', { exact: true }).fill('1230');
    await page.getByLabel('Prüfnummer', { exact: true }).fill('123');
    await lookAt(page, 'de', 'purchase-de-6-checkout');
    await page.getByRole('button', { name: '4,50\u00a0$ bezahlen' }).click();

    // The confirmation, its date written the German way.
    await page.waitForURL(/\/de\/order-confirmation\//);
    await page.getByRole('heading', { level: 1, name: 'Vielen Dank! Ihre Bestellung ist bestätigt.' }).waitFor();
    await page.getByText('Eine Quittung ist unterwegs an a', { exact: false }).waitFor();
    const placed = page.locator('.confirmation-facts dt', { hasText: 'Aufgegeben' }).locator('xpath=following-sibling::dd[1]');
    expect(await placed.textContent()).toMatch(/^\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4} um \d{2}:\d{2}$/);
    expect(await page.locator('.confirmation-facts').textContent()).toContain('4,50\u00a0$ mit der Karte mit der Endung 4242');
    await page.locator('a', { hasText: 'E-Card ansehen' }).waitFor();
    await page.getByRole('region', { name: 'Behalten Sie Ihre Karten im Blick' }).waitFor();
    const [order] = await app.sql<{ id: string; locale: string }>('select id, locale from "order"');
    expect(order!.locale).toBe('de');
    await lookAt(page, 'de', 'purchase-de-7-confirmation');
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();

    // The recipient's e-mail, in German.
    await app.services.deliveries.runDue();
    const mail = await cardMailTo(app, 'grete@example.com');
    expect(mail.subject).toBe('Ada hat Ihnen eine Karte geschickt: Luftballon-Geburtstag');
    expect(mail.body).toContain('Hallo Grete,');
    expect(mail.body).toContain('Ada hat Ihnen eine E-Grußkarte mit Musik geschickt: Luftballon-Geburtstag.');
    expect(mail.body).toMatch(/<html [^>]*lang="de"/);
    expect(mail.body).not.toContain('Open your card');

    // The recipient opens the card from the e-mail's link, in a browser of their own.
    const card = await openCardAsRecipient(
      browser,
      app.url,
      mail.cardPath,
      'de',
      { heading: 'Grete, Ada hat Ihnen eine Karte geschickt', title: 'Eine Karte für Grete von Ada', open: 'Die Karte für Grete öffnen', message: 'Alles Gute zum Geburtstag!', thanks: 'Danke sagen' },
      { closed: 'purchase-de-8-ecard', open: 'purchase-de-9-ecard-open' },
    );
    expect(await card.locator('.thanks-form').getByRole('button', { name: 'Senden' }).count()).toBe(1);
    await card.context().close();
  });
});
