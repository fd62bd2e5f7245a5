import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { PASSWORD, PHONE, accountButton, newTab, signInByEmail } from '../helpers/account-browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * A sign-in that lasts (contract section 15) in a real browser, its ends and beginnings: "Sign out
 * everywhere" signs out every browser, and registering signs in and goes back where the shopper
 * was. "Keep me signed in" and a copied cookie are in session-lasts.test.ts.
 */
const suite = browserSuite();

describe('a sign-in that lasts, in a real browser: signing out everywhere, registering', () => {
  it('Sign out everywhere, in Account settings, signs out every browser', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await app.customer('lia');
    const laptop = await newContext(browser, app.url);
    const phone = await newContext(browser, app.url, { viewport: PHONE });
    await signInByEmail(laptop, 'lia');
    const phoneTab = await signInByEmail(phone, 'lia');
    const settings = await laptop.newPage();
    await settings.goto('/account/settings');
    await expect.poll(() => settings.getByRole('button', { name: 'Sign out everywhere' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshot(settings, 'account-settings-sign-out-everywhere');
    await settings.getByRole('button', { name: 'Sign out everywhere' }).click();
    await settings.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    await expect.poll(() => settings.getByText('You are signed out everywhere.').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await app.sql(`select 1 from auth_session a join app_user u on u.id = a.user_id where u.username = 'lia'`)).toEqual([]);
    const laptopTab = await newTab(laptop, '/', 'lia');
    await expect.poll(laptopTab.signedIn, { timeout: 30_000 }).toBe(false);
    await phoneTab.goto('/account');
    await phoneTab.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    await laptop.close();
    await phone.close();
  });

  it('creating an account signs in and goes back to the page the shopper came from', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url, { viewport: PHONE });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`/product/${shop.cardId}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('tab', { name: 'Create an account' }).click();
    await page.getByLabel('Username').fill('mona');
    await page.getByLabel('E-mail').fill('mona@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === `/product/${shop.cardId}`, { timeout: 30_000 });
    await expect.poll(() => accountButton(page, 'mona').isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshot(page, 'registered-back-on-product-phone');
    // Registered with "Keep me signed in": a new tab opens signed in.
    const tab = await newTab(context, '/account', 'mona');
    await expect.poll(tab.signedIn, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => tab.page.getByText('Confirm your e-mail address').isVisible(), { timeout: 30_000 }).toBe(true);
    await context.close();
  });
});
