import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startApp } from '../../gateway/src/boot.js';
import { loadConfig } from '../../server/src/config.js';
import { DEMO_MARKER_KEY, DemoSeedService } from '../../server/src/demo/demo-seed.service.js';
import type { ProductService } from '../../server/src/modules/catalogue/product.service.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/test-app.js';

const silent = pino({ level: 'silent' });
const TABLES = ['category', 'product', 'product_image', 'e_greeting_card', 'media_folder', 'media_file', 'blog_post'] as const;

async function rowCounts(app: TestApp) {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = (await app.sql<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n;
  return counts;
}

const storedFiles = (app: TestApp) => {
  const dir = path.join(app.dataDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

const marker = async (app: TestApp) => (await app.sql<{ value: string }>('select value from setting where key = $1', [DEMO_MARKER_KEY]))[0]?.value;

describe('the demo catalogue of a fresh shop', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ seedDemo: true });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('has a category tree, each category with a picture', async () => {
    const categories: { id: number; parent_id: number | null; name: string; media_id: number | null }[] = await (await app.request('/api/categories/all')).json();
    const byName = new Map(categories.map((c) => [c.name, c]));
    const top = categories.filter((c) => c.parent_id === null).map((c) => c.name).sort();
    expect(top).toEqual(['Art Collections', 'Birthday', 'Holidays', 'Love & Romance', 'Music Albums', 'Thank You']);
    const holidays = byName.get('Holidays')!;
    expect(categories.filter((c) => c.parent_id === holidays.id).map((c) => c.name).sort()).toEqual(['Christmas', 'New Year']);
    for (const category of categories) expect(category.media_id, category.name).not.toBeNull();
  });

  it('has e-greeting cards with full card data: images are images, songs are audio', async () => {
    const cards = await app.sql<{ id: number }>('select id from product where product_type_id = 1 order by id');
    expect(cards.length).toBeGreaterThanOrEqual(6);
    const kinds = new Map(
      (await app.sql<{ id: number; mime_type: string }>('select id, mime_type from media_file')).map((f) => [f.id, f.mime_type]),
    );
    const locations = new Set<string>();
    const fonts = new Set<string>();
    for (const { id } of cards) {
      const detail = await (await app.request(`/api/products/${id}`)).json();
      const { product, e_greeting_card_data: card } = detail;
      expect(product.name).toBeTruthy();
      expect(product.description.length).toBeGreaterThan(40);
      expect(product.price).toBeGreaterThanOrEqual(2.99);
      expect(product.price).toBeLessThanOrEqual(6.99);
      expect(detail.tags.length).toBeGreaterThan(0);
      expect(product.main_image_id).toBe(card.cover_image_id);
      for (const slot of ['cover_image_id', 'greeting_image_id', 'back_image_id']) expect(kinds.get(card[slot]), slot).toBe('image/webp');
      const extras = [card.extra_image_1_id, card.extra_image_2_id, card.extra_image_3_id].filter(Boolean);
      expect(extras.length).toBeGreaterThanOrEqual(1);
      for (const extra of extras) expect(kinds.get(extra)).toBe('image/webp');
      const songs = [card.song_1_id, card.song_2_id, card.song_3_id].filter(Boolean);
      expect(songs.length).toBeGreaterThanOrEqual(1);
      for (const song of songs) expect(kinds.get(song)).toBe('audio/wav');
      expect(detail.associated_images.length).toBe(extras.length);
      locations.add(card.message_location);
      fonts.add(card.font_name);
    }
    expect(locations.size).toBeGreaterThanOrEqual(5);
    expect(fonts.size).toBeGreaterThanOrEqual(5);
  });

  it('lists the cards of a category', async () => {
    const categories: { id: number; name: string }[] = await (await app.request('/api/categories/all')).json();
    const birthday = categories.find((c) => c.name === 'Birthday')!;
    const products: { name: string; main_image_path: string }[] = await (await app.request(`/api/products/category/${birthday.id}`)).json();
    expect(products.map((p) => p.name)).toEqual(['Balloon Bouquet', 'Candles & Cake']);
    for (const product of products) expect(product.main_image_path).toMatch(/^uploads\/[A-Za-z0-9_-]+\.webp$/);
  });

  it('has a music album and an image collection with their pictures, and no card data', async () => {
    for (const type of [2, 3]) {
      const [row] = await app.sql<{ id: number }>('select id from product where product_type_id = $1', [type]);
      const detail = await (await app.request(`/api/products/${row.id}`)).json();
      expect(detail.product.main_image_id).not.toBeNull();
      expect(detail.associated_images.length).toBeGreaterThanOrEqual(3);
      expect(detail.e_greeting_card_data).toBeNull();
    }
  });

  it('publishes two blog posts with covers, newest first', async () => {
    const list = await (await app.request('/api/blog')).json();
    expect(list.total).toBe(2);
    expect(list.posts.map((p: { title: string }) => p.title)).toEqual(['Five Ways to Make an E-Card Unforgettable', 'Welcome to Art & Song Cards']);
    for (const post of list.posts) {
      expect(post.status).toBe('published');
      expect(post.cover_image_path).toMatch(/^uploads\//);
      expect(post.html).toMatch(/<h[23]/);
      expect(post.author.username).toBe(ADMIN.username);
    }
  });

  it('keeps the files in media folders under "Demo"', async () => {
    const folders = await app.sql<{ name: string; parent: string | null }>(
      'select f.name, p.name as parent from media_folder f left join media_folder p on p.id = f.parent_id order by f.id',
    );
    expect(folders).toEqual([
      { name: 'Demo', parent: null },
      ...['Cards', 'Songs', 'Albums', 'Art Collections', 'Blog'].map((name) => ({ name, parent: 'Demo' })),
    ]);
    const empty = await app.sql('select f.name from media_folder f where f.parent_id is not null and not exists (select 1 from media_file m where m.folder_id = f.id)');
    expect(empty).toEqual([]);
  });

  it('stores the bytes on disk and serves them with their content type', async () => {
    const files = await app.sql<{ file_path: string; thumbnail_path: string | null; mime_type: string; size: number; width: number | null }>(
      'select file_path, thumbnail_path, mime_type, size, width from media_file',
    );
    const onDisk = new Set(storedFiles(app));
    for (const file of files) {
      expect(onDisk.has(file.file_path.replace('uploads/', '')), file.file_path).toBe(true);
      if (file.mime_type.startsWith('image/')) {
        expect(file.thumbnail_path).not.toBeNull();
        expect(file.size).toBeLessThan(100_000);
      }
    }
    const [image] = await app.sql<{ file_path: string }>(
      "select m.file_path from e_greeting_card c join media_file m on m.id = c.greeting_image_id limit 1",
    );
    const imageRes = await app.request(`/api/${image.file_path}`);
    expect(imageRes.status).toBe(200);
    expect(imageRes.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await imageRes.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 600, 800]);

    const [song] = await app.sql<{ file_path: string; friendly_name: string }>(
      "select file_path, friendly_name from media_file where mime_type like 'audio/%' order by id limit 1",
    );
    expect(song.friendly_name).toBe('Happy Birthday.wav');
    const songRes = await app.request(`/api/${song.file_path}`);
    expect(songRes.status).toBe(200);
    expect(songRes.headers.get('content-type')).toMatch(/^audio\/wav/);
    const wav = Buffer.from(await songRes.arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    expect(wav.equals(fs.readFileSync(path.join(app.dataDir, song.file_path)))).toBe(true);
  });

  it('adds nothing on a second run nor on a restart, and records that it ran', async () => {
    expect(await marker(app)).toBe('seeded');
    await app.services.media.imageSizesMade(); // the demo pictures' sizes, made in the background
    const before = { rows: await rowCounts(app), files: storedFiles(app) };

    const again = await new DemoSeedService(app.services).seed(app.orm.em.fork(), silent);
    expect(again).toEqual({ seeded: false, reason: 'done-before' });

    const restarted = await startApp(
      {
        ...loadConfig({}),
        port: 0,
        host: '127.0.0.1',
        dataDir: app.dataDir,
        databaseUrl: inject('pgAdminUrl').replace(/\/postgres$/, `/${app.databaseName}`),
        logLevel: 'silent',
        jwtSecret: 'restart',
        admin: { ...ADMIN },
        seedDemo: true,
      },
      silent,
    );
    await restarted.stop();
    expect({ rows: await rowCounts(app), files: storedFiles(app) }).toEqual(before);
  });

  it('does not come back once an admin has deleted it', async () => {
    const token = await app.login();
    const categories: { id: number; parent_id: number | null }[] = await (await app.request('/api/categories/all')).json();
    for (const category of categories.filter((c) => c.parent_id === null)) {
      expect((await app.request(`/api/categories/${category.id}`, { method: 'DELETE', token })).status).toBe(204);
    }
    expect(await new DemoSeedService(app.services).seed(app.orm.em.fork(), silent)).toEqual({ seeded: false, reason: 'done-before' });
    expect((await rowCounts(app)).category).toBe(0);
    expect((await rowCounts(app)).product).toBe(0);
  });
});

describe('a shop that is not fresh', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(); // an external database: the demo stays off unless forced
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('gets no demo when seeding is off', async () => {
    expect(await rowCounts(app)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
    expect(await marker(app)).toBeUndefined();
  });

  it('is not seeded when a failure strikes half-way, and keeps no stray bytes', async () => {
    let created = 0;
    const products = new Proxy(app.services.products, {
      get(target, key, receiver) {
        if (key !== 'create') return Reflect.get(target, key, receiver);
        return (...args: Parameters<ProductService['create']>) => {
          if (++created === 4) throw new Error('the disk is full');
          return target.create(...args);
        };
      },
    });
    const seeder = new DemoSeedService({ ...app.services, products });
    await expect(seeder.seed(app.orm.em.fork(), silent)).rejects.toThrow('the disk is full');
    expect(await rowCounts(app)).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])));
    expect(storedFiles(app)).toEqual([]);
    expect(await marker(app)).toBeUndefined();
  });

  it('is not seeded once it has a category of its own', async () => {
    const token = await app.login();
    expect((await app.request('/api/categories', { method: 'POST', json: { name: 'Weddings', parent_id: null }, token })).status).toBe(201);
    const outcome = await new DemoSeedService(app.services).seed(app.orm.em.fork(), silent);
    expect(outcome).toEqual({ seeded: false, reason: 'shop-not-empty' });
    const counts = await rowCounts(app);
    expect(counts).toMatchObject({ category: 1, product: 0, media_file: 0, blog_post: 0 });
    expect(await marker(app)).toBe('skipped');
  });
});
