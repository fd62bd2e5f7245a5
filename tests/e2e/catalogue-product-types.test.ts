import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, newContext, screenshot, screenshotOf, signIn } from '../helpers/browser.js';

/**
 * Product types in the console, in a real browser: card fields kept to e-greeting cards and the
 * server's objections on the right field. Building a catalogue is in catalogue.test.ts.
 */
const suite = browserSuite();

const snack = (page: Page, text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor();

describe('Categories & Products in a real browser: product types', () => {
  it('manages product types, keeps card fields to e-greeting cards, and puts the server\'s objections on the right field', async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const category = await (await app.request('/api/categories', { method: 'POST', json: { name: 'Music' }, token })).json();
    await app.request('/api/products', { method: 'POST', token, json: { product: { name: 'Ocean Songs', price: 9.99, sku: 'ALB-1', category_id: category.id, product_type_id: 2 } } });
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page);
    await page.waitForURL(app.url + '/');
    await page.goto(`/admindash?view=catalogue&category=${category.id}`);
    await page.getByText('Ocean Songs').waitFor();

    // Product types: edit one, refuse to delete a built-in one, delete one.
    await page.getByRole('button', { name: 'Product Types' }).click();
    const types = page.getByRole('dialog', { name: 'Product Types' });
    await types.getByLabel('New product type').fill('Sticker');
    await types.getByRole('button', { name: 'Add' }).click();
    await snack(page, 'Product type added successfully!');
    await types.getByRole('button', { name: 'Edit product type Sticker' }).click();
    await page.getByRole('dialog', { name: 'Edit Product Type' }).getByLabel('Product type name').fill('Sticker Pack');
    await page.getByRole('dialog', { name: 'Edit Product Type' }).getByRole('button', { name: 'Save' }).click();
    await snack(page, 'Product type updated successfully!');
    await types.getByText('Sticker Pack').waitFor();
    expect(await types.getByRole('button', { name: 'Delete product type E-Greeting Card' }).isDisabled()).toBe(true);
    await screenshotOf(types, 'catalogue-product-types');
    await types.getByRole('button', { name: 'Delete product type Sticker Pack' }).click();
    await page.locator('.bp6-alert', { hasText: 'Are you sure you want to delete this product type? This cannot be undone.' }).getByRole('button', { name: 'Delete' }).click();
    await snack(page, 'Product type deleted successfully!');
    await types.getByText('Sticker Pack').waitFor({ state: 'detached' });
    await expect.poll(() => app.sql("select count(*)::int as n from product_type where name like 'Sticker%'")).toEqual([{ n: 0 }]);
    await types.getByRole('button', { name: 'Close' }).last().click();

    // An album: no card fields; a taken SKU is reported on the SKU field.
    await page.getByRole('button', { name: 'Create Product' }).click();
    await page.getByRole('menuitem', { name: 'Music Album' }).click();
    const form = page.getByRole('dialog', { name: 'Create Music Album' });
    await form.getByLabel('Name').fill('Forest Songs');
    await form.getByLabel(/^Price/).fill('abc');
    await form.getByLabel('SKU').click();
    expect(await form.getByLabel(/^Price/).inputValue()).toBe('0.00');
    await form.getByLabel(/^Price/).fill('12');
    await form.getByLabel('SKU').fill('alb-1');
    expect(await form.getByLabel('Message Placement').count()).toBe(0);
    expect(await form.getByLabel('Selected Font').count()).toBe(0);
    await form.getByRole('button', { name: 'Save' }).click();
    await snack(page, 'Error saving product: Failed to save product');
    await form.getByText('Another product has this SKU.').waitFor();
    await form.getByLabel('SKU').fill('ALB-2');
    await form.getByRole('button', { name: 'Save' }).click();
    await snack(page, 'Product saved successfully!');
    await page.getByText('Forest Songs').waitFor();
    await expect.poll(() => app.sql('select name, price::text as price from product order by name')).toEqual([
      { name: 'Forest Songs', price: '12.00' },
      { name: 'Ocean Songs', price: '9.99' },
    ]);
    // Listed in name order without reloading the list.
    expect(await page.locator('.catalogue-product strong').allTextContents()).toEqual(['Forest Songs', 'Ocean Songs']);

    // A phone's width: one column, nothing cut off.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.removeItem('adminMenuCollapsed'));
    await page.reload();
    await page.getByText('Forest Songs').waitFor();
    await page.waitForFunction(() => !document.querySelector('.bp6-toast'));
    await screenshot(page, 'catalogue-phone');
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).map((el) => el.className).slice(0, 8));
    expect(wide).toEqual([]);
    await context.close();
  });
});
