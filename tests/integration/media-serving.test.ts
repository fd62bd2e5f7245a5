import pino from 'pino';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { mp3, png, uploadRest, wav } from '../helpers/media-fixtures.js';
import { fileRoutes } from '../../gateway/src/routes/index.js';
import { createServices } from '../../server/src/services.js';
import { loadConfig } from '../../server/src/config.js';

/** Serving stored media under /api/uploads: headers, ranges, thumbnails, caching and path traversal. */

let app: TestApp;
let admin: string;
let image: any;
let song: any;
let imageBytes: Buffer;
let songBytes: Buffer;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  const folder = (await (await app.request('/api/media/folders', { method: 'POST', token: admin, json: { name: 'Served', parent_id: null } })).json()) as { id: number };
  imageBytes = await png(400, 300);
  songBytes = wav(1);
  const res = await uploadRest(app, `/api/media/files/${folder.id}`, [{ name: 'cover.png', data: imageBytes }, { name: 'song.wav', data: songBytes }, { name: 'x.mp3', data: mp3() }], admin);
  [image, song] = (await res.json()) as any[];
});
afterAll(async () => {
  await app?.stop();
});

/** A GET with the path sent exactly as written (fetch would normalise `..` away). */
function rawGet(pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}/`, { path: pathname, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serving', () => {
  it('declares its routes public', () => {
    const routes = fileRoutes(createServices(loadConfig({}), 'secret', { log: pino({ level: 'silent' }) }));
    expect(routes.map((r) => [r.method, r.path, r.access])).toEqual([
      ['get', '/:name', 'public'],
      ['get', '/uploads/:name', 'public'],
    ]);
  });

  it('serves a file under all three URLs with its stored type, nosniff and long caching, to anyone', async () => {
    const name = path.basename(image.file_path);
    for (const url of [`/api/${image.file_path}`, `/api/uploads/${name}`, `/api/uploads/uploads/${name}`]) {
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await res.arrayBuffer()).equals(imageBytes)).toBe(true);
    }
    const audio = await app.request(`/api/${song.file_path}`);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
  });

  it('serves the thumbnail as WebP', async () => {
    const res = await app.request(`/api/${image.thumbnail_path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(fs.readFileSync(path.join(app.dataDir, image.thumbnail_path)))).toBe(true);
    expect(body.subarray(8, 12).toString('ascii')).toBe('WEBP');
  });

  it('answers range requests with 206 and Content-Range, so audio can seek', async () => {
    const total = songBytes.length;
    const first = await app.request(`/api/${song.file_path}`, { headers: { range: 'bytes=0-99' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${total}`);
    expect(first.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await first.arrayBuffer()).equals(songBytes.subarray(0, 100))).toBe(true);

    const tail = await app.request(`/api/${song.file_path}`, { headers: { range: 'bytes=1000-' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes 1000-${total - 1}/${total}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(songBytes.subarray(1000))).toBe(true);

    const suffix = await app.request(`/api/${song.file_path}`, { headers: { range: 'bytes=-10' } });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(songBytes.subarray(total - 10))).toBe(true);

    const outside = await app.request(`/api/${song.file_path}`, { headers: { range: `bytes=${total + 10}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${total}`);
  });

  it('answers 304 to a revalidation', async () => {
    const first = await app.request(`/api/${image.file_path}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await app.request(`/api/${image.file_path}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('keeps serving uploaded files while the site is under construction', async () => {
    const on = await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: 'true' } });
    expect(on.status).toBe(200);
    try {
      const res = await app.request(`/api/${image.file_path}`);
      expect(res.status).toBe(200);
    } finally {
      await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: 'false' } });
    }
  });

  it('answers 404 to unknown names, files without a row and every traversal attempt', async () => {
    // Bytes on disk without a row (and the staging area) are never served.
    fs.writeFileSync(path.join(app.dataDir, 'uploads', 'orphan.png'), imageBytes);
    const name = path.basename(image.file_path);
    const attempts = [
      '/api/uploads/nothere.png',
      '/api/uploads/orphan.png',
      '/api/uploads/uploads/orphan.png',
      '/api/uploads/..%2F..%2Fetc%2Fpasswd',
      '/api/uploads/uploads/..%2F..%2Fetc%2Fpasswd',
      '/api/uploads/../package.json',
      '/api/uploads/uploads/../../package.json',
      '/api/uploads/..%2Fpackage.json',
      '/api/uploads/%2e%2e%2fpackage.json',
      '/api/uploads/%2e%2e/package.json',
      '/api/uploads/..%5c..%5cpackage.json',
      '/api/uploads/..\\..\\package.json',
      `/api/uploads/%2e%2e%2f${name}`,
      `/api/uploads/uploads%2F${name}`,
      '/api/uploads/..%00.png',
      '/api/uploads/.',
      '/api/uploads/..',
      '/api/uploads/%2fetc%2fpasswd',
      '/api/uploads/tmp%2Fuploads',
      '/api/uploads/jwt-secret',
    ];
    for (const attempt of attempts) {
      const res = await rawGet(attempt);
      expect(res.status, attempt).toBe(404);
      const text = res.body.toString('utf8');
      expect(text, attempt).not.toContain('root:');
      expect(text, attempt).not.toContain('art-and-song-cards');
      expect(res.body.equals(imageBytes), attempt).toBe(false);
    }
  });
});
