import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import { loadConfig } from '../../server/src/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/src/db/embedded-postgres.js';

/** Contract section 8: while PostgreSQL is unreachable every API call answers 503, and the process recovers by itself. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-outage-'));
let port = 0;
let pg: EmbeddedDatabase | null = null;
let app: RunningApp | null = null;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = server.address() as net.AddressInfo;
      server.close(() => resolve(p));
    });
  });
}

beforeAll(async () => {
  port = await freePort();
  pg = await startEmbeddedPostgres(path.join(dir, 'pg'), { port });
  await pg.createDatabase('shop');
  app = await startApp(
    { ...loadConfig({}), port: 0, host: '127.0.0.1', dataDir: dir, databaseUrl: pg.url('shop'), logLevel: 'silent', jwtSecret: 'outage-secret', seedDemo: false, deliveryPollSeconds: 3600, apiRequestLimit: { requests: 1_000_000, windowSeconds: 60 } },
    pino({ level: 'silent' }),
  );
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await pg?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const calls = () => [
  () => fetch(`${app!.url}/api/product_types`),
  () => fetch(`${app!.url}/api/categories/all`),
  () => fetch(`${app!.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'someone', password: 'something' }) }),
  () => fetch(`${app!.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ productTypes { id } }' }) }),
  () => fetch(`${app!.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ categories { id } settings { underConstructionMode } }' }) }),
];

describe('a database outage', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After under load while PostgreSQL is down, then recovers without a restart', async () => {
    const url = app!.url;
    expect((await fetch(`${url}/api/product_types`)).status).toBe(200);

    // Load keeps running while the database goes away.
    let running = true;
    const answers: { status: number; retryAfter: string | null; limit: string | null; body: any; graphql: boolean }[] = [];
    const load = Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        for (let i = 0; running; i += 1) {
          const call = calls()[(worker + i) % calls().length]!;
          const res = await call().catch(() => null);
          if (!res) continue;
          const body = await res.json().catch(() => null);
          answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), limit: res.headers.get('ratelimit-limit'), body, graphql: res.url.endsWith('/graphql') });
        }
      }),
    );
    await pg!.stop();
    pg = null;
    const downAt = answers.length;
    await expect.poll(() => answers.slice(downAt).filter((a) => a.status === 503).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(40);
    running = false;
    await load;

    const during = answers.slice(downAt);
    expect(during.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    // The API's request count goes on in memory meanwhile: its headers are on every answer, and it adds no failure of its own.
    expect(during.filter((a) => a.limit !== '1000000')).toEqual([]);
    for (const answer of during.filter((a) => a.status === 503)) {
      expect(answer.retryAfter).toMatch(/^\d+$/);
      if (answer.graphql) expect(answer.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      else expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    }
    expect((await fetch(`${url}/readyz`)).status).toBe(503);

    // The same process recovers as soon as the database is back.
    pg = await startEmbeddedPostgres(path.join(dir, 'pg'), { port });
    await expect.poll(async () => (await fetch(`${url}/api/product_types`)).status, { timeout: 30_000, interval: 50 }).toBe(200);
    const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ productTypes { id } }' }) });
    expect(gql.status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });
});
