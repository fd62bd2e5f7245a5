import { describe, expect, it } from 'vitest';
import { browserSuite, openConsole, screenshot } from '../helpers/browser.js';
import { png, wav } from '../helpers/media-fixtures.js';

/**
 * The Media Library in a real browser: folders, an upload, renaming, deleting, picking in the Media
 * Browser, a refused file and a large folder's pages. Dropped files, the Media Browser's own uploads
 * and the phone are in media-library-uploads.test.ts.
 */
const suite = browserSuite();

describe('the Media Library in a real browser', () => {
  it('creates folders, uploads an image and a song, renames and deletes them, and picks a file in the Media Browser', async () => {
    const { app, browser } = suite;
    const { context, page } = await openConsole(browser, app.url);
    await page.getByText('Select a folder to view files.').waitFor();
    expect(await page.getByRole('button', { name: 'Create Subfolder' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Upload Files' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Create Top Level Folder' }).click();
    await page.getByLabel('Folder name').fill('Greeting cards');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Root folder created successfully!').waitFor();
    await page.getByText('No files in this folder.').waitFor();

    await page.getByRole('button', { name: 'Create Subfolder' }).click();
    await page.getByLabel('Folder name').fill('Spring');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Folder created successfully!', { exact: true }).waitFor();
    expect(await app.sql('select f.name, p.name as parent from media_folder f left join media_folder p on p.id = f.parent_id order by f.id')).toEqual([
      { name: 'Greeting cards', parent: null },
      { name: 'Spring', parent: 'Greeting cards' },
    ]);

    await page.getByRole('button', { name: 'Upload Files' }).click();
    await page.getByLabel('Select files').setInputFiles([
      { name: 'tulips.png', mimeType: 'image/png', buffer: await png(640, 480) },
      { name: 'birdsong.wav', mimeType: 'audio/wav', buffer: wav(0.5) },
    ]);
    await page.getByText('2 files selected').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Files uploaded successfully!').waitFor();
    const thumb = page.getByRole('img', { name: 'tulips.png' });
    await thumb.waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('img')].some((img) => img.alt === 'tulips.png' && img.naturalWidth > 0));
    expect(await page.locator('audio').count()).toBe(1);
    await screenshot(page, 'media-library');

    await page.getByRole('button', { name: 'Rename file tulips.png' }).click();
    await page.getByLabel('File name').fill('Tulips in bloom');
    await page.getByRole('dialog', { name: 'Rename File' }).getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByText('File renamed successfully!').waitFor();
    await page.getByText('Tulips in bloom').first().waitFor();
    expect(await app.sql("select friendly_name from media_file where file_name = 'tulips.png'")).toEqual([{ friendly_name: 'Tulips in bloom' }]);

    await page.getByRole('button', { name: 'Rename folder Spring' }).click();
    await page.getByLabel('Folder name').fill('Spring 2027');
    await page.getByRole('dialog', { name: 'Rename Folder' }).getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByText('Folder renamed successfully!').waitFor();
    await page.getByText('Spring 2027').waitFor();

    // Pick the image in the Media Browser.
    await page.getByRole('button', { name: 'Open Media Browser' }).click();
    const dialog = page.getByRole('dialog', { name: 'Media Browser' });
    await dialog.getByText('Media Library', { exact: true }).waitFor();
    await dialog.getByText('Greeting cards').click();
    await dialog.getByText('Spring 2027').click();
    await dialog.getByRole('button', { name: 'Select Tulips in bloom' }).waitFor();
    await screenshot(page, 'media-browser');
    await dialog.getByRole('button', { name: 'Select Tulips in bloom' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Selected Tulips in bloom').waitFor();

    await page.getByRole('button', { name: 'Delete file birdsong.wav' }).click();
    await page.locator('.bp6-alert', { hasText: 'Are you sure you want to delete this file?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('File deleted successfully!').waitFor();
    await page.getByRole('button', { name: 'Delete file birdsong.wav' }).waitFor({ state: 'detached' });
    expect(await app.sql("select count(*)::int as n from media_file where file_name = 'birdsong.wav'")).toEqual([{ n: 0 }]);

    await page.getByRole('button', { name: 'Delete folder Greeting cards' }).click();
    await page.locator('.bp6-alert', { hasText: 'Are you sure you want to delete this folder and all its contents?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Folder deleted successfully!').waitFor();
    await page.getByText('Select a folder to view files.').waitFor();
    expect(await app.sql('select count(*)::int as n from media_file')).toEqual([{ n: 0 }]);
    await context.close();
  });

  it('refuses a file whose content does not match its name, with the error snackbar', async () => {
    const { app, browser } = suite;
    const token = await app.login();
    await app.request('/api/media/folders', { method: 'POST', json: { name: 'Checks' }, token });
    const { context, page } = await openConsole(browser, app.url);
    await page.getByText('Checks').click();
    await page.getByRole('button', { name: 'Upload Files' }).click();
    await page.getByLabel('Select files').setInputFiles([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') }]);
    await page.getByRole('dialog').getByRole('button', { name: 'Upload' }).click();
    await page.getByText(/^Error uploading files: Failed to upload files \(Unsupported Media Type\)/).waitFor();
    await screenshot(page, 'media-upload-refused');
    expect(await app.sql("select count(*)::int as n from media_file where file_name = 'fake.png'")).toEqual([{ n: 0 }]);
    await context.close();
  });
  it('pages a large folder with Load more and keeps the loaded pages when a file is deleted', async () => {
    const { app, browser } = suite;
    const token = await app.login();
    const created = await app.request('/api/media/folders', { method: 'POST', json: { name: 'Many songs' }, token });
    const { id: folderId } = (await created.json()) as { id: number };
    // Rows only (no bytes): the grid shows songs with preload="none", so nothing is fetched.
    await app.sql(
      `insert into media_file (file_name, file_path, friendly_name, folder_id, mime_type, size)
       select 'song-' || lpad(n::text, 3, '0') || '.wav', 'uploads/many/' || n || '.wav', 'Song ' || lpad(n::text, 3, '0'), $1, 'audio/wav', 1000
       from generate_series(1, 105) as n`,
      [folderId],
    );
    const { context, page } = await openConsole(browser, app.url);
    await page.getByText('Many songs').click();
    const tiles = page.locator('.media-library-item');
    await page.getByRole('button', { name: 'Rename file Song 100' }).waitFor();
    expect(await tiles.count()).toBe(100);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByRole('button', { name: 'Rename file Song 105' }).waitFor();
    expect(await tiles.count()).toBe(105);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // The deleted file leaves the cached pages; the list is not refetched back to its first page.
    const lists: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.postData()?.includes('query MediaFiles')) lists.push(request.postData()!);
    });
    await page.getByRole('button', { name: 'Delete file Song 104' }).click();
    await page.locator('.bp6-alert', { hasText: 'Are you sure you want to delete this file?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('File deleted successfully!').waitFor();
    await page.getByRole('button', { name: 'Delete file Song 104' }).waitFor({ state: 'detached' });
    expect(await tiles.count()).toBe(104);
    await page.getByRole('button', { name: 'Rename file Song 105' }).waitFor();
    expect(lists).toEqual([]);
    await context.close();
  });
});
