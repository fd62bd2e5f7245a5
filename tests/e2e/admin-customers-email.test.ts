import { describe, expect, it } from 'vitest';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { invite } from '../helpers/staff-fixtures.js';

/**
 * Running the shop, day two (contract section 13), in a real browser: a member of staff finds
 * customers and their orders; the admin sees the e-mail that failed and sends it again.
 */
const suite = browserSuite({ deliveryPollSeconds: 3600 });
let shop: Shop;

describe('running the shop, day two: customers and e-mail', () => {
  it('the Customers view searches, sorts by any column and opens a customer with their orders', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const admin = await app.login();
    shop = await seedShop(app, admin);
    // Sam is a member of staff (the invitation itself is in admin-staff.test.ts).
    const accepted = await app.request('/api/staff/accept', { method: 'POST', json: { token: await invite(app, admin, 'sam@example.com'), username: 'sam', password: 'sam-password-1' } });
    expect(accepted.status).toBe(201);
    for (const [name, orders] of [['ada', 2], ['bob', 1], ['cy', 0]] as const) {
      const token = await app.customer(`${name}cards`);
      for (let i = 0; i < orders; i++) await placeOrder(app, orderInput(shop, { purchaserEmail: `${name}cards@example.com` }), token);
    }
    await app.sql(`update app_user set email_confirmed_at = now() where username = 'bobcards'`);
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page, 'sam', 'sam-password-1');
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto('/admindash?view=customers');
    const rows = page.locator('.customers-table tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    const names = () => rows.locator('td.customers-name').allTextContents();
    expect(await names()).toEqual(['cycards', 'bobcards', 'adacards']);
    await page.getByRole('button', { name: 'Total spent' }).click();
    await expect.poll(names, { timeout: 30_000 }).toEqual(['adacards', 'bobcards', 'cycards']);
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toBe('Total spent');
    await page.getByRole('button', { name: 'Total spent' }).click();
    await expect.poll(names, { timeout: 30_000 }).toEqual(['cycards', 'bobcards', 'adacards']);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(['bobcards', 'bobcards@example.com', 'Confirmed', '1', '$28.50', expect.any(String), expect.any(String)]);
    await screenshot(page, 'admin-customers');
    await page.getByLabel('Search customers').fill('ada');
    await expect.poll(names, { timeout: 30_000 }).toEqual(['adacards']);
    await rows.first().click();
    const dialog = page.getByRole('dialog', { name: 'adacards' });
    await expect.poll(() => dialog.locator('.customer-orders tbody tr').count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => dialog.getByText('$57.00').isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshotOf(dialog, 'admin-customer');
    // An order opens in Orders.
    await dialog.locator('.customer-orders tbody tr').first().click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Order Details' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admindash?view=customers');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    await page.waitForFunction(() => [...document.querySelectorAll('.admin-menu .bp6-icon')].every((icon) => icon.querySelector('svg path')), undefined, { timeout: 30_000 });
    await screenshot(page, 'admin-customers-phone');
    await context.close();
  });

  it('E-mail lists failed e-mail, sorts it, and retries one or all of it', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login');
    // Two failed card e-mails show under E-mail, sortable; "Retry" sends one, "Retry all" the rest.
    const jobs = await app.sql<{ id: number }>(`select id from mail_job where kind = 'card' and status = 'sent' order by id limit 2`);
    expect(jobs).toHaveLength(2);
    await app.sql(`update mail_job set status = 'failed', attempts = 51, last_error = '550 5.1.1 Mailbox unavailable' where id = $1`, [jobs[0]!.id]);
    await app.sql(`update mail_job set status = 'failed', attempts = 7, last_error = '421 4.7.0 Try again later' where id = $1`, [jobs[1]!.id]);
    const status = async (id: number) => (await app.sql<{ status: string }>('select status from mail_job where id = $1', [id]))[0]!.status;
    await page.goto('/admindash?view=email');
    const emails = page.locator('.email-table tbody tr');
    await expect.poll(() => emails.count(), { timeout: 30_000 }).toBe(2);
    const reasons = () => emails.locator('td.email-reason').allTextContents();
    await page.getByRole('button', { name: 'Attempts' }).click();
    await expect.poll(reasons, { timeout: 30_000 }).toEqual(['550 5.1.1 Mailbox unavailable', '421 4.7.0 Try again later']);
    await page.getByRole('button', { name: 'Attempts' }).click();
    await expect.poll(reasons, { timeout: 30_000 }).toEqual(['421 4.7.0 Try again later', '550 5.1.1 Mailbox unavailable']);
    await screenshot(page, 'admin-email');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => emails.count(), { timeout: 30_000 }).toBe(2);
    await page.waitForFunction(() => [...document.querySelectorAll('.admin-menu .bp6-icon')].every((icon) => icon.querySelector('svg path')), undefined, { timeout: 30_000 });
    await screenshot(page, 'admin-email-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await expect.poll(() => emails.count(), { timeout: 30_000 }).toBe(2);
    await page.getByRole('button', { name: 'Attempts' }).click();
    await page.getByRole('button', { name: 'Attempts' }).click();
    await expect.poll(reasons, { timeout: 30_000 }).toEqual(['421 4.7.0 Try again later', '550 5.1.1 Mailbox unavailable']);
    await emails.first().getByRole('button', { name: /^Retry the e-mail to / }).click();
    await expect.poll(() => page.getByText('1 e-mail back in the queue').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => emails.count(), { timeout: 30_000 }).toBe(1);
    await app.services.deliveries.runDue();
    expect(await status(jobs[1]!.id)).toBe('sent');
    expect(await status(jobs[0]!.id)).toBe('failed');
    await page.getByRole('button', { name: 'Retry all' }).click();
    await expect.poll(() => page.getByText('All e-mail is going out').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => status(jobs[0]!.id), { timeout: 30_000 }).toBe('sent');
    await screenshot(page, 'admin-email-empty');
    await context.close();
  });
});
