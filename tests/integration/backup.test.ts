import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, stopAllAppProcesses } from '../helpers/app-process.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { STAFF_PASSWORD, staffMember } from '../helpers/staff-fixtures.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/test-app.js';

const root = path.resolve(import.meta.dirname, '../..');
const tsxCli = path.join(root, 'node_modules/tsx/dist/cli.mjs');

/** `npm run backup|restore -- FILE` as a process of its own, with the shop's settings in `env`. */
function run(command: 'backup' | 'restore', file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const clean = { ...process.env };
    delete clean.DATABASE_URL;
    delete clean.S3_BUCKET;
    const child = spawn(process.execPath, [tsxCli, 'server/src/backup/backup-cli.ts', command, file], { cwd: root, env: { ...clean, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

let app: TestApp;
let shop: Shop;
let admin: string;
let work: string;
let archive: string;
const placed: { id: string; cardUuid: string }[] = [];

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 });
  admin = await app.login();
  shop = await seedShop(app, admin);
  await staffMember(app, admin);
  for (let i = 0; i < 3; i++) {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `buyer${i}@example.com` }));
    placed.push({ id: body.data.placeOrder.id, cardUuid: body.data.placeOrder.items[0].itemUrlUuid });
  }
  await app.services.deliveries.runDue();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-backup-test-'));
  archive = path.join(work, 'backups', 'shop.tar.gz');
});
afterAll(async () => {
  await stopAllAppProcesses();
  await app?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('npm run backup / npm run restore', () => {
  /** A browser the admin chose to keep signed in, before the backup (a restored shop does not know it). */
  let rememberedCookie = '';

  it('backs a shop up into one archive: the database and the media files, readable by its owner alone', async () => {
    const remembered = await app.request('/api/login', { method: 'POST', json: { username: ADMIN.username, password: ADMIN.password, remember: true } });
    rememberedCookie = /^session=([^;]+)/.exec(remembered.headers.getSetCookie().find((c) => c.startsWith('session='))!)![1]!;
    // A half-written archive left by an earlier run that was stopped, readable by anyone.
    fs.mkdirSync(path.dirname(archive), { recursive: true });
    fs.writeFileSync(`${archive}.partial`, 'left over', { mode: 0o644 });
    const result = await run('backup', archive, { DATABASE_URL: app.config.databaseUrl!, DATA_DIR: app.dataDir });
    expect(result.output).toMatch(/Backed up \d+ rows in \d+ tables and \d+ media files/);
    expect(result.code).toBe(0);
    expect(fs.statSync(archive).size).toBeGreaterThan(1000);
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);
    // It holds the password hashes, the links' secrets and every shopper's data: like a password.
    expect((fs.statSync(archive).mode & 0o777).toString(8)).toBe('600');
  });

  it('restores into a fresh DATA_DIR (embedded PostgreSQL); the shop starts with its orders, card pages, files and accounts', { timeout: 300_000 }, async () => {
    const fresh = path.join(work, 'restored');
    const result = await run('restore', archive, { DATA_DIR: fresh });
    expect(result.output).toMatch(/Restored \d+ rows/);
    expect(result.code).toBe(0);

    const restored = await startAppProcess('restored', { DATA_DIR: fresh, SEED_DEMO: '0', PAYMENT_PROVIDER: 'test' });
    try {
      // The admin signs in with the old password (no new admin was made), and so does the staff member.
      const login = await restored.request('/api/login', { method: 'POST', json: { username: ADMIN.username, password: ADMIN.password } });
      expect(login.status).toBe(200);
      const token = await login.text();
      expect(restored.output()).not.toContain('Admin account created');
      // Sessions start afresh: a browser kept signed in before the backup is not signed in by the restored shop.
      const resumed = await restored.request('/api/session', { method: 'POST', headers: { 'x-requested-with': 'fetch', cookie: `session=${rememberedCookie}` } });
      expect(resumed.status).toBe(401);
      const [staffName] = (await app.sql<{ username: string }>(`select username from app_user where role = 'staff'`)).map((r) => r.username);
      expect((await restored.request('/api/login', { method: 'POST', json: { username: staffName, password: STAFF_PASSWORD } })).status).toBe(200);

      // Every order, with its items, as before.
      const before = await (await app.request('/api/admin/orders', { token: admin })).json();
      const after = await (await restored.request('/api/admin/orders', { token })).json();
      expect(after).toEqual(before);
      expect(after.map((o: { id: string }) => o.id).sort()).toEqual(placed.map((p) => p.id).sort());

      // The card pages and the files they show.
      for (const { cardUuid } of placed) {
        const page = await restored.request(`/ecards/${cardUuid}.html`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('Balloon Birthday');
      }
      for (const file of [shop.files.cover, ...shop.files.songs]) {
        const original = Buffer.from(await (await app.request(`/api/${file}`)).arrayBuffer());
        const copy = await restored.request(`/api/${file}`);
        expect(copy.status).toBe(200);
        expect(crypto.createHash('sha256').update(Buffer.from(await copy.arrayBuffer())).digest('hex')).toBe(crypto.createHash('sha256').update(original).digest('hex'));
      }
      // The catalogue and the audit log came along; new rows get fresh ids (the sequences were restored).
      expect((await (await restored.request(`/api/products/${shop.cardId}`)).json()).product.name).toBe('Balloon Birthday');
      const audit = await (await restored.request('/api/admin/audit', { token })).json();
      expect(audit.total).toBe(Number((await app.sql<{ n: string }>('select count(*) as n from audit_entry'))[0]!.n));
      const category = await restored.request('/api/categories', { method: 'POST', token, json: { name: 'After the restore', parent_id: null } });
      expect(category.status).toBe(201);
      const maxBefore = Number((await app.sql<{ max: number }>('select max(id) as max from category'))[0]!.max);
      expect((await category.json()).id).toBeGreaterThan(maxBefore);
    } finally {
      await restored.stop();
    }

    // A shop with data is never restored over.
    const again = await run('restore', archive, { DATA_DIR: fresh });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/holds files already|holds a shop with data/);
  });

  it('restores into an empty external database, and refuses one that holds a shop', async () => {
    const name = `restore_${crypto.randomBytes(4).toString('hex')}`;
    await app.adminSql(`create database "${name}"`);
    const url = app.config.databaseUrl!.replace(/\/[^/]+$/, `/${name}`);
    try {
      const dataDir = path.join(work, 'external');
      const result = await run('restore', archive, { DATABASE_URL: url, DATA_DIR: dataDir });
      expect(result.code).toBe(0);
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const table of ['order', 'order_item', 'product', 'media_file', 'app_user', 'mail_job']) {
          const [mine, theirs] = await Promise.all([client.query(`select count(*)::int as n from "${table}"`), app.sql<{ n: number }>(`select count(*)::int as n from "${table}"`)]);
          expect([table, mine.rows[0].n]).toEqual([table, theirs[0]!.n]);
        }
        // The customers' totals and the generated search text came back too.
        expect((await client.query(`select count(*)::int as n from "order" where search_text like '%buyer1@example.com%'`)).rows[0].n).toBe(1);
      } finally {
        await client.end();
      }
      expect(fs.readdirSync(path.join(dataDir, 'uploads')).length).toBe(fs.readdirSync(path.join(app.dataDir, 'uploads')).length);

      const refused = await run('restore', archive, { DATABASE_URL: url, DATA_DIR: path.join(work, 'external-2') });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('holds a shop with data already');
      const live = await run('restore', archive, { DATABASE_URL: app.config.databaseUrl!, DATA_DIR: path.join(work, 'external-3') });
      expect(live.code).toBe(1);
    } finally {
      await app.adminSql(`drop database if exists "${name}" with (force)`);
    }
  });

  it('refuses a file that is not a backup, and a missing one', async () => {
    const bogus = path.join(work, 'bogus.tar.gz');
    fs.writeFileSync(bogus, 'not an archive');
    const result = await run('restore', bogus, { DATA_DIR: path.join(work, 'bogus-target') });
    expect(result.code).toBe(1);
    expect((await run('restore', path.join(work, 'nothing.tar.gz'), { DATA_DIR: path.join(work, 'x') })).output).toContain('No backup at');
  });
});

