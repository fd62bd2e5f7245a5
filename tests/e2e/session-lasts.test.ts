import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { PASSWORD, PHONE } from '../helpers/account-browser.js';
import { seedShop } from '../helpers/order-fixtures.js';

/**
 * A sign-in that lasts (contract section 15) in a real browser: "Keep me signed in", a new tab and
 * an e-mail's link opening signed in, a copied cookie ending the session, "Sign out everywhere",
 * and registering that signs in and goes back where the shopper was.
 */
const suite = browserSuite();

const accountButton = (page: Page, username: string) => page.getByRole('button', { name: `${username}: account` });

/** Signs in through the form as a shopper would (by e-mail address), the box left as it is. */
async function signInByEmail(context: BrowserContext, username: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(`${username.toUpperCase()}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect.poll(() => accountButton(page, username).isVisible(), { timeout: 30_000 }).toBe(true);
  return page;
}

/** Opens a path in a new tab of the context (its own session storage) and tells who the navbar says is signed in. */
async function newTab(context: BrowserContext, path: string, username: string): Promise<{ page: Page; signedIn: () => Promise<boolean> }> {
  const page = await context.newPage();
  await page.goto(path);
  const signedIn = async () => {
    if (await accountButton(page, username).isVisible()) return true;
    if (await page.getByRole('button', { name: 'Sign in' }).isVisible()) return false;
    return null as unknown as boolean;
  };
  return { page, signedIn };
}

describe('a sign-in that lasts, in a real browser', () => {
  it('"Keep me signed in" (on by default): a new tab and an e-mail link open signed in; the cookie is out of script\'s reach', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await app.customer('ines');
    const context = await newContext(browser, app.url);
    const login = await context.newPage();
    await login.goto('/login');
    await expect.poll(() => login.getByRole('checkbox', { name: 'Keep me signed in' }).isChecked(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => login.getByText('or your e-mail address').isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshot(login, 'login-desktop');
    await login.setViewportSize(PHONE);
    await screenshot(login, 'login-phone');
    await login.close();

    const first = await signInByEmail(context, 'ines');
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/session' });
    expect(await first.evaluate(() => document.cookie)).not.toContain('session=');

    // A new tab (session storage of its own) opens My orders signed in, without passing by the sign-in page.
    const tab = await newTab(context, '/account', 'ines');
    await expect.poll(tab.signedIn, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => tab.page.getByRole('heading', { name: 'My orders' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(new URL(tab.page.url()).pathname).toBe('/account');
    // The cookie was swapped for a new one as the tab signed in.
    expect((await context.cookies()).find((cookie) => cookie.name === 'session')!.value).not.toBe(session.value);
    await screenshot(tab.page, 'session-new-tab-signed-in');

    // A link from one of the shop's e-mails (say, to the account's settings) opens signed in too.
    const link = await newTab(context, '/account/settings', 'ines');
    await expect.poll(() => link.page.getByRole('heading', { name: 'Account settings' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await context.close();
  });

  it('without "Keep me signed in", a new tab opens signed out', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await app.customer('jon');
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').fill('jon');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByText('Keep me signed in').click();
    expect(await page.getByRole('checkbox', { name: 'Keep me signed in' }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => accountButton(page, 'jon').isVisible(), { timeout: 30_000 }).toBe(true);
    expect((await context.cookies()).filter((cookie) => cookie.name === 'session')).toEqual([]);
    const tab = await newTab(context, '/', 'jon');
    await expect.poll(tab.signedIn, { timeout: 30_000 }).toBe(false);
    await context.close();
  });

  it('a cookie copied into another browser: once either uses a cookie the other already swapped, both are signed out', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await app.customer('kai');
    const own = await newContext(browser, app.url);
    const ownTab = await signInByEmail(own, 'kai');
    const copy = await newContext(browser, app.url);
    await copy.addCookies((await own.cookies()).filter((cookie) => cookie.name === 'session'));

    // The copy signs in with it (and swaps it); the owner's browser still holds the one now retired.
    const copied = await newTab(copy, '/account', 'kai');
    await expect.poll(copied.signedIn, { timeout: 30_000 }).toBe(true);
    // Later than the moment two tabs of one browser may race with the same cookie.
    await app.sql(`update remembered_session_retired set retired_at = retired_at - interval '1 minute'`);
    const later = await newTab(own, '/account', 'kai');
    await later.page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    expect(await app.sql(`select 1 from remembered_session s join app_user u on u.id = s.user_id where u.username = 'kai'`)).toEqual([]);

    // Both browsers' tokens from that session ended, and a new tab of the copy opens signed out.
    await copied.page.reload();
    await copied.page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    const again = await newTab(copy, '/', 'kai');
    await expect.poll(again.signedIn, { timeout: 30_000 }).toBe(false);
    // The owner's first tab learns it at its next signed-in request (a page of the account asks one at once).
    await ownTab.goto('/account');
    await ownTab.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    await own.close();
    await copy.close();
  });

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
