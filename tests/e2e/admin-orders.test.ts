import { describe, expect, it } from 'vitest';
import { browserSuite, escapeDialog, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { orderInput, outbox, personalisation, placeOrder, seedShop } from '../helpers/order-fixtures.js';

const suite = browserSuite({ deliveryPollSeconds: 3600 });

describe('the admin Orders screen', () => {
  it('searches, pages and opens an order with a link to its e-card', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const shop = await seedShop(app, await app.login());
    const placed: string[] = [];
    for (let i = 0; i < 27; i++) {
      const lines = i % 3 === 0 ? [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: `friend${i}@example.com`, message: `Happy birthday, friend ${i}!` }) }] : [{ productId: shop.albumId, quantity: 1 + (i % 2) }];
      const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: i === 7 ? 'marguerite@example.com' : `customer${i}@example.com`, lines }));
      placed.push(body.data.placeOrder.id);
    }
    await app.services.deliveries.runDue();

    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash?view=orders');

    const rows = page.locator('.orders-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(10);
    expect(await page.locator('.orders-table th').allTextContents()).toEqual(['Order ID', 'Customer', 'Status', 'Total', 'Date']);
    await expect.poll(() => page.locator('.orders-range').textContent(), { timeout: 10_000 }).toBe('1–10 of 27');
    // The short number shoppers see; the whole id on hover.
    expect(await rows.first().locator('td').first().textContent()).toBe(placed.at(-1)!.slice(0, 8).toUpperCase());
    expect(await rows.first().locator('td').first().getAttribute('title')).toBe(placed.at(-1));
    await screenshot(page, 'admin-orders');

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.locator('.orders-range').textContent(), { timeout: 10_000 }).toBe('11–20 of 27');
    // An order opened and closed on the second page leaves the list on that page.
    const eleventh = await rows.first().locator('td').first().getAttribute('title');
    expect(eleventh).toBe(placed.at(-11));
    await rows.first().click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Order Details' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(new URL(page.url()).searchParams.get('order')).toBe(eleventh);
    await escapeDialog(page);
    await expect.poll(() => page.getByRole('dialog', { name: 'Order Details' }).count(), { timeout: 10_000 }).toBe(0);
    expect(new URL(page.url()).searchParams.has('order')).toBe(false);
    expect(await page.locator('.orders-range').textContent()).toBe('11–20 of 27');
    expect(await rows.first().locator('td').first().getAttribute('title')).toBe(eleventh);
    await page.getByLabel('Rows per page').selectOption('25');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(25);
    await page.getByLabel('Rows per page').selectOption('all');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(27);

    // Search on every input, on the server.
    await page.getByPlaceholder('Search Orders').fill('margue');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('marguerite@example.com');
    expect(page.url()).toContain('search=margue');
    await screenshot(page, 'admin-orders-search');
    await page.getByPlaceholder('Search Orders').fill('balloon');
    await expect.poll(() => page.locator('.orders-range').textContent(), { timeout: 10_000 }).toBe('1–9 of 9');
    await page.getByPlaceholder('Search Orders').fill('nothing-matches-this');
    await expect.poll(() => page.getByText('No orders match “nothing-matches-this”').isVisible(), { timeout: 10_000 }).toBe(true);

    // The details of a card order, with its e-card link.
    await page.getByPlaceholder('Search Orders').fill('friend0@');
    await page.getByPlaceholder('Search Orders').fill(placed[0]!.slice(0, 8));
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    await rows.first().click();
    const dialog = page.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => dialog.getByText('Not opened yet').isVisible(), { timeout: 10_000 }).toBe(true);
    const [item] = await app.sql<{ item_url_uuid: string }>('select item_url_uuid from order_item where order_id = $1', [placed[0]]);
    const link = dialog.getByRole('link', { name: 'Balloon Birthday' });
    expect(await link.getAttribute('href')).toBe(`/ecards/${item!.item_url_uuid}.html?preview=1`);
    expect(await link.getAttribute('target')).toBe('_blank');
    await screenshotOf(dialog, 'admin-order-details');
    const [ecard] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await ecard.waitForLoadState();
    await ecard.getByRole('button', { name: 'Open the card' }).click();
    await expect.poll(() => ecard.locator('.message p').textContent(), { timeout: 10_000 }).toBe('Happy birthday, friend 0!');
    await ecard.close();

    // A plain fetch of the page (a mail system's link scanner) opens nothing.
    await fetch(`${app.url}/ecards/${item!.item_url_uuid}.html`);
    expect((await app.sql('select opened_at from order_item where item_url_uuid = $1', [item!.item_url_uuid]))[0]!.opened_at).toBeNull();
    // The recipient opens it in a browser; the dialog says so. Then the e-mail goes again.
    const recipient = await context.newPage();
    await recipient.goto(`/ecards/${item!.item_url_uuid}.html`);
    await expect.poll(async () => (await app.sql('select opened_at from order_item where item_url_uuid = $1', [item!.item_url_uuid]))[0]!.opened_at, { timeout: 30_000 }).not.toBeNull();
    await recipient.close();
    await page.reload();
    await expect.poll(() => page.getByRole('dialog', { name: 'Order Details' }).getByText(/^Opened /).isVisible(), { timeout: 30_000 }).toBe(true);
    const mails = () => [...outbox(app).values()].filter((eml) => eml.includes('To: friend0@example.com')).length;
    expect(mails()).toBe(1);
    await page.getByRole('button', { name: 'Resend e-mail' }).click();
    await page.getByRole('button', { name: 'Resend', exact: true }).click();
    await expect.poll(() => page.getByText('E-mail to friend0@example.com queued').isVisible(), { timeout: 10_000 }).toBe(true);
    await app.services.deliveries.runDue();
    expect(mails()).toBe(2);

    // A card whose e-mail kept failing: shown with its reason, and retried from the dialog.
    const [job] = await app.sql<{ id: number }>(`select id from mail_job where subject = 'order:' || $1 and kind = 'card'`, [placed[0]]);
    await app.sql(`update mail_job set status = 'failed', attempts = 75, last_error = '550 5.1.1 mailbox unavailable' where id = $1`, [job!.id]);
    await page.reload();
    const details = page.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => details.getByText('550 5.1.1 mailbox unavailable', { exact: true }).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => details.getByText('gave up after 75 tries').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshotOf(details, 'admin-order-emails');
    await details.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(async () => (await app.sql<{ status: string }>('select status from mail_job where id = $1', [job!.id]))[0]!.status, { timeout: 10_000 }).not.toBe('failed');
    await details.getByRole('button', { name: 'Resend receipt' }).click();
    await expect.poll(() => page.getByText('Receipt queued').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await app.sql(`select id from mail_job where subject = 'order:' || $1 and kind = 'receipt-resend'`, [placed[0]])).toHaveLength(1);
    await context.close();
  });

  it('fits a phone', async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.setViewportSize({ width: 375, height: 812 });
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash?view=orders');
    await expect.poll(() => page.locator('.orders-table tbody tr').count(), { timeout: 10_000 }).toBe(10);
    // Each order is a card that fits the screen: its number, customer, status and total all in view.
    const first = page.locator('.orders-table tbody tr').first();
    for (const cell of await first.locator('td').all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
    }
    await screenshot(page, 'admin-orders-phone');

    // A filter lives in the address; an internal note is added in Order Details.
    await page.getByLabel('Status').selectOption({ label: 'refunded' });
    await expect.poll(() => new URL(page.url()).searchParams.get('status'), { timeout: 10_000 }).toBe('REFUNDED');
    await expect.poll(() => page.getByText('No orders match these filters').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByLabel('Status').selectOption({ label: 'Any status' });
    await first.click();
    const details = page.getByRole('dialog', { name: 'Order Details' });
    await details.getByLabel('New note').fill('Called the customer: all good.');
    await details.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(() => details.locator('.order-notes-list li p').allTextContents(), { timeout: 15_000 }).toEqual(['Called the customer: all good.']);
    // The timeline tells the order's story, the note last.
    await expect.poll(async () => (await details.getByRole('list', { name: 'Timeline' }).locator('li').allTextContents()).at(-1), { timeout: 15_000 }).toMatch(/admin: Called the customer: all good\.$/);
    expect(await details.getByRole('list', { name: 'Timeline' }).locator('li').first().textContent()).toMatch(/Placed by customer\d+@example\.com for \$/);
    expect(await app.sql(`select text, author from order_note`)).toEqual([{ text: 'Called the customer: all good.', author: 'admin' }]);
    await screenshot(page, 'admin-order-notes-phone');
    await context.close();
  });
});
