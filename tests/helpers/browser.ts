import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AppConfig } from '../../server/src/config.js';
import { ADMIN, startTestApp, type TestApp } from './test-app.js';

/** Debian's Chromium, headless; playwright-core never downloads a browser of its own. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The sandbox has no internet: any other host (external font stylesheets) fails at once instead of
    // waiting for a timeout. Done by the resolver, not by a route: a route turns the page's HTTP cache
    // off, and every page would fetch and compile the shop's scripts again.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'],
  });
}

let shared: Promise<Browser> | null = null;

/**
 * The worker's one Chromium, launched by the first browser file it runs and kept for the next ones
 * (each file, and each test, works in contexts of its own: a fresh profile each). Playwright closes
 * it when the worker exits.
 */
export function sharedBrowser(): Promise<Browser> {
  shared ??= launchBrowser().then((browser) => {
    browser.once('disconnected', () => (shared = null));
    return browser;
  });
  return shared;
}

/** What React said about a page drawn by the server that it could not take over as it was. */
const HYDRATION_PROBLEM = /hydrat|Minified React error #(418|419|421|422|423|425)\b/i;
const hydrationProblems = new WeakMap<BrowserContext, string[]>();

/** The hydration errors and warnings the pages of a context logged (expected: none). */
export function hydrationErrors(context: BrowserContext): string[] {
  return hydrationProblems.get(context) ?? [];
}

/** Collects the hydration problems of every page of the context, for hydrationErrors(). */
export function watchHydration(context: BrowserContext): void {
  const problems: string[] = [];
  hydrationProblems.set(context, problems);
  context.on('console', (message) => {
    if ((message.type() === 'error' || message.type() === 'warning') && HYDRATION_PROBLEM.test(message.text())) problems.push(`${message.page()?.url()}: ${message.text()}`);
  });
  context.on('weberror', (error) => {
    if (HYDRATION_PROBLEM.test(error.error().message)) problems.push(`${error.page()?.url()}: ${error.error().message}`);
  });
}

/** A fresh browser profile (own local and session storage) on the app, failing on page errors; hydration problems are collected (hydrationErrors). */
export async function newContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, ...options });
  watchHydration(context);
  return context;
}

const SHOTS = path.resolve(import.meta.dirname, '../.artifacts/screenshots');

/**
 * Whether screenshots are written: they are for a person to look at, so a run under CI (whose files
 * nobody opens) skips the capture (a full page's PNG costs a browser file seconds), unless told
 * otherwise with SCREENSHOTS=1; SCREENSHOTS=0 skips them anywhere.
 */
const SHOTS_WANTED = process.env.SCREENSHOTS ? process.env.SCREENSHOTS !== '0' : !process.env.CI;

/** Saves a full-page screenshot under tests/.artifacts/screenshots for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(SHOTS, `${name}.png`);
  if (!SHOTS_WANTED) return file;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Saves a screenshot of one element (a dialog, say) once overlays have finished moving. Without
 * screenshots it still waits for the same: the element shown and the overlays at rest.
 */
export async function screenshotOf(locator: Locator, name: string): Promise<string> {
  const file = path.join(SHOTS, `${name}.png`);
  await locator.page().waitForFunction(() => !document.querySelector('.bp6-overlay-enter, .bp6-overlay-enter-active, .bp6-overlay-exit, .bp6-overlay-exit-active'));
  if (!SHOTS_WANTED) {
    await locator.waitFor({ state: 'visible' });
    return file;
  }
  fs.mkdirSync(SHOTS, { recursive: true });
  await locator.screenshot({ path: file });
  return file;
}

/** Waits until the page's CSS transitions and animations have run their course (a card that opens, say). */
export async function animationsSettled(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' && !animation.pending), undefined, { timeout, polling: 100 });
}

/**
 * Closes the open dialog with Escape as a person would, once it has taken the focus: an overlay
 * hears keys only from inside itself, and it takes the focus a moment after it is drawn.
 */
export async function escapeDialog(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('.bp6-overlay'))), { timeout: 15_000 }).toBe(true);
  await page.keyboard.press('Escape');
}

/**
 * Where an element is once the page has stopped moving it: the same box read twice in a row. A box
 * read at once can be null or stale while a list re-renders (the category tree after a move, say).
 */
export async function settledBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let previous: string | null = null;
  let box: Awaited<ReturnType<Locator['boundingBox']>> = null;
  await expect
    .poll(
      async () => {
        box = await locator.boundingBox();
        const seen = box && JSON.stringify(box);
        const settled = seen !== null && seen === previous;
        previous = seen;
        return settled;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe(true);
  return box!;
}

/**
 * Registers the hooks of a browser test file: one app on a fresh database, stopped after the file,
 * and the worker's Chromium. Read them from the returned object inside tests.
 */
export function browserSuite(overrides: Partial<AppConfig> = {}): { app: TestApp; browser: Browser } {
  const suite = {} as { app: TestApp; browser: Browser };
  beforeAll(async () => {
    [suite.app, suite.browser] = await Promise.all([startTestApp(overrides), sharedBrowser()]);
  });
  afterAll(async () => {
    // What the file opened goes with it; the browser stays for the worker's next file.
    await Promise.all(suite.browser?.contexts().map((context) => context.close()) ?? []);
    await suite.app?.stop();
  });
  return suite;
}

/** A fresh profile signed in as the admin through the Login screen, on the console (`/admindash`), its actions waiting up to 30 s. */
export async function openConsole(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, baseURL);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await signIn(page);
  await page.waitForURL(baseURL + '/');
  await page.goto('/admindash');
  return { context, page };
}

/** Signs in through the Login screen. */
export async function signIn(page: Page, username = ADMIN.username, password = ADMIN.password): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/**
 * Opens the signed-in user's menu and follows one of its items until the page is at `pathname`. On a
 * busy machine the first click can land while the navbar is still swapping in the signed-in menu (the
 * popover then closes without following); a shopper clicks again, and so does this.
 */
export async function followUserMenu(page: Page, item: string, pathname: string): Promise<void> {
  const arrived = () => new URL(page.url()).pathname === pathname;
  for (let attempt = 0; attempt < 5 && !arrived(); attempt++) {
    await page.keyboard.press('Escape').catch(() => undefined);
    await page.getByRole('button', { name: /: account$|^Account$/ }).click({ timeout: 30_000 });
    await page.getByRole('menuitem', { name: item }).click({ timeout: 30_000 });
    await page.waitForURL((url) => url.pathname === pathname, { timeout: 20_000 }).catch(() => undefined);
  }
  if (!arrived()) throw new Error(`The user menu's "${item}" did not lead to ${pathname} (the page is at ${page.url()})`);
}
