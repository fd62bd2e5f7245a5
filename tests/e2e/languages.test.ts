import { describe, expect, it } from 'vitest';
import { browserSuite, hydrationErrors, newContext, screenshot } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite();

/** A phone: what most shoppers open the shop on. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe('the shop in the language a shopper chooses, on a phone', () => {
  it('switches to German in the footer, stays German through its links and a reload, and comes back to German at /', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    await seedShop(app, await app.login());
    const context = await newContext(browser, app.url, { ...PHONE, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/');
    const languages = page.getByRole('navigation', { name: 'Language' });
    await expect.poll(() => languages.getByRole('link', { name: 'English' }).getAttribute('aria-current'), { timeout: 10_000 }).toBe('true');
    await page.waitForLoadState('networkidle');

    await languages.getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForURL((url) => url.pathname === '/de');
    const sprachen = page.getByRole('navigation', { name: 'Sprache' });
    await expect.poll(() => sprachen.getByRole('link', { name: 'Deutsch' }).getAttribute('aria-current'), { timeout: 10_000 }).toBe('true');
    expect(await page.locator('.site-footer').getByRole('link', { name: 'Mitgliedschaft' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await sprachen.getByRole('link', { name: 'Français' }).getAttribute('lang')).toBe('fr');
    const cookie = (await context.cookies()).find((c) => c.name === 'lang');
    expect(cookie).toMatchObject({ value: 'de', path: '/', sameSite: 'Lax' });
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);

    // A link of the page stays under /de: the router's base is the language's.
    await page.locator('a[href="/de/shop"]').first().click();
    await page.waitForURL((url) => url.pathname === '/de/shop');
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.locator('.product-tile').first().innerText()).toMatch(/\d,\d\d\s\$/u);
    expect(await page.locator('.site-footer').getByRole('link', { name: 'Mitgliedschaft' }).isVisible()).toBe(true);

    await page.reload();
    await expect.poll(() => page.locator('.product-tile').count(), { timeout: 10_000 }).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/de/shop');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'languages-phone-de-shop');

    // The choice is remembered: the shop's plain address opens in German.
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/de');
    await expect.poll(() => page.getByRole('navigation', { name: 'Sprache' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(hydrationErrors(context)).toEqual([]);
    await context.close();
  });
});
