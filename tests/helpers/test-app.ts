import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { loadConfig, type AppConfig } from '../../server/src/config.js';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import type { ServiceDeps } from '../../server/src/services.js';
import type { PasswordHashCost } from '../../server/src/modules/auth/passwords.js';

/**
 * Argon2id at its least cost: the suite hashes and checks thousands of throwaway passwords, each of
 * which costs about 0.3 s of CPU at the shop's own cost (tests/integration/auth.test.ts holds the shop
 * to PASSWORD_HASH_COST).
 */
export const TEST_PASSWORD_HASH_COST: PasswordHashCost = { memoryKib: 1024, iterations: 1, parallelism: 1 };

export const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };

export interface TestApp extends RunningApp {
  /** The configuration it runs with (a second process on the same database starts from it). */
  config: AppConfig;
  dataDir: string;
  databaseName: string;
  /** Runs SQL against this app's own database. */
  sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs SQL on the cluster's maintenance database (for what cannot run inside the app's own). */
  adminSql(text: string, params?: unknown[]): Promise<unknown[]>;
  /** A fetch against the app; `json` bodies are sent as JSON, `token` as a bearer. */
  request(pathname: string, init?: RequestOptions): Promise<Response>;
  /** POSTs a GraphQL operation and returns the status and the parsed body. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ status: number; body: { data?: T; errors?: GraphQLErrorBody[] }; headers: Headers }>;
  /** Logs in over REST and returns the token. */
  login(username?: string, password?: string): Promise<string>;
  /** Registers a customer and returns its token. */
  customer(name?: string): Promise<string>;
}

export interface GraphQLErrorBody {
  message: string;
  extensions?: { code?: string; field?: string };
}

export interface RequestOptions extends Omit<RequestInit, 'body'> {
  json?: unknown;
  body?: BodyInit;
  token?: string;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestAppOptions {
  /** The address the app reaches its database at, from the real one (e.g. through a proxy the test controls). */
  databaseUrl?: (url: string) => string;
  /** The logger the app writes to (default: silent, or TEST_LOG_LEVEL). */
  log?: pino.Logger;
}

/** Boots the whole app (GraphQL, REST, web client) on a fresh copy of the migrated template database. */
export async function startTestApp(overrides: Partial<AppConfig> = {}, deps: Omit<ServiceDeps, 'log'> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const databaseName = `test_${crypto.randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE "${databaseName}" TEMPLATE "${inject('templateDb')}"`));
  const databaseUrl = inject('pgAdminUrl').replace(/\/postgres$/, `/${databaseName}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-app-'));
  const config: AppConfig = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: options.databaseUrl?.(databaseUrl) ?? databaseUrl,
    logLevel: 'silent',
    jwtSecret: 'test-secret-' + databaseName,
    admin: { ...ADMIN },
    // Test files register and order far more from one address than a shopper would; the limit tests set their own.
    limits: { registerPerHour: 10_000, checkoutPer10Minutes: 10_000, discountCodesPerHour: 10_000, giftCardLookupsPerHour: 10_000 },
    // As many API requests as a test file makes from its one address (tests/integration/api-rate-limits.test.ts sets its own).
    apiRequestLimit: { requests: 1_000_000, windowSeconds: 60 },
    // Product pages are drawn on request, as the tests expect; tests/integration/background-pages.test.ts turns the drawing on.
    backgroundPages: false,
    ...overrides,
  };
  const running = await startApp(config, options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), { passwordHashCost: TEST_PASSWORD_HASH_COST, ...deps });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => {}); // an idle connection closed by a test that simulates an outage

  const request = (pathname: string, init: RequestOptions = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return fetch(running.url + pathname, { ...init, headers, body });
  };

  const app: TestApp = {
    ...running,
    config,
    dataDir,
    databaseName,
    async sql(text, params) {
      return (await pool.query(text, params as unknown[])).rows;
    },
    async adminSql(text, params) {
      return admin(async (client) => (await client.query(text, params as unknown[])).rows);
    },
    request,
    async graphql(query, variables, token) {
      const res = await request('/graphql', { method: 'POST', json: { query, variables }, token });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    async login(username = ADMIN.username, password = ADMIN.password) {
      const res = await request('/api/login', { method: 'POST', json: { username, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      return res.text();
    },
    async customer(name = `shopper${crypto.randomBytes(3).toString('hex')}`) {
      const res = await request('/api/register', {
        method: 'POST',
        json: { username: name, email: `${name}@example.com`, password: 'customer-pass-1' },
      });
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
      return app.login(name, 'customer-pass-1');
    },
    async stop() {
      await pool.end();
      await running.stop();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}
