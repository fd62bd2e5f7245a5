import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE } from '../helpers/account-browser.js';
import { browserSuite, newContext, screenshot, signIn } from '../helpers/browser.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { mp3, png } from '../helpers/media-fixtures.js';

/**
 * The product editor as a page (contract section 16): a new card made from the Products view, a file
 * dropped onto an image slot and onto a song slot going into the media library and into the slot,
 * the same upload chosen for a second slot, a refused drop of the wrong kind, the question before
 * leaving with unsaved changes, and the page at phone width.
 */
const suite = browserSuite();

/** Drops a file onto a slot as a desktop's file manager would (a DataTransfer holding a File). */
async function dropFile(page: Page, slot: string, file: { name: string; type: string; bytes: Buffer }) {
  const target = page.locator(`[data-slot="${slot}"]`);
  const dataTransfer = await page.evaluateHandle(({ name, type, base64 }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type }));
    return transfer;
  }, { name: file.name, type: file.type, base64: file.bytes.toString('base64') });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

describe('the product editor page in a real browser', () => {
  it('makes a card with dropped files, uses one upload twice, and asks before unsaved changes are lost', { timeout: 180_000 }, async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const christmas = await restCategory(app, token, 'Christmas');
    const mediaFiles = async () => Number((await app.sql<{ n: string }>('select count(*) as n from media_file'))[0]!.n);
    const filesBefore = await mediaFiles();

    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
    await page.goto('/admindash?view=products');
    await page.getByRole('button', { name: 'New product' }).click();
    await page.waitForURL('**/admindash/products/new', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'New e-greeting card' }).waitFor({ timeout: 30_000 });

    // Save without a category: the category says so, nothing is written.
    await page.getByLabel('Name').fill('Winter Lights');
    await page.locator('#product-price').fill('4.50');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please select a category for the new product.').waitFor({ timeout: 15_000 });
    expect(await app.sql('select id from product')).toEqual([]);
    await page.getByLabel('Category').selectOption({ label: 'Christmas' });

    // A file of the wrong kind is refused before anything is sent.
    await dropFile(page, 'Main Image', { name: 'notes.mp3', type: 'audio/mpeg', bytes: mp3() });
    await page.locator('.bp6-toast', { hasText: 'Only an image can go here.' }).waitFor({ timeout: 15_000 });
    expect(await mediaFiles()).toBe(filesBefore);

    // An image dropped onto the main image, and a song onto Song 1: each goes into the library and into its slot.
    await dropFile(page, 'Main Image', { name: 'lights.png', type: 'image/png', bytes: await png(640, 480) });
    await page.getByRole('img', { name: 'Main Image: lights.png' }).waitFor({ timeout: 30_000 });
    await dropFile(page, 'Song 1', { name: 'carol.mp3', type: 'audio/mpeg', bytes: mp3() });
    await page.locator('[data-slot="Song 1"]').getByText('carol.mp3').waitFor({ timeout: 30_000 });
    expect(await mediaFiles()).toBe(filesBefore + 2);

    // The same upload, chosen for the cover from the library: no second upload.
    await page.getByRole('button', { name: 'Choose Cover Image' }).click();
    const browserDialog = page.getByRole('dialog', { name: 'Media Browser' });
    await browserDialog.getByText('Product Uploads', { exact: true }).click();
    await browserDialog.getByRole('button', { name: 'Select lights.png' }).click();
    await browserDialog.waitFor({ state: 'hidden' });
    await screenshot(page, 'product-editor-new-1280');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/admindash\/products\/\d+$/, { timeout: 30_000 });
    await page.locator('.bp6-toast', { hasText: 'Product saved successfully!' }).waitFor({ timeout: 15_000 });
    const [saved] = await app.sql<{ id: number; name: string; price: string; category_id: number; main_image_id: number; cover_image_id: number; song1_id: number | null }>(
      `select p.id, p.name, p.price::text as price, p.category_id, p.main_image_id, c.cover_image_id, c.song_1_id as song1_id from product p join e_greeting_card c on c.product_id = p.id`,
    );
    expect(saved).toMatchObject({ name: 'Winter Lights', price: '4.50', category_id: christmas });
    expect(saved!.cover_image_id).toBe(saved!.main_image_id);
    expect(saved!.song1_id).not.toBeNull();
    expect(await mediaFiles()).toBe(filesBefore + 2);
    expect(page.url()).toContain(`/admindash/products/${saved!.id}`);

    await page.getByRole('heading', { name: 'Winter Lights' }).waitFor({ timeout: 30_000 });
    // Unsaved changes: leaving asks; "Stay" keeps them; after Save it leaves without asking.
    await page.getByLabel('Name').fill('Winter Lights Deluxe');
    await page.getByText('Unsaved changes').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Products', exact: true }).click();
    const ask = page.getByRole('alertdialog').filter({ hasText: 'You have unsaved changes.' });
    await ask.waitFor({ timeout: 15_000 });
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(await page.getByLabel('Name').inputValue()).toBe('Winter Lights Deluxe');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await app.sql<{ name: string }>('select name from product'))[0]!.name, { timeout: 15_000 }).toBe('Winter Lights Deluxe');
    await page.getByText('Unsaved changes').waitFor({ state: 'hidden', timeout: 15_000 });
    await page.getByRole('button', { name: 'Products', exact: true }).click();
    await page.waitForURL('**/admindash?view=products', { timeout: 15_000 });
    await page.locator('.products-name strong', { hasText: 'Winter Lights Deluxe' }).waitFor({ timeout: 30_000 });

    // At phone width (the menu a rail after a reload), the list's name opens the page, and the page fits the screen.
    await page.setViewportSize(PHONE);
    await page.reload();
    await page.getByRole('link', { name: 'Winter Lights Deluxe' }).click();
    await page.getByRole('heading', { name: 'Winter Lights Deluxe' }).waitFor({ timeout: 30_000 });
    await page.getByRole('img', { name: 'Main Image: lights.png' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'product-editor-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'product-editor-1280');
    await context.close();
  });
});
