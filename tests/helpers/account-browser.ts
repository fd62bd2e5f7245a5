import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { newContext, screenshot, signIn } from './browser.js';
import type { TestApp } from './test-app.js';

/** What the browser files about accounts share: a signed-in profile, photographs at both widths. */
export const PHONE = { width: 390, height: 844 };
export const PASSWORD = 'customer-pass-1';

/** A fresh browser profile signed in as `username`. */
export async function signedIn(browser: Browser, app: TestApp, username: string, password = PASSWORD): Promise<Page> {
  const page = await (await newContext(browser, app.url)).newPage();
  await signIn(page, username, password);
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
  return page;
}

/** Waits (a little) for the screen's icons, which are fetched one by one the first time they are drawn. */
export async function iconsDrawn(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll('.bp6-icon')].every((icon) => icon.querySelector('svg')), undefined, { timeout: 5000 }).catch(() => undefined);
}

/** Photographs the page at desktop width, then at phone width, and goes back to desktop. */
export async function bothWidths(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await iconsDrawn(page);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

export async function register(app: TestApp, username: string): Promise<void> {
  const res = await app.request('/api/register', { method: 'POST', json: { username, email: `${username}@example.com`, password: PASSWORD } });
  expect(res.status).toBe(201);
}

/** The path and query of a link in an e-mail (the browser opens it on the test's shop). */
export const pathOf = (url: URL) => url.pathname + url.search;

/** The navbar's account button of a signed-in `username`. */
export const accountButton = (page: Page, username: string) => page.getByRole('button', { name: `${username}: account` });

/** Signs in through the form as a shopper would (by e-mail address), the box left as it is. */
export async function signInByEmail(context: BrowserContext, username: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(`${username.toUpperCase()}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect.poll(() => accountButton(page, username).isVisible(), { timeout: 30_000 }).toBe(true);
  return page;
}

/** Opens a path in a new tab of the context (its own session storage) and tells who the navbar says is signed in. */
export async function newTab(context: BrowserContext, path: string, username: string): Promise<{ page: Page; signedIn: () => Promise<boolean> }> {
  const page = await context.newPage();
  await page.goto(path);
  const signedIn = async () => {
    if (await accountButton(page, username).isVisible()) return true;
    if (await page.getByRole('button', { name: 'Sign in' }).isVisible()) return false;
    return null as unknown as boolean;
  };
  return { page, signedIn };
}