describe('restoring an archive that reaches outside itself', () => {
  /** The archive of the first test, unpacked, changed by `change`, packed again as it is (links kept as links). */
  async function crafted(name: string, change: (dir: string, manifest: { database: { tables: { name: string; file: string }[] } }) => void): Promise<string> {
    const dir = fs.mkdtempSync(path.join(work, `crafted-${name}-`));
    await tar.extract({ file: archive, cwd: dir });
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    change(dir, manifest);
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const file = path.join(work, `${name}.tar.gz`);
    await tar.create({ gzip: true, file, cwd: dir, portable: true }, ['manifest.json', 'database', 'media']);
    return file;
  }

  /** A file beside the archive that a restore must never read into the shop: rows of a table, ready to load. */
  function outside(): string {
    const file = path.join(work, 'outside.copy');
    fs.copyFileSync(path.join(work, 'unpacked', 'database', 'category.copy'), file);
    return file;
  }

  const refusals: [string, (dir: string, manifest: { database: { tables: { name: string; file: string }[] } }) => void, RegExp][] = [
    ['a table file path with ../ in it', (_dir, manifest) => void (manifest.database.tables.find((t) => t.name === 'category')!.file = '../../outside.copy'), /category.*outside the archive/],
    ['an absolute table file path', (_dir, manifest) => void (manifest.database.tables.find((t) => t.name === 'category')!.file = outside()), /category.*outside the archive/],
    // Copied into the uploads as it is, it would serve DATA_DIR/pg-password as a media file.
    ['a symbolic link among the media files', (dir) => fs.symlinkSync('../pg-password', path.join(dir, 'media', 'password.jpg')), /media\/password\.jpg.*symbolic link/],
    ['a symbolic link to a file outside', (dir) => fs.symlinkSync('/etc/passwd', path.join(dir, 'media', 'passwd.jpg')), /media\/passwd\.jpg.*symbolic link/],
    ['a symbolic link in place of a table file', (dir) => {
      fs.rmSync(path.join(dir, 'database', 'category.copy'));
      fs.symlinkSync('../manifest.json', path.join(dir, 'database', 'category.copy'));
    }, /database\/category\.copy.*symbolic link/],
    ['a hard link among the media files', (dir) => fs.linkSync(path.join(dir, 'manifest.json'), path.join(dir, 'media', 'manifest-again.json')), /media\/manifest-again\.json.*not a regular file/],
  ];

  beforeAll(async () => {
    fs.mkdirSync(path.join(work, 'unpacked'));
    await tar.extract({ file: archive, cwd: path.join(work, 'unpacked') });
  });

  it.each(refusals)('refuses %s, and restores nothing', async (name, change, message) => {
    const file = await crafted(name.replace(/\W+/g, '-'), change);
    const database = `crafted_${crypto.randomBytes(4).toString('hex')}`;
    await app.adminSql(`create database "${database}"`);
    const dataDir = fs.mkdtempSync(path.join(work, 'crafted-target-'));
    const pg = (await import('pg')).default;
    const url = app.config.databaseUrl!.replace(/\/[^/]+$/, `/${database}`);
    try {
      const { restore } = await import('../../server/src/backup/backup.js');
      const pino = (await import('pino')).default;
      await expect(restore({ ...app.config, databaseUrl: url, dataDir }, file, pino({ level: 'silent' }))).rejects.toThrow(message);
      // Not a table made, not a file copied.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query(`select table_name from information_schema.tables where table_schema = 'public'`)).rows).toEqual([]);
      } finally {
        await client.end();
      }
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      await app.adminSql(`drop database if exists "${database}" with (force)`);
    }
  });
});

