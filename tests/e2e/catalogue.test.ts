import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, newContext, screenshot, screenshotOf, settledBox, signIn } from '../helpers/browser.js';
import { uploadMedia } from '../helpers/catalogue-fixtures.js';

/**
 * Categories & Products in a real browser: a catalogue built, edited and deleted. Managing product
 * types is in catalogue-product-types.test.ts.
 */
const suite = browserSuite();

/** Picks a file in the Media Browser that `open` brings up. */
async function pickInMediaBrowser(page: Page, open: () => Promise<void>, file: string) {
  await open();
  const dialog = page.getByRole('dialog', { name: 'Media Browser' });
  await dialog.getByText('Card art', { exact: true }).click();
  await dialog.getByRole('button', { name: `Select ${file}` }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Waits until an image with this alt text has loaded its bytes. */
const imageLoaded = (page: Page, alt: string) =>
  page.waitForFunction((name) => [...document.querySelectorAll('img')].some((img) => img.alt === name && img.complete && img.naturalWidth > 0), alt);

const snack = (page: Page, text: string) => page.locator('.bp6-toast', { hasText: text }).first().waitFor();

describe('Categories & Products in a real browser', () => {
  it('builds a catalogue: categories with an image, a product type, an e-greeting card with font, images and songs; edits and deletes it', async () => {
    const { app, browser } = suite;
    const token = await app.login();
    await uploadMedia(app, token, { images: 4, songs: 2 });
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page);
    await page.waitForURL(app.url + '/');
    await page.goto('/admindash?view=catalogue');
    await page.getByText('Select a category to view products.').waitFor();
    expect(await page.getByRole('button', { name: 'Create Subcategory' }).isDisabled()).toBe(true);

    // A product needs a category.
    await page.getByRole('button', { name: 'Create Product' }).click();
    await page.getByRole('menuitem', { name: 'E-Greeting Card' }).click();
    await snack(page, 'Please select a category for the new product.');

    // A top-level category, then its image.
    await page.getByRole('button', { name: 'Create Top Level Category' }).click();
    await page.getByLabel('Category name').fill('Birthday');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await snack(page, 'Category created successfully!');
    await page.getByText('No products in this category.').waitFor();
    await page.getByRole('button', { name: 'Edit category Birthday' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Category' });
    await pickInMediaBrowser(page, () => edit.getByRole('button', { name: 'Choose Image' }).click(), 'image-1.png');
    await edit.getByRole('button', { name: 'Save' }).click();
    await snack(page, 'Category updated successfully!');
    await page.locator('.catalogue-categories img.node-tree-thumb').waitFor();
    await expect.poll(() => app.sql("select m.file_name from category c join media_file m on m.id = c.media_id where c.name = 'Birthday'")).toEqual([{ file_name: 'image-1.png' }]);

    // A subcategory of the selected category.
    await page.getByRole('button', { name: 'Create Subcategory' }).click();
    await page.getByLabel('Category name').fill('For Kids');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await snack(page, 'Category created successfully!');
    await expect.poll(() => app.sql('select c.name, p.name as parent from category c join category p on p.id = c.parent_id')).toEqual([{ name: 'For Kids', parent: 'Birthday' }]);

    // A product type added with the Enter key.
    await page.getByRole('button', { name: 'Product Types' }).click();
    const types = page.getByRole('dialog', { name: 'Product Types' });
    await types.getByLabel('New product type').fill('Postcard');
    await types.getByLabel('New product type').press('Enter');
    await snack(page, 'Product type added successfully!');
    await types.getByText('Postcard', { exact: true }).waitFor();
    await expect.poll(async () => (await app.sql<{ name: string }>('select name from product_type order by id')).map((t) => t.name)).toEqual(['E-Greeting Card', 'Music Album', 'Image Collection', 'Gift Card', 'Gift Membership', 'Postcard']);
    await types.getByRole('button', { name: 'Close' }).last().click();
    await types.waitFor({ state: 'hidden' });

    // An e-greeting card in "For Kids".
    await page.getByRole('button', { name: 'Create Product' }).click();
    await page.getByRole('menuitem', { name: 'Postcard' }).waitFor();
    await page.getByRole('menuitem', { name: 'E-Greeting Card' }).click();
    const form = page.getByRole('dialog', { name: 'Create E-Greeting Card' });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Please fill in all required fields correctly.').waitFor();
    await form.getByText('Required.').waitFor();
    await form.getByText('Must be a positive number.').waitFor();
    await screenshotOf(form, 'catalogue-product-form-errors');

    await form.getByLabel('Name').fill('Party Balloons');
    await form.getByLabel(/^Price/).fill('4.5');
    await form.getByLabel('Description').click();
    expect(await form.getByLabel(/^Price/).inputValue()).toBe('4.50');
    await form.getByLabel('Description').fill('Balloons, cake and a song to sing along.');
    await form.getByLabel('Tags').fill('balloons');
    await form.getByLabel('Tags').press('Enter');
    expect(await form.getByLabel('Selected Font').inputValue()).toBe('Roboto');
    await form.getByLabel('Selected Font').click();
    const picker = page.getByRole('dialog', { name: 'Choose a font' });
    await picker.getByLabel('Search fonts').fill('DANCING');
    expect(await picker.getByRole('option').count()).toBe(1);
    await picker.getByRole('option', { name: /Dancing Script/ }).click();
    await picker.waitFor({ state: 'hidden' });
    expect(await form.getByLabel('Selected Font').inputValue()).toBe('Dancing Script');
    await form.getByLabel('Message Placement').selectOption({ label: 'Bottom Right' });

    await pickInMediaBrowser(page, () => form.getByRole('button', { name: 'Choose Main Image' }).click(), 'image-1.png');
    await pickInMediaBrowser(page, () => form.getByRole('button', { name: 'Choose Cover Image' }).click(), 'image-2.png');
    await pickInMediaBrowser(page, () => form.getByRole('button', { name: 'Choose Greeting Image' }).click(), 'image-3.png');
    await form.getByRole('button', { name: 'Choose Song 1' }).click();
    const songs = page.getByRole('dialog', { name: 'Media Browser' });
    await songs.getByText('Card art', { exact: true }).click();
    await songs.getByRole('button', { name: 'Select song-1.wav' }).waitFor();
    expect(await songs.getByRole('button', { name: 'Select image-1.png' }).count()).toBe(0); // songs only
    await songs.getByRole('button', { name: 'Select song-1.wav' }).click();
    await form.getByText('song-1.wav').waitFor();
    await imageLoaded(page, 'Greeting');
    expect(await form.locator('.card-preview-message.placement-bottom-right').count()).toBe(1);
    await screenshotOf(form, 'catalogue-product-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await snack(page, 'Product saved successfully!');
    await form.waitFor({ state: 'hidden' });

    await page.getByText('Party Balloons').waitFor();
    await imageLoaded(page, 'Party Balloons');
    const [saved] = await app.sql<{ name: string; price: string; tags: string[]; font_name: string; message_location: string; song: string; cover: string; main: string }>(
      `select p.name, p.price::text as price, p.tags, c.font_name, c.message_location::text as message_location, s.file_name as song, cv.file_name as cover, m.file_name as main
       from product p join e_greeting_card c on c.product_id = p.id join media_file s on s.id = c.song_1_id join media_file cv on cv.id = c.cover_image_id join media_file m on m.id = p.main_image_id`,
    );
    expect(saved).toEqual({ name: 'Party Balloons', price: '4.50', tags: ['balloons'], font_name: 'Dancing Script', message_location: 'bottom-right', song: 'song-1.wav', cover: 'image-2.png', main: 'image-1.png' });
    await screenshot(page, 'catalogue');

    // Edit it: the form comes back filled, and the new name is listed.
    await page.getByRole('button', { name: 'Edit product Party Balloons' }).click();
    const editForm = page.getByRole('dialog', { name: 'Edit Product' });
    expect(await editForm.getByLabel('Name').inputValue()).toBe('Party Balloons');
    expect(await editForm.getByLabel('Selected Font').inputValue()).toBe('Dancing Script');
    expect(await editForm.getByLabel(/^Price/).inputValue()).toBe('4.50');
    await editForm.getByLabel('Name').fill('Party Balloons Deluxe');
    // Made a draft (contract section 16): out of the shop, tagged in the list.
    await editForm.getByLabel('Status').selectOption({ label: 'Draft' });
    await editForm.getByRole('button', { name: 'Save' }).click();
    await snack(page, 'Product saved successfully!');
    await page.getByText('Party Balloons Deluxe').waitFor();
    await expect.poll(() => app.sql('select name, status from product')).toEqual([{ name: 'Party Balloons Deluxe', status: 'draft' }]);
    await page.locator('.catalogue-product', { hasText: 'Party Balloons Deluxe' }).getByText('Draft', { exact: true }).waitFor();

    // The admin opens the draft's page and is told shoppers do not see it; a shopper finds nothing there.
    const [{ id: draftId }] = await app.sql<{ id: number }>('select id from product');
    const shopper = await (await newContext(browser, app.url)).newPage();
    await shopper.goto(`/product/${draftId}`);
    await shopper.getByText('Product not found').waitFor();
    await page.goto(`/product/${draftId}`);
    await expect.poll(() => page.getByRole('note').filter({ hasText: 'Draft' }).textContent(), { timeout: 30_000 }).toBe('Draft: shoppers do not see this product; only admins can open this page.');
    await screenshot(page, 'product-draft-admin');
    await page.goBack();
    await page.getByText('Party Balloons Deluxe').waitFor();

    // The edit dialog survives a reload (it lives in the URL).
    await page.getByRole('button', { name: 'Edit product Party Balloons Deluxe' }).click();
    await page.reload();
    await page.getByRole('dialog', { name: 'Edit Product' }).getByLabel('Name').waitFor();
    await page.getByRole('dialog', { name: 'Edit Product' }).getByRole('button', { name: 'Cancel' }).click();

    // Delete it.
    await page.getByRole('button', { name: 'Delete product Party Balloons Deluxe' }).click();
    await page.locator('.bp6-alert', { hasText: 'Are you sure you want to delete this product?' }).getByRole('button', { name: 'Delete' }).click();
    await snack(page, 'Product deleted successfully!');
    await page.getByText('No products in this category.').waitFor();
    await expect.poll(() => app.sql('select count(*)::int as n from product')).toEqual([{ n: 0 }]);

    // Move "For Kids" under another category, then to the top level, by dragging it.
    await page.getByRole('button', { name: 'Create Top Level Category' }).click();
    await page.getByLabel('Category name').fill('Holidays');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => app.sql("select count(*)::int as n from category where name = 'Holidays'")).toEqual([{ n: 1 }]);
    const label = (name: string) => page.locator('.node-tree-label', { hasText: name });
    await label('For Kids').dragTo(label('Holidays'));
    await expect.poll(() => app.sql("select p.name as parent from category c join category p on p.id = c.parent_id where c.name = 'For Kids'")).toEqual([{ parent: 'Holidays' }]);
    // The tree shows it under Holidays (opened for it) before it is dragged again.
    const nested = page.locator('.bp6-tree-node-list .bp6-tree-node-list .node-tree-label', { hasText: 'For Kids' });
    const from = await settledBox(nested);
    await page.mouse.move(from.x + 20, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 30, from.y + from.height / 2 + 20, { steps: 4 });
    const strip = page.locator('.node-tree-root-drop');
    const to = await settledBox(strip);
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await screenshot(page, 'catalogue-drag');
    await page.mouse.up();
    await expect.poll(() => app.sql("select parent_id from category where name = 'For Kids'")).toEqual([{ parent_id: null }]);

    // Deleting the selected category clears the selection.
    await label('Birthday').click();
    await page.getByRole('button', { name: 'Delete category Birthday' }).click();
    await page.locator('.bp6-alert', { hasText: 'Are you sure you want to delete this category and all its subcategories and products?' }).getByRole('button', { name: 'Delete' }).click();
    await snack(page, 'Category deleted successfully!');
    await page.getByText('Select a category to view products.').waitFor();
    expect(await page.getByRole('button', { name: 'Create Subcategory' }).isDisabled()).toBe(true);
    await expect.poll(() => app.sql('select name from category order by name')).toEqual([{ name: 'For Kids' }, { name: 'Holidays' }]);
    await context.close();
  });
});
