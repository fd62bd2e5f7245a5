import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PASSWORD, PHONE, iconsDrawn, register } from '../helpers/account-browser.js';
import { browserSuite, newContext, screenshot, signIn } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * The membership page and the gift card balance page in German (contract section 20), at phone
 * width: a visitor and a signed-in shopper read the page under /de, the shop's reasons and answers
 * in German too, and no long German word pushes the page or a box out of its width.
 */
const suite = browserSuite();

async function shot(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, name);
}

/**
 * What sticks out at the page's width: the page wider than the screen, or a text box (heading,
 * paragraph, label, button, table cell) whose words do not fit inside it.
 */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth) found.push(`the page: ${document.documentElement.scrollWidth}px wide`);
    for (const element of document.querySelectorAll<HTMLElement>('main h1, main h2, main h3, main p, main label, main .bp6-button, main .bp6-callout, main dt, main dd, main td, main th, main .bp6-tag')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0) continue;
      if (element.scrollWidth > element.clientWidth + 1 || box.right > window.innerWidth + 1) found.push(`${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.trim().slice(0, 60)}`);
    }
    return found;
  });

describe('the storefront in German at phone width', () => {
  it('the membership page and the gift card balance page speak German and fit the screen', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    const shop = await seedShop(app, admin);
    for (const json of [
      { name: 'Card Lover', price: 4.99, period: 'month', ecards_included: true, percent_off_other: 10 },
      { name: 'Card Lover Yearly', price: 39, period: 'year', ecards_included: true, percent_off_other: 20 },
    ]) {
      expect((await app.request('/api/admin/membership-plans', { method: 'POST', token: admin, json })).status).toBe(201);
    }
    // The shop sells gift memberships: "Mitgliedschaft verschenken" shows beside "Geschenk einlösen".
    const types: { id: number; name: string }[] = await (await app.request('/api/product_types')).json();
    const [album] = await app.sql<{ category_id: number; main_image_id: number }>('select category_id, main_image_id from product where id = $1', [shop.albumId]);
    const product = { name: 'Gift Membership', description: 'A month or a year of cards.', price: 4.99, product_type_id: types.find((t) => t.name === 'Gift Membership')!.id, category_id: album!.category_id, main_image_id: album!.main_image_id };
    expect((await app.request('/api/products', { method: 'POST', token: admin, json: { product, tags: [], e_greeting_card_data: null } })).status).toBe(201);
    const issued = await app.graphql('mutation { issueGiftCard(amount: "30", reason: "Goodwill") { code } }', {}, admin);
    const code = issued.body.data.issueGiftCard.code as string;
    await register(app, 'greta');

    const page = await (await newContext(browser, app.url, { viewport: PHONE, locale: 'de-DE' })).newPage();
    page.setDefaultTimeout(30_000);

    // (a) A visitor: the plans, and signing in to become a member.
    await page.goto('/de/membership');
    await page.getByRole('heading', { level: 1, name: 'Mitgliedschaft' }).waitFor();
    expect(await page.locator('.membership-lede').textContent()).toBe(
      'E-Cards inklusive und Rabatt auf Alben und Kollektionen, solange Sie Mitglied sind. Kündigen Sie jederzeit: Die Vorteile bleiben bis zum Ende des bezahlten Zeitraums erhalten.',
    );
    await page.getByRole('heading', { level: 2, name: 'Tarif wählen' }).waitFor();
    await page.getByRole('link', { name: 'Anmelden und Mitglied werden' }).waitFor();
    await page.getByRole('heading', { name: 'Mitgliedschaften als Geschenk' }).waitFor();
    await page.getByRole('link', { name: 'Melden Sie sich an, um es einzulösen' }).waitFor();
    await page.getByRole('link', { name: 'Mitgliedschaft verschenken' }).waitFor();
    expect(await overflowing(page)).toEqual([]);
    await shot(page, 'languages-storefront-c-membership-visitor-de-phone');

    // (b) Signed in: the plans to choose from, the card form and its terms; a redeemed nonsense code is refused in German.
    await signIn(page, 'greta', PASSWORD);
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    await page.goto('/de/membership');
    await page.getByRole('radio', { name: /Card Lover Yearly/ }).waitFor();
    await page.getByText('Dieser Shop nimmt Testzahlungen an', { exact: false }).waitFor();
    await page.getByRole('button', { name: /^Mitglied werden · / }).waitFor();
    expect(await page.locator('.membership-terms').textContent()).toBe(
      'Die Mitgliedschaft verlängert sich jeden Monat mit derselben Karte, bis Sie kündigen; nach einer Kündigung bleiben die Vorteile bis zum Ende des bezahlten Zeitraums erhalten.',
    );
    await page.locator('.membership-plan-card', { hasText: 'Card Lover Yearly' }).click();
    expect(await page.getByRole('radio', { name: /Card Lover Yearly/ }).isChecked()).toBe(true);
    await expect.poll(() => page.locator('.membership-terms').textContent()).toContain('jedes Jahr');
    await page.getByRole('button', { name: 'Einlösen' }).click();
    await page.getByText('Geben Sie den Code aus der E-Mail ein.').waitFor();
    expect(await overflowing(page)).toEqual([]);
    await shot(page, 'languages-storefront-c-membership-de-phone');

    // (c) The gift card balance: the code asked for, then the card's balance.
    await page.goto('/de/gift-cards');
    await page.getByRole('heading', { level: 1, name: 'Gutscheinguthaben abfragen' }).waitFor();
    await page.getByRole('button', { name: 'Guthaben prüfen' }).click();
    await page.getByText('Geben Sie den Code Ihres Gutscheins ein.').waitFor();
    expect(await overflowing(page)).toEqual([]);
    await page.getByLabel('Gutscheincode').fill(code);
    await page.getByRole('button', { name: 'Guthaben prüfen' }).click();
    const answer = page.getByRole('status');
    await expect.poll(() => answer.textContent()).toMatch(/····[A-Z0-9]{4}: noch .*30[.,]00.* verfügbar/);
    expect(await answer.textContent()).toContain('Geben Sie den Code an der Kasse ein, um damit zu bezahlen.');
    expect(await answer.getByRole('link', { name: 'Jetzt etwas Schönes aussuchen' }).getAttribute('href')).toBe('/de/shop');
    expect(await overflowing(page)).toEqual([]);
    await shot(page, 'languages-storefront-c-gift-card-balance-de-phone');
  });
});