describe('backups of a shop with its media in S3', () => {
  it('list the bucket’s keys instead of holding the files, and a restore says which listed keys the bucket lost', async () => {
    const { startTestBucket } = await import('../helpers/s3.js');
    const { backup, restore } = await import('../../server/src/backup/backup.js');
    const { DeleteObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const pino = (await import('pino')).default;
    const bucket = await startTestBucket();
    const s3app = await startTestApp({ s3: bucket.config });
    const logged: { msg: string; missing?: number }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const name = `s3restore_${crypto.randomBytes(4).toString('hex')}`;
    try {
      const token = await s3app.login();
      await seedShop(s3app, token);
      const keys = await bucket.keys();
      expect(keys.length).toBeGreaterThan(5);
      const file = path.join(work, 's3-shop.tar.gz');
      const manifest = await backup(s3app.config, file, log);
      // (Image sizes are still being added in the background: the list holds at least what was there.)
      expect(manifest.media).toMatchObject({ storage: 's3', bucket: bucket.config.bucket });
      expect((manifest.media as { keys: number }).keys).toBeGreaterThanOrEqual(keys.length);
      expect(fs.existsSync(path.join(s3app.dataDir, 'uploads'))).toBe(false);

      // One file goes missing from the bucket; the restore into an empty database says so.
      const client = new S3Client({ region: 'us-east-1', endpoint: bucket.config.endpoint, credentials: bucket.config.credentials, forcePathStyle: true });
      await client.send(new DeleteObjectCommand({ Bucket: bucket.config.bucket, Key: keys[0]! }));
      client.destroy();
      await app.adminSql(`create database "${name}"`);
      const url = app.config.databaseUrl!.replace(/\/[^/]+$/, `/${name}`);
      await restore({ ...s3app.config, databaseUrl: url, dataDir: path.join(work, 's3-target') }, file, log);
      expect(logged.find((entry) => entry.missing !== undefined)).toMatchObject({ missing: 1 });
      const pg = (await import('pg')).default;
      const restored = new pg.Client({ connectionString: url });
      await restored.connect();
      try {
        expect((await restored.query('select count(*)::int as n from media_file')).rows[0].n).toBe((await s3app.sql<{ n: number }>('select count(*)::int as n from media_file'))[0]!.n);
      } finally {
        await restored.end();
      }
      // A backup that holds its files is not restored into a shop on S3.
      await expect(restore({ ...s3app.config, databaseUrl: url, dataDir: path.join(work, 's3-target-2') }, archive, log)).rejects.toThrow(/holds its media files/);
    } finally {
      await s3app.stop();
      await app.adminSql(`drop database if exists "${name}" with (force)`);
      await bucket.stop();
    }
  });
});
