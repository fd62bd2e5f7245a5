import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { seedShop } from '../helpers/order-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Accounts people can trust, recipients who can say no (contract section 11), in a real browser:
 * each flow end to end, each new screen photographed at phone and desktop width.
 */
const suite = browserSuite({ publicUrl: 'https://cards.example' });

const PHONE = { width: 390, height: 844 };
const PASSWORD = 'customer-pass-1';

/** A fresh browser profile signed in as `username`. */
async function signedIn(browser: Browser, app: TestApp, username: string, password = PASSWORD): Promise<Page> {
  const page = await (await newContext(browser, app.url)).newPage();
  await signIn(page, username, password);
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
  return page;
}

/** Photographs the page at desktop width, then at phone width, and goes back to desktop. */
async function bothWidths(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function register(app: TestApp, username: string): Promise<void> {
  const res = await app.request('/api/register', { method: 'POST', json: { username, email: `${username}@example.com`, password: PASSWORD } });
  expect(res.status).toBe(201);
}

describe('Account settings in a real browser', () => {
  it('the user menu leads to it; "opened" notices, Download my data, and Delete my account', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await register(app, 'tess_settings');
    const page = await signedIn(browser, app, 'tess_settings');

    await page.getByRole('button', { name: 'tess_settings: account' }).click();
    await page.getByRole('menuitem', { name: 'Account settings' }).click();
    await page.waitForURL((url) => url.pathname === '/account/settings');
    await expect.poll(() => page.getByRole('heading', { name: 'Account settings' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByText('tess_settings@example.com', { exact: true }).first().isVisible(), { timeout: 15_000 }).toBe(true);
    // Not confirmed yet: the reminder with "Send the link again".
    expect(await page.getByRole('button', { name: 'Send the link again' }).isVisible()).toBe(true);
    await bothWidths(page, 'account-settings');

    // "Opened" notices off, kept by the account.
    const notices = page.getByLabel('Tell me when my cards are opened');
    expect(await notices.isChecked()).toBe(true);
    await notices.click({ force: true });
    await expect.poll(async () => (await app.sql<{ notify_opened: boolean }>(`select notify_opened from app_user where username = 'tess_settings'`))[0]!.notify_opened, { timeout: 10_000 }).toBe(false);
    await page.reload();
    await expect.poll(() => page.getByLabel('Tell me when my cards are opened').isChecked(), { timeout: 10_000 }).toBe(false);

    // Download my data: a JSON file of the account.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^art-and-song-cards-tess_settings-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    expect(data.account).toMatchObject({ username: 'tess_settings', email: 'tess_settings@example.com', notify_opened: false });
    expect(data.orders).toEqual([]);

    // The password change lives here now (a dialog in the address).
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.searchParams.get('dialog') === 'password');
    const passwordDialog = page.getByRole('dialog', { name: 'Change password' });
    await expect.poll(() => passwordDialog.isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshotOf(passwordDialog, 'account-settings-change-password');
    await passwordDialog.getByRole('button', { name: 'Cancel' }).click();

    // Delete my account: the password again; a wrong one is said on the field.
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.searchParams.get('dialog') === 'delete');
    const dialog = page.getByRole('dialog', { name: 'Delete my account' });
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => dialog.getByText('That password is not right.').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshotOf(dialog, 'account-settings-delete-desktop');
    await page.setViewportSize(PHONE);
    await screenshotOf(dialog, 'account-settings-delete-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    // The dialog survives a reload (it is in the address).
    await page.reload();
    await expect.poll(() => page.getByRole('dialog', { name: 'Delete my account' }).isVisible(), { timeout: 15_000 }).toBe(true);
    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    await page.getByRole('dialog', { name: 'Delete my account' }).getByLabel('Password').fill(PASSWORD);
    await page.getByRole('dialog', { name: 'Delete my account' }).getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    await expect.poll(() => page.getByText('Your account was deleted.').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
    expect(await app.sql(`select id from app_user where username = 'tess_settings'`)).toEqual([]);
    expect((await app.request('/api/me', { token: token! })).status).toBe(401);
    await page.context().close();
  });
});

describe('recipients who say no, in a real browser', () => {
  it('the unsubscribe page unsubscribes; then checkout for that address is refused', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const url = await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), 'uma@example.com');
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const link = new URL(url);
    await page.goto(link.pathname + link.search);
    await expect.poll(() => page.getByRole('heading', { name: 'Stop e-mails from Art & Song Cards' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByText('u•••@example.com').isVisible(), { timeout: 15_000 }).toBe(true);
    await bothWidths(page, 'unsubscribe');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect.poll(() => page.getByText('You are unsubscribed').isVisible(), { timeout: 10_000 }).toBe(true);
    await bothWidths(page, 'unsubscribe-done');
    expect(await app.sql('select address_hash from unsubscribed_address')).toHaveLength(1);

    // A shopper tries to send Uma a card: the payment page says why not, and nothing is charged.
    await page.goto(`/product/${shop.cardId}`);
    await page.getByLabel("Recipient's name").fill('Uma');
    await page.getByLabel("Recipient's e-mail").fill('uma@example.com');
    await page.getByLabel('Your name').fill('Vic');
    await page.getByLabel('Your message').fill('Hello!');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('1');
    await page.goto('/payments');
    await page.getByLabel('E-mail').first().fill('vic@example.com');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('1230');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay $4.50' }).click();
    const failure = page.locator('.checkout-failure');
    await expect.poll(() => failure.textContent(), { timeout: 15_000 }).toContain('uma@example.com does not accept cards from this shop.');
    expect(await failure.textContent()).toContain('A recipient does not accept cards');
    await bothWidths(page, 'checkout-recipient-unsubscribed');
    expect(await app.sql(`select id from "order" where purchaser_email = 'vic@example.com'`)).toEqual([]);
    await context.close();
  });
});
