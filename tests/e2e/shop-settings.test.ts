import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE } from '../helpers/account-browser.js';
import { browserSuite, hydrationErrors, newContext, screenshot, signIn } from '../helpers/browser.js';
import { uploadMedia } from '../helpers/catalogue-fixtures.js';
import { seriousProblems, SHOPPERS } from '../helpers/axe.js';

/**
 * The owner's Settings in a real browser (contract section 16): the shop renamed, a logo picked from
 * the media library and the announcement bar turned on at 1280×800; a shopper then sees the new name
 * in the header and the bar above it, at 1280 and at 390×844, drawn by the server (even without
 * JavaScript) and taken over by the browser without a mismatch.
 */
const suite = browserSuite();

const toast = (page: Page, text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor({ timeout: 30_000 });
/** Waits until the header's logo has loaded its bytes. */
const logoLoaded = (page: Page) =>
  page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.top-navbar img.brand-logo')].some((img) => img.complete && img.naturalWidth > 0), undefined, { timeout: 30_000 });

describe('Settings in a real browser', () => {
  it('the owner renames the shop and turns the announcement on; shoppers see both, on a desktop and a phone', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    await uploadMedia(app, token, { images: 1, songs: 0, folder: 'Brand' });

    const owner = await newContext(browser, app.url);
    const page = await owner.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await page.goto('/settings');
    const name = page.getByLabel('Shop name');
    await expect.poll(() => name.inputValue(), { timeout: 30_000 }).toBe('Art & Song Cards');

    await name.fill('Bloom & Tune');
    await page.getByLabel('Show the announcement bar').check({ force: true });
    await page.getByLabel('Announcement text').fill('Free songs on every card this week');
    // A link the shop refuses: its message shows under the field, and nothing is saved.
    await page.getByLabel('Announcement link').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The link must be a path on this site (such as /shop) or an https:// address.').waitFor({ timeout: 30_000 });
    expect(await app.sql(`select key from setting where key like 'shop.%'`)).toEqual([]);
    await screenshot(page, 'shop-settings-error-1280');

    await page.getByLabel('Announcement link').fill('/shop');
    await page.getByRole('button', { name: 'Choose logo' }).click();
    const browserDialog = page.getByRole('dialog', { name: 'Media Browser' });
    await browserDialog.getByText('Brand', { exact: true }).click();
    await browserDialog.getByRole('button', { name: 'Select image-1.png' }).click();
    await browserDialog.waitFor({ state: 'hidden', timeout: 30_000 });
    await page.getByText('image-1.png', { exact: true }).waitFor();
    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    await page.getByLabel('Default delivery hour').selectOption({ label: '08:00' });
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Settings saved successfully!');
    await expect
      .poll(async () => Object.fromEntries((await app.sql<{ key: string; value: string }>(`select key, value from setting where key like 'shop.%'`)).map((row) => [row.key, row.value])), { timeout: 30_000 })
      .toMatchObject({ 'shop.name': 'Bloom & Tune', 'shop.timeZone': 'Europe/Paris', 'shop.deliveryHour': '8', 'shop.announcement': JSON.stringify({ enabled: true, text: 'Free songs on every card this week', link: '/shop' }) });
    // The owner's own header follows at once; the console shows no announcement bar.
    await expect.poll(() => page.locator('.top-navbar .brand-name').textContent(), { timeout: 30_000 }).toBe('Bloom & Tune');
    expect(await page.getByRole('region', { name: 'Announcement' }).count()).toBe(0);
    await screenshot(page, 'shop-settings-saved-1280');

    // A shopper on a desktop: the name in the header and the title, the bar above the header with its link.
    const shopper = await newContext(browser, app.url);
    const desk = await shopper.newPage();
    await desk.goto('/');
    const bar = desk.getByRole('region', { name: 'Announcement' });
    await bar.getByRole('link', { name: 'Free songs on every card this week' }).waitFor({ timeout: 30_000 });
    await desk.getByRole('heading', { name: 'Bloom & Tune', level: 1 }).waitFor();
    expect(await desk.locator('.top-navbar .brand-name').textContent()).toBe('Bloom & Tune');
    expect(await desk.title()).toBe('Bloom & Tune — e-greeting cards with songs and pictures');
    await logoLoaded(desk);
    const [barBox, headerBox] = [await bar.boundingBox(), await desk.locator('.top-navbar').boundingBox()];
    expect(barBox!.y + barBox!.height).toBeLessThanOrEqual(headerBox!.y + 1);
    await screenshot(desk, 'shop-settings-shopper-1280');
    // The bar and the logo keep the page within the shop's accessibility bar (contrast, names, landmarks).
    expect(await seriousProblems(desk, SHOPPERS)).toEqual([]);
    await bar.getByRole('link').click();
    await desk.waitForURL((url) => url.pathname === '/shop', { timeout: 30_000 });
    expect(await desk.title()).toContain('Bloom & Tune');
    expect(hydrationErrors(shopper)).toEqual([]);

    // On a phone: the same, within the screen's width.
    const phone = await newContext(browser, app.url, { viewport: PHONE, isMobile: true, hasTouch: true });
    const small = await phone.newPage();
    await small.goto('/shop');
    const phoneBar = small.getByRole('region', { name: 'Announcement' });
    await phoneBar.getByRole('link', { name: 'Free songs on every card this week' }).waitFor({ timeout: 30_000 });
    expect(await small.locator('.top-navbar .brand-name').textContent()).toBe('Bloom & Tune');
    await logoLoaded(small);
    const phoneBox = await phoneBar.boundingBox();
    expect(phoneBox!.x).toBeGreaterThanOrEqual(0);
    expect(phoneBox!.x + phoneBox!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(small, 'shop-settings-shopper-phone');
    expect(await seriousProblems(small, SHOPPERS)).toEqual([]);
    // A long name wraps within the phone's width rather than pushing the controls off it.
    const longName = 'The Little Greeting Card Company of Songs & Pictures';
    expect((await app.graphql('mutation($input: UpdateSettingsInput!) { updateSettings(input: $input) { shopName } }', { input: { shopName: longName } }, token)).body.errors).toBeUndefined();
    await small.reload();
    await expect.poll(() => small.locator('.top-navbar .brand-name').textContent(), { timeout: 30_000 }).toBe(longName);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect((await small.getByRole('button', { name: 'Sign in' }).boundingBox())!.x + 10).toBeLessThanOrEqual(PHONE.width);
    await screenshot(small, 'shop-settings-long-name-phone');
    // Closed, it stays closed for the tab.
    await phoneBar.getByRole('button', { name: 'Close the announcement' }).click();
    await phoneBar.waitFor({ state: 'detached', timeout: 30_000 });
    await small.reload();
    await small.locator('.top-navbar .brand-name').waitFor();
    await expect.poll(() => small.getByRole('region', { name: 'Announcement' }).count(), { timeout: 30_000 }).toBe(0);
    expect(hydrationErrors(phone)).toEqual([]);

    // Without JavaScript the server-drawn page already says it all.
    const plain = await newContext(browser, app.url, { javaScriptEnabled: false });
    const still = await plain.newPage();
    await still.goto('/');
    expect(await still.getByRole('region', { name: 'Announcement' }).getByRole('link', { name: 'Free songs on every card this week' }).isVisible()).toBe(true);
    expect(await still.locator('.top-navbar .brand-name').textContent()).toBe(longName);
    await screenshot(still, 'shop-settings-no-script-1280');

    for (const context of [owner, shopper, phone, plain]) await context.close();
  });
});
