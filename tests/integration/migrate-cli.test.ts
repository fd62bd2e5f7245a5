import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { migrationsList } from '../../migrations/index.js';

/** `npm run migrate` (and the other tools of scripts/cli.mjs): under the boot lock, and runnable from a build alone (as in the Docker image). */
const root = path.resolve(import.meta.dirname, '../..');
const BOOT_LOCK = 'art-and-song-cards:boot';
const databases: string[] = [];
let work: string;

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new empty database (no migration applied) and its URL. */
async function emptyDatabase(): Promise<string> {
  const name = `migrate_${crypto.randomBytes(5).toString('hex')}`;
  await adminQuery(`create database "${name}"`);
  databases.push(name);
  return inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`);
}

async function applied(url: string): Promise<string[] | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [{ table }] = (await client.query<{ table: string | null }>(`select to_regclass('mikro_orm_migrations')::text as "table"`)).rows as [{ table: string | null }];
    if (!table) return null;
    return (await client.query<{ name: string }>('select name from mikro_orm_migrations order by id')).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/** Runs `scripts/cli.mjs migrate up` of `dir` against `url`; resolves with its exit code and output. */
function runMigrate(dir: string, url: string, onOutput?: (text: string) => void): Promise<{ code: number | null; output: string }> {
  return runCli(dir, ['migrate', 'up'], { DATABASE_URL: url }, onOutput);
}

/** Runs `scripts/cli.mjs ARGS` of `dir` with `env`; resolves with its exit code and output. */
function runCli(dir: string, args: string[], env: Record<string, string>, onOutput?: (text: string) => void): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'scripts', 'cli.mjs'), ...args], {
      cwd: dir,
      env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk;
      onOutput?.(output);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-migrate-'));
});
afterAll(async () => {
  for (const name of databases) await adminQuery(`drop database if exists "${name}" with (force)`).catch(() => undefined);
  fs.rmSync(work, { recursive: true, force: true });
});

describe('npm run migrate', () => {
  it('is the migrate script of package.json (backup and restore run the same way), and the Docker image carries what it runs', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.migrate).toBe('node scripts/cli.mjs migrate up');
    expect(pkg.scripts.backup).toBe('node scripts/cli.mjs backup backup');
    expect(pkg.scripts.restore).toBe('node scripts/cli.mjs backup restore');
    const runtimeStage = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8').split(/^FROM /m).at(-1)!;
    expect(runtimeStage).toMatch(/npm ci --omit=dev/);
    expect(runtimeStage).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtimeStage).toMatch(/^COPY --from=build \/app\/scripts\/cli\.mjs \.\/scripts\/cli\.mjs$/m);
  });

  it('waits for the boot lock while a shop is starting on the database, then migrates it once', async () => {
    const url = await emptyDatabase();
    // A process holding the boot lock (as a starting shop does while it migrates).
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('select pg_advisory_lock(hashtextextended($1, 0))', [BOOT_LOCK]);
    let waiting!: () => void;
    const sawWaiting = new Promise<void>((resolve) => (waiting = resolve));
    const run = runMigrate(root, url, (output) => {
      if (/waiting for it/.test(output)) waiting();
    });
    try {
      await Promise.race([sawWaiting, run.then(({ output }) => Promise.reject(new Error(`migrate did not wait:\n${output}`)))]);
      expect(await applied(url)).toBeNull();
    } finally {
      await holder.query('select pg_advisory_unlock(hashtextextended($1, 0))', [BOOT_LOCK]);
      await holder.end();
    }
    const { code, output } = await run;
    expect(code, output).toBe(0);
    expect(output).toMatch(/Applied: /);
    expect(await applied(url)).toEqual(migrationsList.map((m) => m.name));
    const again = await runMigrate(root, url);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('The database is up to date.');
  });

  it('runs the built migrator and backup where there are no sources (the image: dist/, production dependencies, no tsx)', async () => {
    // The image's layout: package.json, the build and scripts/cli.mjs, nothing else of the repository.
    const image = path.join(work, 'image');
    fs.mkdirSync(path.join(image, 'scripts'), { recursive: true });
    fs.copyFileSync(path.join(root, 'package.json'), path.join(image, 'package.json'));
    fs.copyFileSync(path.join(root, 'scripts', 'cli.mjs'), path.join(image, 'scripts', 'cli.mjs'));
    const tsc = spawnSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', path.join(root, 'tsconfig.build.json'), '--outDir', path.join(image, 'dist')], { cwd: root, encoding: 'utf8' });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    // Production dependencies only: everything the build imports, tsx and the other development tools left out.
    const dev = new Set(Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies));
    fs.mkdirSync(path.join(image, 'node_modules'));
    for (const name of fs.readdirSync(path.join(root, 'node_modules'))) {
      if (name.startsWith('.') || dev.has(name)) continue;
      if (name.startsWith('@')) {
        fs.mkdirSync(path.join(image, 'node_modules', name));
        for (const sub of fs.readdirSync(path.join(root, 'node_modules', name))) {
          if (!dev.has(`${name}/${sub}`)) fs.symlinkSync(path.join(root, 'node_modules', name, sub), path.join(image, 'node_modules', name, sub));
        }
      } else fs.symlinkSync(path.join(root, 'node_modules', name), path.join(image, 'node_modules', name));
    }
    expect(fs.existsSync(path.join(image, 'node_modules', 'tsx'))).toBe(false);
    const url = await emptyDatabase();
    const { code, output } = await runMigrate(image, url);
    expect(code, output).toBe(0);
    expect(output).toMatch(/Applied: /);
    expect(await applied(url)).toEqual(migrationsList.map((m) => m.name));

    // `npm run backup` in the image backs that database up with the built tool.
    const archive = path.join(work, 'image-backup.tar.gz');
    const dataDir = path.join(work, 'image-data');
    const backup = await runCli(image, ['backup', 'backup', archive], { DATABASE_URL: url, DATA_DIR: dataDir });
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/^Backed up \d+ rows in \d+ tables and 0 media files: /m);
    expect(fs.statSync(archive).size).toBeGreaterThan(0);
  });
});
