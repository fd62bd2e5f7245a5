import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, followUserMenu, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { orderInput, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import { linkIn, mailHeader, waitForMail } from '../helpers/account-mail.js';
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

/** Waits (a little) for the screen's icons, which are fetched one by one the first time they are drawn. */
async function iconsDrawn(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll('.bp6-icon')].every((icon) => icon.querySelector('svg')), undefined, { timeout: 5000 }).catch(() => undefined);
}

/** Photographs the page at desktop width, then at phone width, and goes back to desktop. */
async function bothWidths(page: Page, name: string): Promise<void> {
  await iconsDrawn(page);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await iconsDrawn(page);
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

    await followUserMenu(page, 'Account settings', '/account/settings');
    await expect.poll(() => page.getByRole('heading', { name: 'Account settings' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByText('tess_settings@example.com', { exact: true }).first().isVisible(), { timeout: 15_000 }).toBe(true);
    // Not confirmed yet: the reminder with "Send the link again".
    await expect.poll(() => page.getByRole('button', { name: 'Send the link again' }).isVisible(), { timeout: 15_000 }).toBe(true);
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
    // The current password first: a wrong one is said on its field, and nothing changes.
    await passwordDialog.getByLabel('Current password').fill('not-my-password');
    await passwordDialog.getByLabel('New password').fill('tess-new-password');
    await passwordDialog.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => passwordDialog.getByText('That password is not right.').isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'tess_settings', password: 'tess-new-password' } })).status).toBe(401);
    await passwordDialog.getByLabel('Current password').fill(PASSWORD);
    await passwordDialog.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText('Password changed successfully').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => passwordDialog.isVisible(), { timeout: 10_000 }).toBe(false);

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
    await page.getByRole('dialog', { name: 'Delete my account' }).getByLabel('Password').fill('tess-new-password');
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

/** The path and query of a link in an e-mail (the browser opens it on the test's shop). */
const pathOf = (url: URL) => url.pathname + url.search;

