import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite, followUserMenu, screenshotOf } from '../helpers/browser.js';
import { linkIn, waitForMail } from '../helpers/account-mail.js';
import { PHONE, PASSWORD, signedIn, bothWidths, register, pathOf } from '../helpers/account-browser.js';

/**
 * Accounts people can trust (contract section 11) in a real browser: the settings screen and a
 * change of address, each screen photographed at phone and desktop width.
 */
const suite = browserSuite({ publicUrl: 'https://cards.example' });

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
