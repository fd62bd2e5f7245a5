import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitForMail } from '../helpers/account-mail.js';
import { PHONE, register, signedIn } from '../helpers/account-browser.js';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * Contract section 20 in a real browser: on a German page the shop's refusals are German (the
 * storefront sends its page's language), and "Send a test to myself" draws the preview and mails
 * the test in German, its link opening the preview in German.
 */
const suite = browserSuite();

const frameOf = (page: Page) => page.frameLocator('iframe.recipient-preview-frame');

describe('the shop’s answers on a German page', () => {
  it('refuses an unknown discount code in German at checkout', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const page = await (await newContext(browser, app.url, { viewport: PHONE })).newPage();
    await page.goto('/de');
    await page.evaluate((albumId) => {
      localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: albumId, name: 'Summer Songs Album', quantity: 2, personalisation: null }]));
    }, shop.albumId);
    await page.goto('/de/payments');
    await page.getByLabel('Rabattcode').waitFor({ timeout: 30_000 });
    await page.getByLabel('Rabattcode').fill('nosuchcode');
    await page.getByLabel('Rabattcode').press('Enter');
    const refusal = 'Dieser Rabattcode kann nicht verwendet werden: Er ist unbekannt, noch nicht gültig, abgelaufen oder aufgebraucht.';
    await expect.poll(() => page.getByText(refusal).isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshot(page, 'languages-de-discount-refused-390');
  });

  it('previews the card in German and mails the test in German', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    await register(app, 'vorschau_grete');
    const page = await signedIn(browser, app, 'vorschau_grete');
    await page.setViewportSize(PHONE);
    await page.goto(`/de/product/${shop.cardId}`);
    await page.getByLabel('Name des Empfängers').waitFor({ timeout: 30_000 });
    await page.getByLabel('Name des Empfängers').fill('Grace Hopper');
    await page.getByLabel('E-Mail des Empfängers').fill('grace@example.com');
    await page.getByLabel('Ihr Name').fill('Ada');
    await page.getByLabel('Ihre Nachricht').fill('Alles Gute, {firstName}!');
    await page.getByRole('button', { name: 'Vorschau', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Vorschau: So sieht Grace Hopper die Karte' });
    await dialog.waitFor({ timeout: 30_000 });
    await expect.poll(() => frameOf(page).locator('h1').textContent(), { timeout: 30_000 }).toBe('Grace Hopper, Ada hat Ihnen eine Karte geschickt');
    expect(await frameOf(page).locator('.preview-ribbon').textContent()).toBe('Vorschau');
    expect(await frameOf(page).locator('.message p').textContent()).toBe('Alles Gute, Grace!');
    await dialog.getByRole('button', { name: 'Test an mich senden' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 30_000 }).toBe('An vorschau_grete@example.com gesendet: die E-Mail, die Grace Hopper erhält, mit ihrem Link.');
    await screenshot(page, 'languages-de-preview-sent-390');

    const mail = await waitForMail(app, 'vorschau_grete@example.com', 'Test: Ada hat Ihnen eine Karte geschickt: Balloon Birthday');
    expect(mail).toContain('Hallo Grace Hopper,');
    const link = /https?:\/\/[^\s"<>]+(\/ecards\/preview\?card=[A-Za-z0-9_.-]+)/.exec(mail)![1]!;
    await page.goto(link);
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 30_000 }).toBe('Grace Hopper, Ada hat Ihnen eine Karte geschickt');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await screenshot(page, 'languages-de-preview-link-390');
  });
});
