import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../server/src/modules/media/s3-storage.js';
import { startTestBucket, type TestBucket } from '../helpers/s3.js';
import { png, uploadRest, wav } from '../helpers/media-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Media in an S3-compatible bucket: the driver against a real S3-protocol server, then the whole shop on it. */

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(async () => {
  await bucket?.stop();
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('the S3 driver', () => {
  let storage: S3Storage;
  beforeAll(() => {
    storage = new S3Storage(bucket.config);
  });
  afterAll(() => storage?.destroy());

  it('stores a staged file (consuming it), a stream and bytes, byte for byte', async () => {
    const staged = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-s3-stage-')), 'a.part');
    const fileBytes = crypto.randomBytes(300_000);
    fs.writeFileSync(staged, fileBytes);
    await storage.put('driver-file.png', { stagedFile: staged }, 'image/png');
    expect(fs.existsSync(staged)).toBe(false);
    await storage.put('driver-stream.wav', { stream: Readable.from([fileBytes.subarray(0, 1000), fileBytes.subarray(1000, 5000)]) }, 'audio/wav');
    await storage.put('driver-bytes.webp', { bytes: Buffer.from('RIFF....WEBP') }, 'image/webp');

    expect(await storage.stat('driver-file.png')).toEqual({ size: 300_000 });
    expect((await bytesOf(await storage.read('driver-file.png'))).equals(fileBytes)).toBe(true);
    expect((await bytesOf(await storage.read('driver-stream.wav'))).equals(fileBytes.subarray(0, 5000))).toBe(true);
    expect(await text(await storage.read('driver-bytes.webp'))).toBe('RIFF....WEBP');
  });

  it('streams a file larger than one part as a multipart upload', async () => {
    const big = crypto.randomBytes(9 * 1024 * 1024); // more than the 8 MB part size
    await storage.put('driver-big.mp3', { stream: Readable.from([big.subarray(0, 4_000_000), big.subarray(4_000_000)]) }, 'audio/mpeg');
    expect(await storage.stat('driver-big.mp3')).toEqual({ size: big.length });
    expect((await bytesOf(await storage.read('driver-big.mp3'))).equals(big)).toBe(true);
  });

  it('reads an inclusive byte range', async () => {
    const bytes = crypto.randomBytes(10_000);
    await storage.put('driver-range.wav', { bytes }, 'audio/wav');
    expect((await bytesOf(await storage.read('driver-range.wav', { start: 100, end: 199 }))).equals(bytes.subarray(100, 200))).toBe(true);
    expect((await bytesOf(await storage.read('driver-range.wav', { start: 9990, end: 9999 }))).equals(bytes.subarray(9990))).toBe(true);
  });

  it('answers null for a missing object, and removes objects (a missing key is no error)', async () => {
    expect(await storage.stat('driver-nothing.png')).toBeNull();
    await storage.put('driver-gone-1.png', { bytes: Buffer.from('1') }, 'image/png');
    await storage.put('driver-gone-2.png', { bytes: Buffer.from('2') }, 'image/png');
    await storage.remove(['driver-gone-1.png', 'driver-gone-2.png', 'driver-never-there.png']);
    expect(await storage.stat('driver-gone-1.png')).toBeNull();
    expect(await storage.stat('driver-gone-2.png')).toBeNull();
    await storage.remove([]);
  });

  it('refuses keys that are not storage names', async () => {
    await expect(storage.put('../escape.png', { bytes: Buffer.from('x') }, 'image/png')).rejects.toThrow(/Invalid storage key/);
    await expect(storage.read('a/b.png')).rejects.toThrow(/Invalid storage key/);
  });

  it('is ready when the bucket answers, and not when it does not exist', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
    const missing = new S3Storage({ ...bucket.config, bucket: 'no-such-bucket' });
    await expect(missing.check()).rejects.toThrow();
    missing.destroy();
  });
});

describe('the shop with its media in a bucket', () => {
  let app: TestApp;
  let admin: string;
  let folderId: number;
  beforeAll(async () => {
    app = await startTestApp({ s3: bucket.config });
    admin = await app.login();
    folderId = ((await (await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: 'In the bucket', parent_id: null } })).json()) as { id: number }).id;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('stores originals and thumbnails in the bucket, nothing in DATA_DIR, and stages outside DATA_DIR', async () => {
    expect(app.services.media.storage.kind).toBe('s3');
    expect(app.services.media.stagingFolder.startsWith(app.dataDir)).toBe(false);
    const before = new Set(await bucket.keys());
    const imageBytes = await png(500, 400);
    const res = await uploadRest(app, `/api/media/files/${folderId}`, [{ name: 'cover.png', data: imageBytes }, { name: 'song.wav', data: wav(1) }], admin);
    expect(res.status).toBe(201);
    const [image, song] = (await res.json()) as { file_path: string; thumbnail_path: string | null }[];
    const added = (await bucket.keys()).filter((key) => !before.has(key));
    expect(added.sort()).toEqual([image!.file_path, image!.thumbnail_path!, song!.file_path].map((p) => p.replace('uploads/', '')).sort());
    expect(fs.existsSync(path.join(app.dataDir, 'uploads'))).toBe(false);
    expect(fs.readdirSync(app.services.media.stagingFolder)).toEqual([]);
  });

  it('serves from the bucket with the same types, ETags, caching, nosniff and ranges as from disk', async () => {
    const imageBytes = await png(320, 200);
    const songBytes = wav(1);
    const res = await uploadRest(app, `/api/media/files/${folderId}`, [{ name: 'served.png', data: imageBytes }, { name: 'served.wav', data: songBytes }], admin);
    const [image, song] = (await res.json()) as { file_path: string; thumbnail_path: string }[];

    const whole = await app.request(`/api/${image!.file_path}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(whole.headers.get('content-length')).toBe(String(imageBytes.length));
    const etag = whole.headers.get('etag');
    expect(etag).toBe(`"${image!.file_path.replace('uploads/', '')}"`);
    expect(Buffer.from(await whole.arrayBuffer()).equals(imageBytes)).toBe(true);
    expect((await app.request(`/api/${image!.file_path}`, { headers: { 'if-none-match': etag! } })).status).toBe(304);

    const thumb = await app.request(`/api/${image!.thumbnail_path}`);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await thumb.arrayBuffer()).subarray(8, 12).toString('ascii')).toBe('WEBP');

    const total = songBytes.length;
    const part = await app.request(`/api/${song!.file_path}`, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${total}`);
    expect(part.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await part.arrayBuffer()).equals(songBytes.subarray(100, 1100))).toBe(true);
    const outside = await app.request(`/api/${song!.file_path}`, { headers: { range: `bytes=${total + 5}-` } });
    expect(outside.status).toBe(416);
    const head = await app.request(`/api/${song!.file_path}`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(total));
  });

  it('deletes a file’s objects with it, and a folder’s with the folder', async () => {
    const res = await uploadRest(app, `/api/media/files/${folderId}`, [{ name: 'doomed.png', data: await png(100, 100) }], admin);
    const [file] = (await res.json()) as { id: number; file_path: string; thumbnail_path: string }[];
    const keys = [file!.file_path, file!.thumbnail_path].map((p) => p.replace('uploads/', ''));
    expect(await bucket.keys()).toEqual(expect.arrayContaining(keys));
    expect((await app.request(`/api/media/files/${file!.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    const left = await bucket.keys();
    for (const key of keys) expect(left).not.toContain(key);
    expect((await app.request(`/api/${file!.file_path}`)).status).toBe(404);

    const sub = ((await (await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: 'Sub', parent_id: null } })).json()) as { id: number }).id;
    const inSub = (await (await uploadRest(app, `/api/media/files/${sub}`, [{ name: 'a.wav', data: wav(0.2) }], admin)).json()) as { file_path: string }[];
    expect((await app.request(`/api/media/folders/${sub}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await bucket.keys()).not.toContain(inSub[0]!.file_path.replace('uploads/', ''));
  });

  it('is ready only while the bucket answers', async () => {
    expect(await (await app.request('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok', media: 'ok' } });
    const elsewhere = await startTestApp({ s3: { ...bucket.config, bucket: 'no-such-bucket' } });
    try {
      const res = await elsewhere.request('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', checks: { database: 'ok', media: 'unreachable' } });
    } finally {
      await elsewhere.stop();
    }
  });
});
