import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, newContext, screenshot, signIn } from '../helpers/browser.js';
import { ADMIN } from '../helpers/test-app.js';

const suite = browserSuite();

/** The Settings screen enables its switch once the stored settings have arrived. */
const settingsLoaded = (page: Page) => page.getByLabel('Under Construction Mode').and(page.locator(':enabled')).waitFor();

describe('foundation in a real browser', () => {
  it('shows the home page hero in the dark theme by default', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Art & Song Cards', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(true);
    await screenshot(page, 'home-dark');
    await context.close();
  });

  it('shows the server message in a dismissible alert when a login fails', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    await signIn(page, ADMIN.username, 'not-the-password');
    const alert = page.getByText('Invalid username or password');
    await alert.waitFor();
    await screenshot(page, 'login-failed');
    expect(page.url()).toMatch(/\/login$/);
    await page.getByRole('button', { name: /close|dismiss/i }).first().click();
    await alert.waitFor({ state: 'detached' });
    await context.close();
  });

  it('logs in, keeps the session in session storage, and the Cancel button goes home', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(suite.app.url + '/');
    await signIn(page);
    await page.waitForURL(suite.app.url + '/');
    const stored = await page.evaluate(() => ({ token: sessionStorage.getItem('token'), user: sessionStorage.getItem('user') }));
    expect(stored.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.parse(stored.user!)).toMatchObject({ username: 'admin', role: 'admin' });
    // Still signed in after a reload (auto-login from session storage).
    await page.goto('/admindash');
    await page.getByText('Admin Menu').waitFor();
    await screenshot(page, 'admin-dashboard');
    await context.close();
  });

  it('toggles the theme and keeps the choice across a reload', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: /light theme|dark theme|theme/i }).first().click();
    await page.waitForFunction(() => !document.body.classList.contains('bp6-dark'));
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await page.reload();
    await page.getByRole('heading', { name: 'Art & Song Cards', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.body.classList.contains('bp6-dark'))).toBe(false);
    await screenshot(page, 'home-light');
    await context.close();
  });

  it('sends a visitor who is not signed in from /settings to /login', async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    await page.goto('/settings');
    await page.waitForURL(/\/login$/);
    await context.close();
  });

  it('saves settings, and under construction sends anonymous visitors to /under-construction', async () => {
    const adminContext = await newContext(suite.browser, suite.app.url);
    const page = await adminContext.newPage();
    await signIn(page);
    await page.waitForURL(suite.app.url + '/');
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.getByText('General Settings').waitFor();
    const toggle = page.getByLabel('Under Construction Mode');
    await settingsLoaded(page);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check({ force: true });
    // Local until saved.
    expect(await suite.app.sql("select value from setting where key = 'underConstructionMode'")).toEqual([{ value: 'false' }]);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved successfully!').waitFor();
    await screenshot(page, 'settings-saved');
    expect(await suite.app.sql("select value from setting where key = 'underConstructionMode'")).toEqual([{ value: 'true' }]);
    // The message bar hides itself after 3000 ms.
    await page.getByText('Settings saved successfully!').waitFor({ state: 'hidden', timeout: 6000 });

    const visitorContext = await newContext(suite.browser, suite.app.url);
    const visitor = await visitorContext.newPage();
    for (const path of ['/', '/shop', '/blog', '/admindash']) {
      await visitor.goto(path);
      await visitor.waitForURL(/\/under-construction$/);
    }
    await visitor.getByRole('heading', { name: 'We are tuning up' }).waitFor();
    await screenshot(visitor, 'under-construction');
    // Login stays reachable, and the signed-in admin still sees the site.
    await visitor.goto('/login');
    await visitor.getByLabel('Username').waitFor();
    expect(visitor.url()).toMatch(/\/login$/);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Art & Song Cards', level: 1 }).waitFor();

    await page.goto('/settings');
    await settingsLoaded(page);
    expect(await page.getByLabel('Under Construction Mode').isChecked()).toBe(true);
    await page.getByLabel('Under Construction Mode').uncheck({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved successfully!').waitFor();
    expect(await suite.app.sql("select value from setting where key = 'underConstructionMode'")).toEqual([{ value: 'false' }]);
    await visitor.goto('/');
    await visitor.getByRole('heading', { name: 'Art & Song Cards', level: 1 }).waitFor();
    // Once the shop is open again, the notice sends visitors home.
    await visitor.goto('/under-construction');
    await visitor.waitForURL(suite.app.url + '/');
    await adminContext.close();
    await visitorContext.close();
  });

  it('shows a signed-in customer an "Admins only" state on /admindash', async () => {
    await suite.app.customer('browsing-shopper');
    const context = await newContext(suite.browser, suite.app.url);
    const page = await context.newPage();
    await signIn(page, 'browsing-shopper', 'customer-pass-1');
    await page.waitForURL(suite.app.url + '/');
    await page.goto('/admindash');
    await page.getByText('Admins only').waitFor();
    expect(await page.getByText('Admin Menu').count()).toBe(0);
    await screenshot(page, 'admins-only');
    await context.close();
  });

  it("logs out an expired stored session on start with 'Token expired, logging out.'", async () => {
    const context = await newContext(suite.browser, suite.app.url);
    const payload = Buffer.from(JSON.stringify({ sub: '1', username: 'admin', role: 'admin', exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url');
    await context.addInitScript((token) => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        sessionStorage.setItem('token', token);
        sessionStorage.setItem('user', '{}');
      }
    }, `h.${payload}.s`);
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto('/settings');
    await page.waitForURL(/\/login$/);
    expect(messages).toContain('Token expired, logging out.');
    expect(await page.evaluate(() => [sessionStorage.getItem('token'), sessionStorage.getItem('user')])).toEqual([null, null]);
    await context.close();
  });
});