describe('password reset in a real browser', () => {
  it('forgot → e-mail → reset → sign in; the old session has ended', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await register(app, 'ines_reset');
    const old = await signedIn(browser, app, 'ines_reset');
    const oldToken = await old.evaluate(() => sessionStorage.getItem('token'));

    const page = await (await newContext(browser, app.url)).newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await expect.poll(() => page.getByRole('heading', { name: 'Forgot your password?' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await bothWidths(page, 'forgot-password');
    await page.getByLabel('E-mail').fill('ines_reset@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByText('If an account uses that address, we have sent it a link.').isVisible(), { timeout: 10_000 }).toBe(true);
    await bothWidths(page, 'forgot-password-sent');

    const mail = await waitForMail(app, 'ines_reset@example.com', 'Reset your Art & Song Cards password');
    const link = linkIn(mail, '/reset-password');
    expect(link.origin).toBe('https://cards.example');
    await page.goto(pathOf(link));
    await expect.poll(() => page.getByRole('heading', { name: 'Choose a new password' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await bothWidths(page, 'reset-password');
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByText(/at least 8 characters long/).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('New password').fill('ines-new-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByText('Your password has been set. Sign in with it.').isVisible(), { timeout: 10_000 }).toBe(true);
    await bothWidths(page, 'reset-password-done');

    // The link is used up: opened again, it says so and offers a new one.
    await page.goto(pathOf(link));
    await page.getByLabel('New password').fill('another-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByText(/This link is not valid/).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('link', { name: 'Ask for a new link' }).isVisible()).toBe(true);
    await iconsDrawn(page);
    await screenshot(page, 'reset-password-used-desktop');

    // Sign in with the new password; the session opened before the reset has ended.
    await signIn(page, 'ines_reset', 'ines-new-password');
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    expect((await app.request('/api/me', { token: oldToken! })).status).toBe(401);
    await old.context().close();
    await page.context().close();
  });
});

describe('confirming an address in a real browser', () => {
  it('register → confirm → the guest order appears in My orders', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const guest = (await placeOrder(app, orderInput(shop, { purchaserEmail: 'jude@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Kit', recipientEmail: 'kit@example.com' }) }] }))).body.data.placeOrder;

    const page = await (await newContext(browser, app.url)).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Create an account' }).click();
    await page.getByLabel('Username').fill('jude');
    await page.getByLabel('E-mail').fill('jude@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Login', exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByLabel('Username').fill('jude');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });

    // My orders: the reminder, and not yet the guest order.
    await page.goto('/account');
    await expect.poll(() => page.getByText('Confirm your e-mail address').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByText('No orders yet').isVisible(), { timeout: 15_000 }).toBe(true);
    await bothWidths(page, 'account-confirm-reminder');
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect.poll(() => page.getByText('We have sent a new link to jude@example.com.').isVisible(), { timeout: 10_000 }).toBe(true);

    const mail = await waitForMail(app, 'jude@example.com', 'Confirm your e-mail address');
    await page.goto(pathOf(linkIn(mail, '/verify-email')));
    await expect.poll(() => page.getByText('Your e-mail address is confirmed.').isVisible(), { timeout: 15_000 }).toBe(true);
    await bothWidths(page, 'verify-email-done');
    await page.getByRole('link', { name: 'Go to My orders' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    const card = page.getByRole('listitem', { name: 'Card for Kit' });
    await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByText('Confirm your e-mail address').count()).toBe(0);
    expect(await page.getByText(`Order ${guest.id.slice(0, 8).toUpperCase()}`).isVisible()).toBe(true);

    // The same link again: it says it is used.
    await page.goto(pathOf(linkIn(mail, '/verify-email')));
    await expect.poll(() => page.getByText(/This link is not valid/).isVisible(), { timeout: 15_000 }).toBe(true);
    await bothWidths(page, 'verify-email-used');
    await page.context().close();
  });
});

describe('changing the address in a real browser', () => {
  it('the form, the link to the new address, and the settings under the new address', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    await register(app, 'lena_move');
    const page = await signedIn(browser, app, 'lena_move');
    await page.goto('/account/settings');
    const form = page.getByRole('form', { name: 'Change e-mail' });
    await expect.poll(() => form.isVisible(), { timeout: 15_000 }).toBe(true);
    await form.getByLabel('New e-mail address').fill('lena.new@example.com');
    await form.getByLabel('Password').fill('wrong-password');
    await form.getByRole('button', { name: 'Change e-mail' }).click();
    await expect.poll(() => form.getByText('That password is not right.').isVisible(), { timeout: 10_000 }).toBe(true);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Change e-mail' }).click();
    await expect.poll(() => page.getByText('We have sent a link to lena.new@example.com. Your address changes once you open it.').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByText(/Waiting for/).isVisible(), { timeout: 10_000 }).toBe(true);
    await bothWidths(page, 'account-settings-email-pending');

    const mail = await waitForMail(app, 'lena.new@example.com', 'Confirm your new e-mail address');
    await page.goto(pathOf(linkIn(mail, '/verify-email')));
    await expect.poll(() => page.getByText('Your address is now lena.new@example.com.').isVisible(), { timeout: 15_000 }).toBe(true);
    // The session continues under the new address (its token was renewed).
    await page.goto('/account/settings');
    await expect.poll(() => page.locator('.settings-current').textContent(), { timeout: 15_000 }).toContain('lena.new@example.com');
    await page.getByRole('button', { name: 'lena_move: account' }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'lena.new@example.com' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.keyboard.press('Escape');
    await bothWidths(page, 'account-settings-email-changed');
    await waitForMail(app, 'lena_move@example.com', 'Your Art & Song Cards address was changed');
    await page.context().close();
  });
});

describe('a recipient who says no, in a real browser', () => {
  it('unsubscribes from the card e-mail by one-click POST; the card queued for tomorrow is withheld, and said so', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const token = await app.customer('mona_sender');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const order = (await placeOrder(app, orderInput(shop, {
      purchaserEmail: 'mona_sender@example.com',
      lines: [
        { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Nell', recipientEmail: 'nell@example.com' }) },
        { productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Nell', recipientEmail: 'nell@example.com', deliveryDate: tomorrow, timeZone: 'UTC' }) },
      ],
    }), token)).body.data.placeOrder;
    const card = await waitForMail(app, 'nell@example.com', 'Ada sent you a card: Balloon Birthday');
    const header = new URL(mailHeader(card, 'List-Unsubscribe')!.slice(1, -1));
    expect(mailHeader(card, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // Nell's mail program: the one-click POST (RFC 8058).
    expect((await app.request(pathOf(header), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })).status).toBe(200);
    // Opening the same link afterwards shows that it is done.
    const recipient = await (await newContext(browser, app.url)).newPage();
    await recipient.goto(pathOf(header));
    await expect.poll(() => recipient.getByText('You are unsubscribed').isVisible(), { timeout: 15_000 }).toBe(true);
    await recipient.context().close();

    // Tomorrow comes: the queued card is not sent.
    const later = order.items[1].id as number;
    await app.sql(`update mail_job set due_at = now() where ref = 'card:' || $1 and kind = 'card'`, [later]);
    await app.services.deliveries.runDue();
    await expect.poll(async () => (await app.sql<{ status: string }>(`select status from mail_job where ref = 'card:' || $1 and kind = 'card'`, [later]))[0]!.status, { timeout: 30_000 }).toBe('withheld');

    const page = await signedIn(browser, app, 'mona_sender');
    await page.goto('/account');
    const states = page.locator('.account-card-state');
    await expect.poll(async () => (await states.allTextContents()).includes('Not delivered: the recipient unsubscribed'), { timeout: 15_000 }).toBe(true);
    await bothWidths(page, 'account-card-not-delivered');
    await page.context().close();

    const admin = await signedIn(browser, app, 'admin', 'admin-password-1');
    await admin.goto(`/admindash?view=orders&search=${order.id}`);
    const rows = admin.locator('.orders-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    await rows.first().click();
    const details = admin.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => details.getByText('Not delivered: the recipient unsubscribed').first().isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshotOf(details, 'admin-order-details-not-delivered-desktop');
    await admin.setViewportSize(PHONE);
    await screenshotOf(details, 'admin-order-details-not-delivered-phone');
    await admin.context().close();
  });
});
