import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { orderInput, outbox, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';

// Reminders a few seconds after delivery, so that one goes out while the test runs.
const suite = browserSuite({ deliveryPollSeconds: 3600, reminderAfterHours: 0.001 });

const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('the e-card loop in a real browser', () => {
  it('a shopper buys, reschedules and follows their cards; the recipient opens one and says thank you', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const token = await app.customer('ada_loop');

    // Anonymous visitors are sent to sign in.
    const visitor = await newContext(browser, app.url);
    const anonymous = await visitor.newPage();
    await anonymous.goto('/account');
    await anonymous.waitForURL((url) => url.pathname === '/login', { timeout: 10_000 });
    await visitor.close();

    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page, 'ada_loop', 'customer-pass-1');
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });

    // A card for tomorrow, bought in the shop with "Tell me when my card is opened" on by default.
    await page.goto(`/product/${shop.cardId}`);
    await page.getByLabel("Recipient's name").fill('Grace Hopper');
    await page.getByLabel("Recipient's e-mail").fill('grace@example.com');
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Your message').fill('See you tomorrow!');
    await page.getByText('On a later day').click();
    await page.getByLabel('Delivery date').fill(day(1));
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent(), { timeout: 10_000 }).toBe('1');
    await page.goto('/payments');
    const notify = page.getByLabel('Tell me when my card is opened');
    await expect.poll(() => notify.isChecked(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'checkout-notify-opened');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('1230');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay $4.50' }).click();
    await page.waitForURL(/\/order-confirmation\//, { timeout: 15_000 });
    await expect.poll(() => page.getByRole('link', { name: 'My orders' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const [scheduled] = await app.sql<{ id: number; order_id: string; notify_opened: boolean }>(
      `select i.id, i.order_id, o.notify_opened from order_item i join "order" o on o.id = i.order_id join app_user u on u.id = o.user_id where u.username = 'ada_loop'`,
    );
    expect(scheduled!.notify_opened).toBe(true);

    // The user menu leads to My orders; the card is scheduled and can move to another day.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'My orders' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await expect.poll(() => page.getByRole('heading', { name: 'My orders' }).isVisible(), { timeout: 10_000 }).toBe(true);
    const firstCard = page.getByRole('listitem', { name: 'Card for Grace Hopper' });
    await expect.poll(() => firstCard.locator('.account-card-state').textContent(), { timeout: 10_000 }).toBe('Scheduled');
    const before = await firstCard.locator('.account-card-facts').textContent();
    await firstCard.getByRole('button', { name: 'Change date' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change date' });
    await expect.poll(() => dialog.getByText('When should Grace Hopper get the card?').isVisible(), { timeout: 30_000 }).toBe(true);
    await dialog.getByLabel('Delivery date').fill(day(3));
    await dialog.getByLabel('Delivery time').selectOption('18:00');
    await screenshotOf(dialog, 'account-change-date');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(false);
    const due = await app.sql<{ due_at: Date }>(`select due_at from mail_job where ref = 'card:' || $1 and kind = 'card'`, [scheduled!.id]);
    expect(due).toHaveLength(1);
    // 18:00 that day where the shopper is (the browser and this test share the machine's zone).
    expect(due[0]!.due_at.getTime()).toBe(new Date(`${day(3)}T18:00:00`).getTime());
    await expect.poll(() => firstCard.locator('.account-card-facts').textContent(), { timeout: 10_000 }).not.toBe(before);

    // A card for now, to someone else, and one to a forgetful friend.
    const now = await placeOrder(app, orderInput(shop, { purchaserEmail: 'ada_loop@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Linus', recipientEmail: 'linus@example.com', message: 'Hello Linus!' }) }] }), token);
    const nowItem = now.body.data.placeOrder.items[0];
    const forgotten = await placeOrder(app, orderInput(shop, { purchaserEmail: 'ada_loop@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Margaret', recipientEmail: 'margaret@example.com' }) }] }), token);
    const forgottenOrder = forgotten.body.data.placeOrder.id as string;
    await app.services.deliveries.runDue();

    // The recipient opens the card in another browser: the page reports the opening once shown.
    const recipient = await newContext(browser, app.url);
    const ecard = await recipient.newPage();
    await ecard.goto(nowItem.ecardPath);
    await expect.poll(async () => (await app.sql<{ opened_at: Date | null }>('select opened_at from order_item where id = $1', [nowItem.id]))[0]!.opened_at, { timeout: 10_000 }).not.toBeNull();
    await ecard.getByRole('button', { name: 'Open the card' }).click();
    const form = ecard.locator('.thanks-form');
    expect(await form.getByLabel('Your name').inputValue()).toBe('Linus');
    await form.getByLabel('Message').fill('Thank you, Ada!\nIt made my morning.');
    await expect.poll(() => ecard.locator('.thanks-count').textContent()).toBe('35 / 500');
    await ecard.waitForFunction(() => document.querySelector('.stage')?.getAttribute('data-state') === 'open');
    await screenshot(ecard, 'ecard-loop-reply-form');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => ecard.getByText('Thank-you sent').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await form.isVisible()).toBe(false);
    await screenshot(ecard, 'ecard-loop-reply-sent');
    // An empty message is refused in the page, before anything is sent.
    await ecard.reload();
    await ecard.locator('.thanks-form').getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => ecard.locator('.thanks-error').textContent(), { timeout: 10_000 }).toBe('Please write a message.');
    await recipient.close();

    // The purchaser's outbox: the opened notice and the thank-you.
    await app.services.deliveries.runDue();
    const toAda = [...outbox(app).entries()].filter(([, eml]) => eml.includes('To: ada_loop@example.com'));
    expect(toAda.some(([name, eml]) => name.startsWith('opened-') && eml.includes('Subject: Linus opened your card'))).toBe(true);
    expect(toAda.some(([name, eml]) => name.startsWith('thank-you-') && eml.includes('Subject: A thank-you from Linus'))).toBe(true);

    // My orders: opened, with the reply under its card; the sent card can be resent.
    await page.reload();
    const linus = page.getByRole('listitem', { name: 'Card for Linus' });
    await expect.poll(() => linus.locator('.account-card-state').textContent(), { timeout: 10_000 }).toMatch(/^Opened /);
    await expect.poll(() => linus.locator('.account-replies blockquote').innerText(), { timeout: 10_000 }).toBe('Thank you, Ada!\nIt made my morning.');
    expect(await linus.getByText('— Linus').isVisible()).toBe(true);
    const margaret = page.getByRole('listitem', { name: 'Card for Margaret' });
    await expect.poll(() => margaret.locator('.account-card-state').textContent(), { timeout: 10_000 }).toBe('Sent');
    await screenshot(page, 'account-my-orders');
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'account-my-orders-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await margaret.getByRole('button', { name: 'Resend' }).click();
    // The confirmation's own button (waiting for the dialog: the card's Resend button is "last" until it shows).
    await page.getByRole('alertdialog').getByRole('button', { name: 'Resend', exact: true }).click();
    await expect.poll(async () => (await app.sql(`select id from mail_job where kind = 'card-resend' and subject = 'order:' || $1`, [forgottenOrder])).length, { timeout: 10_000 }).toBe(1);

    // Once the purchaser's three resends are spent, "Resend" is gone rather than failing.
    await app.sql(`update order_item set owner_resends = 3 where order_id = $1`, [forgottenOrder]);
    // A refunded order says so, and its cards offer nothing that would fail.
    expect((await app.request(`/api/admin/orders/${scheduled!.order_id}/refund`, { method: 'POST', token: await app.login() })).status).toBe(200);
    await page.reload();
    await expect.poll(() => margaret.getByText('Sent again 3 times').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await margaret.getByRole('button', { name: 'Resend' }).count()).toBe(0);
    const refunded = page.getByRole('listitem').filter({ has: page.getByRole('listitem', { name: 'Card for Grace Hopper' }) }).first();
    await expect.poll(() => refunded.locator('.account-order-state').textContent(), { timeout: 10_000 }).toBe('Refunded');
    const grace = page.getByRole('listitem', { name: 'Card for Grace Hopper' });
    expect(await grace.locator('.account-card-state').textContent()).toBe('Not sent');
    expect(await grace.getByRole('button', { name: 'Change date' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Change date' }).count()).toBe(0);
    await screenshot(page, 'account-my-orders-refunded');

    // Margaret never opens hers: one reminder, shown in the admin's Order Details.
    await expect
      .poll(async () => {
        await app.services.deliveries.runDue();
        return (await app.sql<{ reminded_at: Date | null }>(`select reminded_at from order_item where order_id = $1`, [forgottenOrder]))[0]!.reminded_at;
      }, { timeout: 30_000, interval: 500 })
      .not.toBeNull();
    const admin = await newContext(browser, app.url);
    const adminPage = await admin.newPage();
    await signIn(adminPage);
    await adminPage.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });
    await adminPage.goto(`/admindash?view=orders&search=${forgottenOrder}`);
    const rows = adminPage.locator('.orders-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    await rows.first().click();
    const details = adminPage.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => details.getByText(/^Reminder sent /).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => details.locator('.order-details-emails').textContent(), { timeout: 10_000 }).toContain('Reminder');
    await screenshotOf(details, 'admin-order-details-reminder');
    await admin.close();
    await context.close();
  });
});
