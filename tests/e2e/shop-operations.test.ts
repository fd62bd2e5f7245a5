import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';

const suite = browserSuite({ deliveryPollSeconds: 3600 });
let shop: Shop;

describe("the shop's operations in the admin console", () => {
  it('an admin creates a discount code in Discounts and a shopper uses it on /payments', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    shop = await seedShop(app, await app.login());
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash');
    await page.getByRole('menuitem', { name: 'Discounts' }).click();
    await expect.poll(() => page.getByText('No discount codes yet').isVisible(), { timeout: 10_000 }).toBe(true);

    // A new code: 20% off, at most 10 uses.
    await page.getByRole('button', { name: 'New code' }).click();
    const dialog = page.getByRole('dialog', { name: 'New discount code' });
    await dialog.getByLabel('Code').fill('Spring20');
    await dialog.getByLabel('Percent').fill('20');
    await dialog.getByLabel('Maximum uses').fill('10');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Discount code created successfully!').isVisible(), { timeout: 10_000 }).toBe(true);
    const rows = page.locator('.discounts-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    expect(await rows.first().locator('td').allTextContents()).toEqual(['Spring20', '20% off', '—', '—', '—', '0 / 10', 'Active', '']);

    // The same code in another case is refused on its field.
    await page.getByRole('button', { name: 'New code' }).click();
    await dialog.getByLabel('Code').fill('SPRING20');
    await dialog.getByLabel('Percent').fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByText(/already exists/).isVisible(), { timeout: 10_000 }).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A second code, edited, then deleted.
    await page.getByRole('button', { name: 'New code' }).click();
    await dialog.getByLabel('Code').fill('FIVEOFF');
    await dialog.getByLabel('Discount').selectOption('amount');
    await dialog.getByLabel('Amount').fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    await page.getByRole('button', { name: 'Edit FIVEOFF' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit discount code' });
    await edit.getByLabel('Amount').fill('6');
    // Its rule: the album only, chosen by name in the product picker.
    await edit.getByLabel('Products').fill('summer');
    await page.getByRole('option', { name: /^Summer Songs Album/ }).click({ timeout: 30_000 });
    await edit.getByLabel('Code').click();
    await expect.poll(() => edit.locator('.bp6-tag').allTextContents(), { timeout: 30_000 }).toEqual(['Summer Songs Album']);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rows.filter({ hasText: 'FIVEOFF' }).locator('td').nth(1).textContent(), { timeout: 10_000 }).toBe('$6.00 off');
    expect(await rows.filter({ hasText: 'FIVEOFF' }).locator('td').nth(2).textContent()).toBe('1 product');
    expect(await app.sql(`select product_ids from discount_code where code = 'FIVEOFF'`)).toEqual([{ product_ids: [shop.albumId] }]);
    await screenshot(page, 'admin-discounts');
    await page.getByRole('button', { name: 'Delete FIVEOFF' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);

    // A shopper applies it on the payments page.
    const shopper = await (await newContext(browser, app.url)).newPage();
    await shopper.goto('/');
    await shopper.evaluate((albumId) => {
      localStorage.setItem('cart', JSON.stringify([{ id: 'album', productId: albumId, name: 'Summer Songs Album', quantity: 2, personalisation: null }]));
    }, shop.albumId);
    await shopper.goto('/payments');
    await expect.poll(() => shopper.getByRole('button', { name: 'Pay $24.00' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await shopper.getByLabel('Discount code').fill('nosuchcode');
    await shopper.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => shopper.getByText('This discount code cannot be used: it is unknown, not valid yet, expired or used up.').isVisible(), { timeout: 10_000 }).toBe(true);
    await shopper.getByLabel('Discount code').fill('spring20');
    await shopper.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => shopper.getByRole('button', { name: 'Pay $19.20' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await shopper.getByText('Discount (Spring20)').isVisible()).toBe(true);
    await shopper.getByLabel('Your e-mail').fill('ada@example.com');
    await shopper.getByLabel('Card number').fill('4242 4242 4242 4242');
    await shopper.getByLabel('Expiry').fill('1230');
    await shopper.getByLabel('Security code').fill('123');
    await screenshot(shopper, 'store-payment-discount');
    await shopper.getByRole('button', { name: 'Pay $19.20' }).click();
    await shopper.waitForURL(/\/order-confirmation\//);
    const [order] = await app.sql<{ total: string; discount_code: string; discount_amount: string }>('select total, discount_code, discount_amount from "order"');
    expect(order).toEqual({ total: '19.20', discount_code: 'Spring20', discount_amount: '4.80' });
    // The confirmation adds up: the lines, what the code took off, and the total paid.
    const totals = shopper.locator('.confirmation-totals');
    await expect.poll(() => totals.textContent(), { timeout: 15_000 }).toBe('Discount (Spring20)−$4.80Total$19.20');
    await screenshot(shopper, 'store-confirmation-discount');

    await page.reload();
    await expect.poll(() => rows.first().locator('td').nth(5).textContent(), { timeout: 10_000 }).toBe('1 / 10');

    // Order Details shows the code and what it took off.
    await page.goto('/admindash?view=orders');
    await page.locator('.orders-table tbody tr').first().click();
    const details = page.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => details.getByText('$19.20 · card ending 4242 · $4.80 off with Spring20').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshotOf(details, 'admin-order-details-discount');
  });

  it('an admin exports the orders of a search and refunds an order from Order Details', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const card = await placeOrder(app, orderInput(shop, { purchaserEmail: 'grace.buyer@example.com' }));
    const orderId: string = card.body.data.placeOrder.id;
    await app.services.deliveries.runDue();
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash?view=orders');
    const rows = page.locator('.orders-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);

    // Export CSV of the current search.
    await page.getByPlaceholder('Search Orders').fill('grace.buyer');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('order_id,order_number,created_at,customer,status,total,discount_code,items,refund_reason');
    expect(csv[1]).toMatch(new RegExp(`^${orderId},${orderId.slice(0, 8).toUpperCase()},[^,]+,grace.buyer@example.com,delivered,28.50,,Balloon Birthday x1; Summer Songs Album x2,$`));
    expect(csv[2]).toBe('');
    await screenshot(page, 'admin-orders-export');

    // Refund it from Order Details: the refund dialog starts with nothing chosen, says the amount of what is chosen; a double click refunds once.
    await rows.first().click();
    const dialog = page.getByRole('dialog', { name: 'Order Details' });
    await expect.poll(() => dialog.getByRole('button', { name: 'Refund' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshotOf(dialog, 'admin-order-details-refund');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog', { name: 'Refund', exact: true });
    await expect.poll(() => refund.getByText(/^Choose at least one item\./).isVisible(), { timeout: 10_000 }).toBe(true);
    // Each item chosen by its label, as a person clicks it (the click waits for the dialog to stand still), then all of them seen chosen.
    const items = refund.getByRole('group', { name: 'Items to refund' });
    const count = await items.getByRole('checkbox').count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) await items.locator('label').nth(i).click();
    await expect.poll(() => items.getByRole('checkbox', { checked: true }).count(), { timeout: 10_000 }).toBe(count);
    await expect.poll(() => refund.getByText('$28.50 goes back through the payment provider: the whole order.', { exact: false }).isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshotOf(refund, 'admin-refund-confirmation');
    await refund.getByRole('button', { name: 'Refund $28.50' }).dblclick();
    await expect.poll(() => page.getByText('Refunded $28.50 to grace.buyer@example.com').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => dialog.locator('.bp6-tag', { hasText: /^refunded$/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await screenshotOf(dialog, 'admin-order-details-refunded');
    const [row] = await app.sql<{ status: string }>('select status from "order" where id = $1', [orderId]);
    expect(row!.status).toBe('refunded');

    // The sent card now says it was withdrawn.
    const [item] = await app.sql<{ item_url_uuid: string }>('select item_url_uuid from order_item where order_id = $1 and item_url_uuid is not null', [orderId]);
    const ecard = await context.newPage();
    await ecard.goto(`/ecards/${item!.item_url_uuid}.html`);
    await expect.poll(() => ecard.getByRole('heading', { name: 'This card was withdrawn' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(ecard, 'ecard-withdrawn');
  });

  it('an admin sees the sales of the last 30 days in Sales', { timeout: 120_000 }, async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash');
    await page.getByRole('menuitem', { name: 'Sales', exact: true }).click();
    // Both orders were charged; the refunded one was given back whole. Its card was sent before the refund.
    const total = (label: string) => page.getByLabel(label, { exact: true }).locator('.sales-total-value').textContent();
    await expect.poll(() => total('Net'), { timeout: 15_000 }).toBe('$19.20');
    expect([await total('Gross'), await total('Refunds'), await total('Orders'), await total('Average order'), await total('Cards sent'), await total('Cards opened')]).toEqual(['$47.70', '$28.50', '2', '$23.85', '1', '0']);
    await expect.poll(() => page.locator('.sales-chart .sales-bar').count(), { timeout: 10_000 }).toBe(30);
    await screenshot(page, 'admin-sales');
  });
});
