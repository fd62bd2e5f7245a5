/**
 * `npm run migrate` applies pending migrations to the configured database, under the boot lock that
 * starting processes take (scripts/migrate.mjs runs this file from the sources or from the build).
 * `npm run migration:create [name]` diffs the entities against a throwaway embedded database that has
 * every existing migration applied, and writes the difference as a new migration in migrations/.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { withBootLock } from './boot-lock.js';
import { openDatabase } from './database.js';
import { initOrm, migrate } from './orm.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

const [command = 'up', name] = process.argv.slice(2);

if (command === 'up') {
  const db = await openDatabase(loadConfig());
  const orm = await initOrm(db.url);
  try {
    // Like every process starting on the database: one migrates at a time, the others wait and find it done.
    const applied = await withBootLock(db.url, () => migrate(orm), () => console.log('Another process is starting on (or migrating) this database; waiting for it...'));
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  } finally {
    await orm.close();
    await db.stop();
  }
} else if (command === 'create') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-migration-'));
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'));
  try {
    await pg.createDatabase('scratch');
    const orm = await initOrm(pg.url('scratch'));
    await migrate(orm);
    const result = await orm.migrator.create('migrations', false, false, name);
    await orm.close();
    console.log(result.fileName ? `Created migrations/${result.fileName}; add it to migrations/index.ts.` : 'No changes.');
  } finally {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
} else {
  console.error(`Unknown command "${command}". Use "up" or "create [name]".`);
  process.exitCode = 1;
}
