import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dayIn } from '../../server/src/rules/delivery.js';
import { lastDays, salesPeriods } from '../../server/src/rules/sales-range.js';
import { PHONE } from '../helpers/account-browser.js';
import { browserSuite, newContext, screenshot, signIn } from '../helpers/browser.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';

/**
 * The Sales view in a real browser (contract section 16), in New York's time zone: the last 90 days
 * by week, their totals beside the 90 days before, the bars, the top products, the table, the CSV;
 * the range kept in the address across a reload; a range of one's own; at desktop and phone width.
 */
const suite = browserSuite({ deliveryPollSeconds: 3600 });
const ZONE = 'America/New_York';

describe('the Sales view in a real browser', () => {
  it('shows 90 days by week with their totals, bars and top products, downloads them, and keeps the range on reload', { timeout: 240_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const category = await restCategory(app, token, 'Albums');
    const ids: Record<string, number> = {};
    for (const [name, price] of [['Birthday Balloons', 4], ['Snowy Pines', 5], ['Thank You Roses', 3]] as const) {
      const res = await app.request('/api/products', { method: 'POST', token, json: { product: { name, price, category_id: category, product_type_id: 2 }, tags: [] } });
      ids[name] = (await res.json()).product.id;
    }
    // [days ago, status, product, quantity, card opened]: 8 orders in the last 90 days, 2 in the 90 before.
    const orders: [number, string, string, number, boolean][] = [
      [0, 'paid', 'Birthday Balloons', 2, false],
      [1, 'delivered', 'Snowy Pines', 1, true],
      [3, 'delivered', 'Thank You Roses', 3, false],
      [10, 'refunded', 'Birthday Balloons', 1, false],
      [20, 'delivered', 'Snowy Pines', 2, true],
      [40, 'paid', 'Birthday Balloons', 1, false],
      [60, 'delivered', 'Thank You Roses', 1, false],
      [85, 'delivered', 'Birthday Balloons', 3, false],
      [100, 'delivered', 'Snowy Pines', 2, false],
      [150, 'paid', 'Thank You Roses', 1, false],
    ];
    const prices: Record<string, number> = { 'Birthday Balloons': 4, 'Snowy Pines': 5, 'Thank You Roses': 3 };
    for (const [n, [ago, status, product, quantity, opened]] of orders.entries()) {
      const total = (prices[product]! * quantity).toFixed(2);
      const [order] = await app.sql<{ id: string; created_at: Date }>(
        `insert into "order" (id, purchaser_email, status, total, refunded_amount, payment_provider, payment_reference, idempotency_key, request_hash, item_names, created_at)
         values (gen_random_uuid(), 'sales-e2e@example.com', $1, $2, case when $1 = 'refunded' then $2::numeric else 0 end, 'test', 'ref', 'sales-e2e-' || $3::text, 'h', 'cards', now() - make_interval(days => $4)) returning id, created_at`,
        [status, total, n, ago],
      );
      await app.sql(
        `insert into order_item (order_id, position, product_id, name, price, quantity, refunded_at, delivered_at, opened_at)
         values ($1, 0, $2, $3, $4, $5, case when $6 = 'refunded' then $7::timestamptz end, case when $6 = 'delivered' then $7::timestamptz + interval '1 minute' end, case when $8 then $7::timestamptz + interval '1 hour' end)`,
        [order!.id, ids[product], product, prices[product], quantity, status, order!.created_at, opened],
      );
    }
    const today = dayIn(new Date(), ZONE);
    const range = lastDays(90, today);
    const weeks = salesPeriods(range, 'WEEK');

    const context = await newContext(browser, app.url, { timezoneId: ZONE });
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page.goto('/admindash?view=sales');
    const total = (label: string) => page.getByLabel(label, { exact: true }).locator('.sales-total-value').textContent();
    // The last 30 days at first: 5 of the orders.
    await expect.poll(() => total('Orders'), { timeout: 30_000 }).toBe('5');
    expect(await page.getByRole('radio', { name: '30 days' }).getAttribute('aria-checked')).toBe('true');

    await page.getByRole('radio', { name: '90 days' }).click();
    await page.getByRole('radio', { name: 'By week' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.toString(), { timeout: 15_000 }).toBe('view=sales&range=90&by=week');
    await expect.poll(() => page.locator('.sales-bar').count(), { timeout: 30_000 }).toBe(weeks.length);
    await expect.poll(() => total('Gross'), { timeout: 30_000 }).toBe('$55.00');
    expect([await total('Refunds'), await total('Net'), await total('Orders'), await total('Average order'), await total('Cards sent'), await total('Cards opened')]).toEqual(['$4.00', '$51.00', '8', '$6.88', '5', '2']);
    // Compared with the 90 days before: $13.00 from 2 orders.
    const gross = page.getByLabel('Gross', { exact: true });
    expect(await gross.locator('.sales-change').textContent()).toBe('▲ 323.1%');
    expect(await gross.locator('.sales-change').getAttribute('class')).toContain('sales-change-success');
    expect(await gross.locator('.sales-sr-only').textContent()).toBe('up 323.1% from the previous 90 days, was $13.00');
    expect(await page.getByLabel('Refunds', { exact: true }).locator('.sales-change').getAttribute('class')).toContain('sales-change-danger');
    expect(await page.getByRole('img', { name: /^Net revenue by week, \d+ weeks from/ }).count()).toBe(1);
    const top = page.locator('.sales-top-table tbody tr');
    await expect.poll(() => top.allInnerTexts(), { timeout: 15_000 }).toEqual(['1\tBirthday Balloons\t6\t$24.00', '2\tSnowy Pines\t3\t$15.00', '3\tThank You Roses\t4\t$12.00']);
    await screenshot(page, 'admin-sales-90-days-by-week-1280');

    // Pointing at a bar tells its week.
    await page.locator('.sales-bar').last().hover();
    await expect.poll(() => page.locator('.sales-tip').textContent(), { timeout: 15_000 }).toMatch(/^[A-Z][a-z]{2} \d+ – [A-Z][a-z]{2} \d+, \d{4}.*Net \$\d+\.\d\d/);
    await screenshot(page, 'admin-sales-bar-tip-1280');
    await page.mouse.move(0, 0);

    // The same figures as a table, a line per week.
    await page.getByRole('button', { name: 'Show table' }).click();
    await expect.poll(() => page.locator('.sales-chart tbody tr').count(), { timeout: 15_000 }).toBe(weeks.length);
    await page.getByRole('button', { name: 'Show bars' }).click();

    // The CSV of the range: a line per week.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`sales-${range.from}-to-${range.to}-by-week.csv`);
    const csv = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe('period_start,period_end,gross,refunds,net,orders,average_order,cards_sent,cards_opened');
    expect(csv).toHaveLength(weeks.length + 2);
    expect(csv.slice(1, -1).map((line) => line.split(',')[0])).toEqual(weeks.map((w) => w.from));

    // A reload keeps the range; a range of one's own goes into the address as from–to.
    await page.reload();
    await expect.poll(() => total('Gross'), { timeout: 30_000 }).toBe('$55.00');
    expect(await page.getByRole('radio', { name: 'By week' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('radio', { name: 'Custom' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from'), { timeout: 15_000 }).toBe(range.from);
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill(range.from);
    await expect.poll(() => page.getByText('End on the first day or after it.').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByLabel('To', { exact: true }).fill(today);
    await expect.poll(() => total('Orders'), { timeout: 30_000 }).toBe('1');
    await screenshot(page, 'admin-sales-custom-1280');

    // At phone width, in the dark theme, from the address alone.
    const phone = await newContext(browser, app.url, { timezoneId: ZONE, viewport: PHONE });
    const small = await phone.newPage();
    await signIn(small);
    await small.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await small.goto('/admindash?view=sales&range=90&by=week');
    await expect.poll(() => small.getByLabel('Gross', { exact: true }).locator('.sales-total-value').textContent(), { timeout: 30_000 }).toBe('$55.00');
    await expect.poll(() => small.locator('.sales-bar').count(), { timeout: 15_000 }).toBe(weeks.length);
    const width = await small.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(small, 'admin-sales-90-days-by-week-390');
  });
});
