/**
 * Starts one real PostgreSQL for the whole run and prepares a template database with every migration
 * applied; each test file then copies the template into a database of its own (fast and isolated).
 * The integration and e2e projects both name this setup: they share the one cluster, which stops
 * when the last of them is done.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/src/db/embedded-postgres.js';
import { initOrm, migrate } from '../../server/src/db/orm.js';

export const TEMPLATE_DB = 'artsong_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string for the cluster's maintenance database ("postgres"). */
    pgAdminUrl: string;
    templateDb: string;
  }
}

let cluster: Promise<{ pg: EmbeddedDatabase; dir: string }> | null = null;
let users = 0;

async function startCluster() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-test-'));
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'), { settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } });
  try {
    await pg.createDatabase(TEMPLATE_DB);
    const orm = await initOrm(pg.url(TEMPLATE_DB));
    await migrate(orm);
    await orm.close();
  } catch (error) {
    await pg.stop();
    throw error;
  }
  return { pg, dir };
}

export default async function setup(project: TestProject) {
  users += 1;
  const { pg, dir } = await (cluster ??= startCluster());
  project.provide('pgAdminUrl', pg.url('postgres'));
  project.provide('templateDb', TEMPLATE_DB);
  return async () => {
    users -= 1;
    if (users > 0) return;
    cluster = null;
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
