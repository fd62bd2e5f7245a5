import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot } from '../helpers/browser.js';
import { PASSWORD, PHONE, accountButton, newTab, signInByEmail } from '../helpers/account-browser.js';

/**
 * A sign-in that lasts (contract section 15) in a real browser: "Keep me signed in", a new tab and
 * an e-mail's link opening signed in, and a copied cookie ending the session. "Sign out everywhere"
 * and registering are in session-lasts-everywhere.test.ts.
 */
const suite = browserSuite();

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
});
