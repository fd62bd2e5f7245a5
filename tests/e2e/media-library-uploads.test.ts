import { describe, expect, it } from 'vitest';
import { browserSuite, openConsole, screenshot, signIn } from '../helpers/browser.js';
import { png, uploadRest, wav } from '../helpers/media-fixtures.js';

/**
 * The Media Library's uploads in a real browser: files dropped onto the grid, uploads from the Media
 * Browser, and the library on a phone. Folders, renaming, deleting and paging are in
 * media-library.test.ts.
 */
const suite = browserSuite();

describe('the Media Library in a real browser: uploads and a phone', () => {
  it('uploads files dropped onto the grid', async () => {
    const { app, browser } = suite;
    const token = await app.login();
    await app.request('/api/media/folders', { method: 'POST', json: { name: 'Dropped' }, token });
    const { context, page } = await openConsole(browser, app.url);
    await page.getByText('Dropped', { exact: true }).click();
    await page.getByText('No files in this folder.').waitFor();
    const bytes = (await png(320, 240)).toString('base64');
    const transfer = await page.evaluateHandle((base64) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([data], 'dropped.png', { type: 'image/png' }));
      return dt;
    }, bytes);
    const grid = page.getByLabel('Files');
    await grid.dispatchEvent('dragover', { dataTransfer: transfer });
    await grid.dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByText('Files uploaded successfully!').waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('img')].some((img) => img.alt === 'dropped.png' && img.naturalWidth > 0));
    expect(await app.sql("select f.name from media_file m join media_folder f on f.id = m.folder_id where m.file_name = 'dropped.png'")).toEqual([{ name: 'Dropped' }]);
    await context.close();
  });

  it('uploads from the Media Browser: a success picks the first new file, a failure alerts and stays open', async () => {
    const { app, browser } = suite;
    const { context, page } = await openConsole(browser, app.url);
    await page.getByRole('button', { name: 'Open Media Browser' }).click();
    const dialog = page.getByRole('dialog', { name: 'Media Browser' });
    await dialog.getByText('Upload New Image for this Product').waitFor();
    expect(await dialog.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel('Select files').setInputFiles([
      { name: 'sunrise.png', mimeType: 'image/png', buffer: await png(200, 200) },
      { name: 'sunset.png', mimeType: 'image/png', buffer: await png(300, 200) },
    ]);
    await dialog.getByText('2 files selected').waitFor();
    await dialog.getByText('sunset.png').waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Selected sunrise.png').waitFor();
    expect(await app.sql("select m.file_name, f.name as folder from media_file m join media_folder f on f.id = m.folder_id where m.file_name like 'sun%' order by m.id")).toEqual([
      { file_name: 'sunrise.png', folder: 'Product Uploads' },
      { file_name: 'sunset.png', folder: 'Product Uploads' },
    ]);

    await page.getByRole('button', { name: 'Open Media Browser' }).click();
    await dialog.getByText('Product Uploads').click();
    await dialog.getByRole('button', { name: 'Select sunset.png' }).waitFor();
    await dialog.getByLabel('Select files').setInputFiles([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') }]);
    const alert = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.message()), void d.accept())));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    expect(await alert).toMatch(/^Error uploading files: .+/);
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await app.sql("select count(*)::int as n from media_file where file_name = 'fake.png'")).toEqual([{ n: 0 }]);
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const created = await app.request('/api/media/folders', { method: 'POST', json: { name: 'Phone' }, token });
    const { id: folderId } = (await created.json()) as { id: number };
    const uploaded = await uploadRest(app, `/api/media/files/${folderId}`, [
      { name: 'meadow.png', type: 'image/png', data: await png(480, 320) },
      { name: 'a rather long file name for a small screen.png', type: 'image/png', data: await png(200, 300) },
      { name: 'lullaby.wav', type: 'audio/wav', data: wav(0.3) },
    ], token);
    expect(uploaded.ok).toBe(true);
    const context = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page);
    await page.waitForURL(app.url + '/');
    await page.goto('/admindash');
    await page.getByText('Phone', { exact: true }).click();
    await page.getByRole('button', { name: 'Rename file lullaby.wav' }).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('img')].some((img) => img.alt === 'meadow.png' && img.naturalWidth > 0));
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'media-library-phone');
    await page.getByRole('button', { name: 'Open Media Browser' }).click();
    const dialog = page.getByRole('dialog', { name: 'Media Browser' });
    await dialog.getByText('Phone', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Select meadow.png' }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'media-browser-phone');
    await context.close();
  });
});
