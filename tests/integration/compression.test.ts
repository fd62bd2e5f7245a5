import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webDistDir } from '../../gateway/src/web-client.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Compression honours the caller's quality values (issue 24, item 10): `br;q=0` refuses br, a higher
 * q wins, and a coding refused outright is never sent: for the JSON reads (from the cache and through
 * Express), the pages and the built assets.
 */

let app: TestApp;

function encodingOf(pathname: string, acceptEncoding: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get(app.url + pathname, { headers: { accept: 'text/html', 'accept-encoding': acceptEncoding }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers['content-encoding']));
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  app = await startTestApp();
  const admin = await app.login();
  // A category tree big enough to be compressed.
  for (let i = 0; i < 30; i++) await restCategory(app, admin, `A category with a rather long name ${i}`);
});
afterAll(async () => {
  await app?.stop();
});

describe('compression', () => {
  it('never answers br to a caller that refuses it, and follows the q-values it gives', async () => {
    const assets = path.join(webDistDir(), 'assets');
    const asset = fs.readdirSync(assets).find((name) => name.endsWith('.js') && fs.existsSync(path.join(assets, `${name}.br`)));
    expect(asset).toBeDefined();
    for (const pathname of ['/api/categories/all', '/shop', '/', `/assets/${asset}`]) {
      // Twice: made (or read) the first time, from the cache the second.
      for (let visit = 0; visit < 2; visit++) {
        expect(await encodingOf(pathname, 'gzip, deflate, br'), pathname).toBe('br');
        expect(await encodingOf(pathname, 'br;q=0, gzip'), pathname).toBe('gzip');
        expect(await encodingOf(pathname, 'gzip, deflate, br;q=0'), pathname).toBe('gzip');
        expect(await encodingOf(pathname, 'br;q=0'), pathname).toBeUndefined();
        expect(await encodingOf(pathname, 'br;q=0.1, gzip;q=0.9'), pathname).toBe('gzip');
      }
    }
  });
});
