import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import { loadConfig } from '../../server/src/config.js';
import { FLUSH_MS, FRESH_MS } from '../../server/src/modules/limits/api-request-limits.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The API's request limits (contract section 19): every answer of REST /api and /graphql carries
 * RateLimit-Limit, -Remaining and -Reset, counted per API key, or per client address without one;
 * past the limit a 429 with Retry-After and the shop's error body. Counted in PostgreSQL, so two shops
 * on one database count together. The shop here trusts one proxy, so each case is its own client
 * address (X-Forwarded-For), and allows LIMIT requests a minute.
 */

const LIMIT = 5;
let app: TestApp;
let admin: string;
/** Setup calls each come from an address of their own, so that they spend nobody's count. */
let setupAddress = 0;
const setup = () => ({ 'x-forwarded-for': `198.51.100.${++setupAddress}` });

interface Counted {
  status: number;
  limit: number;
  remaining: number;
  reset: number;
  retryAfter: string | null;
  body: any;
}

async function counted(res: Response): Promise<Counted> {
  const number = (name: string) => Number(res.headers.get(name) ?? NaN);
  return { status: res.status, limit: number('ratelimit-limit'), remaining: number('ratelimit-remaining'), reset: number('ratelimit-reset'), retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

const rest = (shop: { url: string }, pathname: string, address: string, key?: string) =>
  fetch(shop.url + pathname, { headers: { 'x-forwarded-for': address, ...(key ? { authorization: `Bearer ${key}` } : {}) } }).then(counted);

const graphql = (shop: { url: string }, query: string, address: string, key?: string) =>
  fetch(`${shop.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify({ query }) }).then(counted);

const graphqlGet = (shop: { url: string }, query: string, address: string) =>
  fetch(`${shop.url}/graphql?query=${encodeURIComponent(query)}`, { headers: { 'x-forwarded-for': address, 'apollo-require-preflight': 'true' } }).then(counted);

const createKey = async (name: string) => {
  const res = await app.request('/api/admin/api-keys', { method: 'POST', token: admin, headers: setup(), json: { name, scopes: ['catalogue:read'] } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
};

const served = () => Object.values(app.cachedReads!.stats.served).reduce((sum, n) => sum + n, 0);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  app = await startTestApp({ trustProxy: 1, apiRequestLimit: { requests: LIMIT, windowSeconds: 60 } });
  admin = await (await app.request('/api/login', { method: 'POST', headers: setup(), json: { username: 'admin', password: 'admin-password-1' } })).text();
  // The category tree in the read cache, so that the reads below are answered ahead of Express.
  expect((await app.request('/api/categories/all', { headers: setup() })).status).toBe(200);
});

afterAll(async () => {
  await app?.stop();
});

describe('API request limits', () => {
  it('are read from API_KEY_RATE_PER_MINUTE, 600 a minute unless set', () => {
    expect(loadConfig({}).apiRequestLimit).toEqual({ requests: 600, windowSeconds: 60 });
    expect(loadConfig({ API_KEY_RATE_PER_MINUTE: '120' }).apiRequestLimit).toEqual({ requests: 120, windowSeconds: 60 });
    expect(() => loadConfig({ API_KEY_RATE_PER_MINUTE: 'lots' })).toThrow(/API_KEY_RATE_PER_MINUTE/);
    expect(() => loadConfig({ API_KEY_RATE_PER_MINUTE: '0' })).toThrow(/API_KEY_RATE_PER_MINUTE/);
    expect(loadConfig({ API_KEY_RATE_PER_MINUTE: 'off' }).apiRequestLimit).toBeNull();
  });

  it('count down on REST, cached reads ahead of Express included, and answer 429 with Retry-After past the limit', async () => {
    const address = '203.0.113.1';
    const before = served();
    const answers = [];
    for (let i = 0; i < LIMIT; i++) answers.push(await rest(app, i % 2 ? '/api/products/search?q=card' : '/api/categories/all', address));
    expect(answers.map(({ status, limit, remaining }) => ({ status, limit, remaining }))).toEqual([4, 3, 2, 1, 0].map((remaining) => ({ status: 200, limit: LIMIT, remaining })));
    for (const { reset } of answers) expect(reset).toBeGreaterThan(0), expect(reset).toBeLessThanOrEqual(60);
    // The tree's reads after the first were answered from the read cache, with their headers.
    expect(served() - before).toBe(2);

    for (const pathname of ['/api/categories/all', '/api/products/search?q=card', '/api/no-such-route']) {
      const refused = await rest(app, pathname, address);
      expect(refused).toMatchObject({ status: 429, limit: LIMIT, remaining: 0, body: { code: 'RATE_LIMITED', message: expect.stringContaining('Too many API requests') } });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Stored media are files, not API calls: not counted, not refused.
    expect((await fetch(`${app.url}/api/uploads/no-such-file.png`, { headers: { 'x-forwarded-for': address } })).status).toBe(404);
  });

  it('count down on GraphQL (POST and GET) and answer past the limit with a GraphQL error, 429 and Retry-After', async () => {
    const address = '203.0.113.2';
    const query = '{ categories { id name } }';
    const remaining = [];
    for (let i = 0; i < LIMIT; i++) {
      const answer = i % 2 ? await graphqlGet(app, query, address) : await graphql(app, query, address);
      expect(answer.status).toBe(200);
      expect(answer.body.data.categories).toEqual(expect.any(Array));
      remaining.push(answer.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const refused = await graphql(app, query, address);
    expect(refused).toMatchObject({ status: 429, limit: LIMIT, remaining: 0, body: { errors: [{ extensions: { code: 'RATE_LIMITED' } }] } });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body.errors[0].extensions.retryAfter).toBe(Number(refused.retryAfter));
  });

  it('count each key apart, and apart from its address; an unknown key counts against its address', async () => {
    const [first, second] = [await createKey('Mirror one'), await createKey('Mirror two')];
    const address = '203.0.113.3';
    const before = served();
    const firstKey = [];
    for (let i = 0; i < 3; i++) firstKey.push((await rest(app, '/api/categories/all', address, first)).remaining);
    expect(firstKey).toEqual([4, 3, 2]);
    // Once the key is known and its use noted, its reads come from the read cache, still counted.
    expect(served()).toBeGreaterThan(before);
    expect((await rest(app, '/api/categories/all', address, second)).remaining).toBe(4);
    expect((await graphql(app, '{ categories { id } }', address, second)).remaining).toBe(3);
    expect((await rest(app, '/api/categories/all', address)).remaining).toBe(4);
    expect((await rest(app, '/api/categories/all', address, first)).remaining).toBe(1);

    const guessed = await rest(app, '/api/categories/all', '203.0.113.4', `ask_${'A'.repeat(32)}`);
    expect(guessed).toMatchObject({ status: 401, limit: LIMIT, remaining: 4 });
    expect((await rest(app, '/api/categories/all', '203.0.113.4', `ask_${'B'.repeat(32)}`)).remaining).toBe(3);
    expect((await rest(app, '/api/categories/all', '203.0.113.4')).remaining).toBe(2);
  });

  it('spend a key to 429 while another key and the address go on', async () => {
    const [spent, other] = [await createKey('Busy sync'), await createKey('Quiet sync')];
    const address = '203.0.113.5';
    for (let i = 0; i < LIMIT; i++) expect((await rest(app, '/api/categories/all', address, spent)).status).toBe(200);
    expect(await rest(app, '/api/categories/all', address, spent)).toMatchObject({ status: 429, remaining: 0, body: { code: 'RATE_LIMITED' } });
    expect(await rest(app, '/api/categories/all', address, other)).toMatchObject({ status: 200, remaining: 4 });
    expect(await rest(app, '/api/categories/all', address)).toMatchObject({ status: 200, remaining: 4 });
  });
});

describe('API request limits while PostgreSQL does not answer', () => {
  it('still refuse a caller this process already counted past the limit (the store\'s insurance counts from nothing)', async () => {
    const address = '203.0.113.77';
    for (let i = LIMIT - 1; i >= 0; i--) expect((await rest(app, '/api/products/search?q=card', address)).remaining).toBe(i);
    expect((await rest(app, '/api/products/search?q=card', address)).status).toBe(429);
    // Every connection the pool is asked for now fails, as one would on a pool out of connections.
    const pool = (await app.orm.em.getConnection().getNativeClient()) as pg.Pool;
    const connect = pool.connect;
    let refusedConnections = 0;
    pool.connect = function (callback?: (error: Error) => void) {
      refusedConnections++;
      const error = new Error('timeout exceeded when trying to connect');
      if (!callback) return Promise.reject(error);
      process.nextTick(() => callback(error));
    } as typeof pool.connect;
    let answer: Counted;
    try {
      answer = await rest(app, '/api/products/search?q=card', address);
    } finally {
      pool.connect = connect;
    }
    expect(refusedConnections).toBeGreaterThan(0);
    expect(answer.status).toBe(429);
    expect(answer).toMatchObject({ limit: LIMIT, remaining: 0, body: { code: 'RATE_LIMITED' } });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
  });
});

describe('API request limits across shops', () => {
  let other: RunningApp | undefined;
  let otherDir: string | undefined;

  afterAll(async () => {
    await other?.stop();
    if (otherDir) fs.rmSync(otherDir, { recursive: true, force: true });
  });

  it('are one count for two shops on the same database', async () => {
    otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-limits-'));
    other = await startApp({ ...app.config, port: 0, dataDir: otherDir }, pino({ level: 'silent' }));
    const address = '203.0.113.6';
    // Each shop reads the shared count when its own is older than a second.
    const settle = () => pause(FRESH_MS + 200);
    expect((await rest(app, '/api/products/search?q=a', address)).remaining).toBe(4);
    expect((await rest(app, '/api/products/search?q=a', address)).remaining).toBe(3);
    await settle();
    expect((await rest(other, '/api/products/search?q=a', address)).remaining).toBe(2);
    await settle();
    expect((await rest(app, '/api/products/search?q=a', address)).remaining).toBe(1);
    await settle();
    expect((await graphql(other, '{ categories { id } }', address)).remaining).toBe(0);
    await settle();
    expect((await rest(app, '/api/products/search?q=a', address)).status).toBe(429);
    expect((await rest(other, '/api/products/search?q=a', address)).status).toBe(429);
  });
});

describe('API request windows', () => {
  let short: TestApp | undefined;

  afterAll(async () => {
    await short?.stop();
  });

  it('reset when the window ends: RateLimit-Reset and Retry-After say when, and the count starts again', async () => {
    short = await startTestApp({ trustProxy: 1, apiRequestLimit: { requests: 2, windowSeconds: 2 } });
    const address = '203.0.113.7';
    const first = await rest(short, '/api/categories/all', address);
    expect(first).toMatchObject({ status: 200, limit: 2, remaining: 1 });
    expect(first.reset).toBeGreaterThan(0);
    expect(first.reset).toBeLessThanOrEqual(2);
    expect((await rest(short, '/api/categories/all', address)).remaining).toBe(0);
    const refused = await rest(short, '/api/categories/all', address);
    expect(refused.status).toBe(429);
    const wait = Number(refused.retryAfter);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(2);
    await pause(wait * 1000 + 200);
    // A new window: the cached read and the read through Express count from the top again.
    const again = [await rest(short, '/api/categories/all', address), await rest(short, '/api/products/search?q=a', address)];
    expect(again.map(({ status, remaining }) => ({ status, remaining }))).toEqual([
      { status: 200, remaining: 1 },
      { status: 200, remaining: 0 },
    ]);
  });
});

describe('API request limits turned off (API_KEY_RATE_PER_MINUTE=off)', () => {
  let open: TestApp | undefined;

  afterAll(async () => {
    await open?.stop();
  });

  it('count nothing and send no RateLimit headers, on REST, GraphQL and cached reads alike', async () => {
    open = await startTestApp({ trustProxy: 1, apiRequestLimit: null });
    const address = '203.0.113.8';
    const before = open.cachedReads!.stats.served.tree;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await rest(open, '/api/categories/all', address), await rest(open, '/api/products/search?q=card', address), await graphql(open, '{ categories { id } }', address));
    // Twice from the read cache (the first read put the tree there), the rest through Express.
    expect(open.cachedReads!.stats.served.tree - before).toBe(2);
    expect(answers.map(({ status, limit, remaining, reset }) => ({ status, limit, remaining, reset }))).toEqual(answers.map(() => ({ status: 200, limit: NaN, remaining: NaN, reset: NaN })));
    expect(await open.sql('select key from rate_limit where key like $1', ['api-%'])).toEqual([]);
  });
});

describe('API request counting', () => {
  let busy: TestApp | undefined;

  afterAll(async () => {
    await busy?.stop();
  });

  it('costs cached reads no query: every read counted in this process at once, added to PostgreSQL in a write or a few', async () => {
    busy = await startTestApp({ trustProxy: 1, apiRequestLimit: { requests: 1000, windowSeconds: 60 } });
    const address = '203.0.113.9';
    // The first read goes through Express, which reads the count (and puts the tree in the read cache).
    expect((await rest(busy, '/api/categories/all', address)).remaining).toBe(999);
    // Every statement the shop sends takes a connection of its pool first (the limits' store shares the ORM's pool).
    const pool = (await busy.orm.em.getConnection().getNativeClient()) as pg.Pool;
    const connect = pool.connect;
    let connections = 0;
    pool.connect = function (this: pg.Pool, ...args: unknown[]) {
      connections++;
      return (connect as (...args: unknown[]) => unknown).apply(this, args);
    } as typeof pool.connect;
    try {
      const before = busy.cachedReads!.stats.served.tree;
      const answers = await Promise.all(Array.from({ length: 100 }, () => rest(busy!, '/api/categories/all', address)));
      expect(busy.cachedReads!.stats.served.tree - before).toBe(100);
      expect(answers.map(({ remaining }) => remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => 899 + i));
      await pause(FLUSH_MS * 3);
      expect(connections).toBeGreaterThan(0);
      expect(connections).toBeLessThanOrEqual(10);
    } finally {
      pool.connect = connect;
    }
    const [row] = await busy.sql<{ points: number }>('select points from rate_limit where key = $1', [`api-addr:${address}`]);
    expect(row!.points).toBe(101);
  });
});
