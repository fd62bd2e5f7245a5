import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_SECRET_SETTING, resolveJwtSecret } from '../../server/src/modules/auth/token.service.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Where the token signing secret comes from, so that every process of one shop signs alike. */

let app: TestApp;
const dirs: string[] = [];
const dataDir = (secretFile?: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-secret-'));
  dirs.push(dir);
  if (secretFile !== undefined) fs.writeFileSync(path.join(dir, 'jwt-secret'), secretFile + '\n');
  return dir;
};
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the signing secret', () => {
  it('is JWT_SECRET when given, touching neither the database nor DATA_DIR', async () => {
    const dir = dataDir();
    expect(await resolveJwtSecret({ jwtSecret: 'from-the-environment', dataDir: dir, databaseUrl: 'postgres://x/y' }, app.orm.em.fork())).toBe('from-the-environment');
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(await app.sql('select 1 from setting where key = $1', [JWT_SECRET_SETTING])).toEqual([]);
  });

  it('with an external database, lives in the database: a secret already in DATA_DIR is adopted once, then every process reads the same one', async () => {
    const first = await resolveJwtSecret({ dataDir: dataDir('kept-from-before-the-upgrade'), databaseUrl: 'postgres://x/y' }, app.orm.em.fork());
    expect(first).toBe('kept-from-before-the-upgrade');
    const other = dataDir();
    expect(await resolveJwtSecret({ dataDir: other, databaseUrl: 'postgres://x/y' }, app.orm.em.fork())).toBe(first);
    expect(await resolveJwtSecret({ dataDir: dataDir('another-machine'), databaseUrl: 'postgres://x/y' }, app.orm.em.fork())).toBe(first);
    expect(fs.readdirSync(other)).toEqual([]);
    expect(await app.sql('select value from setting where key = $1', [JWT_SECRET_SETTING])).toEqual([{ value: first }]);
  });

  it('with the embedded database, is generated once into DATA_DIR/jwt-secret', async () => {
    const dir = dataDir();
    const made = await resolveJwtSecret({ dataDir: dir }, app.orm.em.fork());
    expect(made.length).toBeGreaterThan(40);
    expect(fs.readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim()).toBe(made);
    expect(await resolveJwtSecret({ dataDir: dir }, app.orm.em.fork())).toBe(made);
  });
});
