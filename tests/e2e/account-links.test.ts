import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, signIn } from '../helpers/browser.js';
import { orderInput, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import { linkIn, waitForMail } from '../helpers/account-mail.js';
import { PASSWORD, signedIn, iconsDrawn, bothWidths, register, pathOf } from '../helpers/account-browser.js';

/**
 * The links an account's e-mails carry (contract section 11), followed in a real browser: a password
 * reset, and the confirmation of an address that brings a guest's orders into the account.
 */
const suite = browserSuite({ publicUrl: 'https://cards.example' });

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
    // Creating the account signs in with it (the sign-in page was opened directly: home afterwards).
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    await expect.poll(() => page.getByRole('button', { name: 'jude: account' }).isVisible(), { timeout: 15_000 }).toBe(true);

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
