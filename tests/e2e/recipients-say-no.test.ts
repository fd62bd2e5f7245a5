import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshotOf } from '../helpers/browser.js';
import { orderInput, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import { mailHeader, waitForMail } from '../helpers/account-mail.js';
import { PHONE, signedIn, bothWidths, pathOf } from '../helpers/account-browser.js';

/**
 * Recipients who can say no (contract section 11) in a real browser: the unsubscribe page, the
 * one-click unsubscribe of the card e-mail, and what the shop does with cards to that address.
 */
const suite = browserSuite({ publicUrl: 'https://cards.example' });

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
