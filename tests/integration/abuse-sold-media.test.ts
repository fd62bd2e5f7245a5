import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadMedia } from '../helpers/catalogue-fixtures.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Contract section 8: files used by a sold card are never lost. */
let app: TestApp;
let admin: string;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const onDisk = (filePath: string) => fs.existsSync(path.join(app.dataDir, filePath));

describe('media of sold cards', () => {
  it('keeps the bytes a sold card shows when its files and their folder are deleted; the e-card keeps working', async () => {
    const { body } = await placeOrder(app, orderInput(shop));
    const uuid = body.data.placeOrder.items[0].itemUrlUuid;
    const files = [shop.files.cover, shop.files.greeting, shop.files.back, shop.files.extra, ...shop.files.songs];
    expect((await app.sql('select key from sold_media')).length).toBe(files.length);

    // One file deleted on its own, then the whole folder.
    const [cover] = await app.sql<{ id: number; folder_id: number }>('select id, folder_id from media_file where file_path = $1', [shop.files.cover]);
    expect((await app.request(`/api/media/files/${cover!.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await app.request(`/api/media/folders/${cover!.folder_id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await app.sql('select id from media_file')).toEqual([]);

    const page = await app.request(`/ecards/${uuid}.html`);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const file of files) {
      expect(onDisk(file), file).toBe(true);
      expect(html).toContain(`/api/${file}`);
      const served = await app.request(`/api/${file}`);
      expect(served.status, file).toBe(200);
      expect(served.headers.get('content-type'), file).toMatch(file.endsWith('.wav') ? /^audio\// : /^image\//);
      expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // A range of a kept song still works (seeking in the card's player).
    const song = await app.request(`/api/${shop.files.songs[0]}`, { headers: { range: 'bytes=0-9' } });
    expect(song.status).toBe(206);
  });

  it('still removes the bytes of files no sold card uses, and of their thumbnails', async () => {
    const media = await uploadMedia(app, admin, { images: 1, songs: 1, folder: 'Unsold' });
    const [image] = media.images;
    expect(onDisk(image!.file_path)).toBe(true);
    expect((await app.request(`/api/media/files/${image!.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(onDisk(image!.file_path)).toBe(false);
    expect(image!.thumbnail_path && onDisk(image!.thumbnail_path)).toBe(false);
    expect((await app.request(`/api/${image!.file_path}`)).status).toBe(404);
  });
});
