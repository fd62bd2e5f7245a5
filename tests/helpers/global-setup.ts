/**
 * Starts one real PostgreSQL for the whole run and prepares a template database with every migration
 * applied; each test file then copies the template into a database of its own (fast and isolated).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.js';
import { initOrm, migrate } from '../../server/src/db/orm.js';

export const TEMPLATE_DB = 'artsong_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string for the cluster's maintenance database ("postgres"). */
    pgAdminUrl: string;
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-test-'));
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'));
  try {
    await pg.createDatabase(TEMPLATE_DB);
    const orm = await initOrm(pg.url(TEMPLATE_DB));
    await migrate(orm);
    await orm.close();
  } catch (error) {
    await pg.stop();
    throw error;
  }
  project.provide('pgAdminUrl', pg.url('postgres'));
  project.provide('templateDb', TEMPLATE_DB);
  return async () => {
    await pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
