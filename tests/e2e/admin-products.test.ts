import { describe, expect, it } from 'vitest';
import { PHONE } from '../helpers/account-browser.js';
import { browserSuite, newContext, screenshot, signIn } from '../helpers/browser.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';

/**
 * The console's Products view in a real browser (contract section 16): every product with its status,
 * searched and filtered from the address, and a bulk action on the chosen ones (archive, a price
 * change by percentage, and its undo), at desktop and phone width.
 */
const suite = browserSuite();

describe('the Products view in a real browser', () => {
  it('lists every product, filters by status, and archives and reprices the chosen ones together', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const christmas = await restCategory(app, token, 'Christmas');
    for (const [name, price, status, sku] of [['Carol Singers', 4, 'active', 'XM-1'], ['Snowy Village', 5.5, 'draft', 'XM-2'], ['Tree Lights', 3, 'active', 'XM-3']] as const) {
      const res = await app.request('/api/products', { method: 'POST', token, json: { product: { name, price, status, sku, category_id: christmas, product_type_id: 2 }, tags: [] } });
      expect(res.status).toBe(201);
    }
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page.goto('/admindash?view=products');
    const names = () => page.locator('.products-name strong').allTextContents();
    await expect.poll(names, { timeout: 30_000 }).toEqual(['Carol Singers', 'Snowy Village', 'Tree Lights']);
    expect(await page.locator('tbody tr', { hasText: 'Snowy Village' }).getByText('Draft', { exact: true }).isVisible()).toBe(true);

    // Filters live in the address; a search finds a SKU.
    await page.getByLabel('Status').selectOption({ label: 'Draft' });
    await expect.poll(names, { timeout: 30_000 }).toEqual(['Snowy Village']);
    expect(new URL(page.url()).searchParams.get('status')).toBe('DRAFT');
    await page.getByLabel('Status').selectOption({ label: 'Any status' });
    await page.getByLabel('Search products').fill('xm-3');
    await expect.poll(names, { timeout: 30_000 }).toEqual(['Tree Lights']);
    await page.getByLabel('Search products').fill('');
    await expect.poll(names, { timeout: 30_000 }).toHaveLength(3);

    // Two chosen: archived together, then 10 % dearer.
    await page.getByLabel('Choose Carol Singers').check({ force: true });
    await page.getByLabel('Choose Tree Lights').check({ force: true });
    const bar = page.getByRole('toolbar', { name: 'Chosen products' });
    await expect.poll(() => bar.locator('strong').textContent(), { timeout: 15_000 }).toBe('2 chosen');
    await screenshot(page, 'admin-products-chosen-1280');
    await bar.getByRole('button', { name: 'Archive' }).click();
    await page.locator('.bp6-toast', { hasText: '2 products archived.' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => app.sql(`select name, status from product order by name`), { timeout: 15_000 }).toEqual([
      { name: 'Carol Singers', status: 'archived' },
      { name: 'Snowy Village', status: 'draft' },
      { name: 'Tree Lights', status: 'archived' },
    ]);
    await expect.poll(() => page.locator('tbody tr', { hasText: 'Tree Lights' }).getByText('Archived', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);

    await page.getByLabel('Choose every product on this page').check({ force: true });
    await bar.getByRole('button', { name: 'Price…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the price of 3 products' });
    await dialog.getByLabel('Percentage', { exact: true }).fill('10');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.locator('.bp6-toast', { hasText: '3 products repriced.' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => app.sql(`select name, price::text as price from product order by name`), { timeout: 15_000 }).toEqual([
      { name: 'Carol Singers', price: '4.40' },
      { name: 'Snowy Village', price: '6.05' },
      { name: 'Tree Lights', price: '3.30' },
    ]);
    await expect.poll(() => page.locator('tbody tr', { hasText: 'Snowy Village' }).locator('.products-number').textContent(), { timeout: 15_000 }).toBe('$6.05');
    await screenshot(page, 'admin-products-1280');

    // "Undo" in the snackbar gives the three their prices back.
    await page.locator('.bp6-toast', { hasText: '3 products repriced.' }).getByRole('button', { name: 'Undo' }).click();
    await page.locator('.bp6-toast', { hasText: '3 products restored.' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => app.sql(`select name, price::text as price from product order by name`), { timeout: 15_000 }).toEqual([
      { name: 'Carol Singers', price: '4.00' },
      { name: 'Snowy Village', price: '5.50' },
      { name: 'Tree Lights', price: '3.00' },
    ]);
    await expect.poll(() => page.locator('tbody tr', { hasText: 'Snowy Village' }).locator('.products-number').textContent(), { timeout: 15_000 }).toBe('$5.50');

    // On a phone (the menu a rail) each product is a card.
    await page.setViewportSize(PHONE);
    await page.reload();
    await expect.poll(names, { timeout: 30_000 }).toHaveLength(3);
    await page.getByLabel('Choose Snowy Village').check({ force: true });
    const row = await page.locator('tbody tr', { hasText: 'Snowy Village' }).boundingBox();
    expect(row!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'admin-products-390');
    await context.close();
  });
});
