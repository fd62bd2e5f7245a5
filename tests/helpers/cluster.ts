import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { filesBelow, startAppProcess, type AppProcess } from './app-process.js';
import { startTestBucket, type TestBucket } from './s3.js';

/**
 * Several real processes of the shop (each its own DATA_DIR, as separate machines would have) on one
 * PostgreSQL database and one S3 bucket, started at the same moment on an empty database.
 */
export const ADMIN_PASSWORD = 'scale-out-admin-1';
/** Starting under tsx, one of them making the demo catalogue while the others wait: slow on a busy machine. */
export const START_TIMEOUT_MS = 240_000;

export interface Cluster {
  /** The processes that serve HTTP, in start order. */
  web: AppProcess[];
  /** Every process started, workers included. */
  all: AppProcess[];
  bucket: TestBucket;
  databaseUrl: string;
  env: Record<string, string>;
  sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** The HTTP process number `i`, round-robin: drive steps with at(0), at(1), ... */
  at(i: number): AppProcess;
  stop(): Promise<void>;
}

export async function startCluster(roles: string[], extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const databaseName = `scale_${crypto.randomBytes(5).toString('hex')}`;
  const adminUrl = inject('pgAdminUrl');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`); // empty: no template with migrations
  await admin.end();
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${databaseName}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const bucket = await startTestBucket();
  const env = {
    DATABASE_URL: databaseUrl,
    ...bucket.env,
    ADMIN_PASSWORD,
    SEED_DEMO: '1',
    DELIVERY_POLL_SECONDS: '1',
    // Production processes take no payment unless told which provider to use.
    PAYMENT_PROVIDER: 'test',
    ...extraEnv,
  };
  // All at the same moment, on the empty database.
  const settled = await Promise.allSettled(roles.map((role, i) => startAppProcess(`p${i + 1}-${role}`, { ...env, APP_ROLE: role }, START_TIMEOUT_MS)));
  const all = settled.filter((s): s is PromiseFulfilledResult<AppProcess> => s.status === 'fulfilled').map((s) => s.value);
  const cluster: Cluster = {
    web: all.filter((_, i) => roles[i] !== 'worker'),
    all,
    bucket,
    databaseUrl,
    env,
    sql: async (text, params) => (await pool.query(text, params as unknown[])).rows,
    at: (i) => cluster.web[i % cluster.web.length]!,
    async stop() {
      await Promise.all(cluster.all.map((p) => p.stop()));
      await pool.end();
      await bucket.stop();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      await dropper.end();
    },
  };
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await cluster.stop();
    throw failed.reason;
  }
  return cluster;
}

export async function login(p: AppProcess, username = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const res = await p.request('/api/login', { method: 'POST', json: { username, password } });
  expect(res.status, `login on ${p.name}`).toBe(200);
  return res.text();
}

export const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
export const keyOf = (filePath: string) => filePath.replace(/^uploads\//, '');

/** What a process may write to its own DATA_DIR when the media live in a bucket: e-mail only. */
export function nonMailFiles(p: AppProcess): string[] {
  return filesBelow(p.dataDir).filter((name) => !(name.startsWith(`outbox${path.sep}`) && name.endsWith('.eml')));
}
