/**
 * What an API key and the rate-limit headers cost a cached read (`npm run bench -- api-keys`): two built
 * shops on one database of 1,000 products (`npm run serve`, production settings), one counting the API's
 * requests (every answer with its RateLimit headers) and one with API_KEY_RATE_PER_MINUTE=off (no count,
 * no headers). For each read, autocannon with 32 connections round by round on a bare node:http server
 * answering the same bytes (the floor), on the shop without limits, and on the counting shop anonymously
 * and with a `catalogue:read` key; each round starts with another of them, and the shops are started
 * afresh a few times (BENCH_GENERATIONS) with the rounds shared among their starts. The goal (issue 49):
 * the key's check and the headers cost at most 5 % of the read's rate, keyed against no limits.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.js';
import { CONNECTIONS, GENERATIONS, ROUNDS, WARMUP_S, root, load, median, pinLoadGenerator, seedBase, seedProducts, serveCommand, spawnFloor, spawnServer, type FloorBody, type Load, type Served } from './shop-kit.js';

const PRODUCTS = 1000;
const ALBUM_ID = 101;
const CARD_ID = 100;
/** The keyed read's rate over the rate without limits, at least. */
const GOAL = 0.95;

const PRODUCT_QUERY = `query Product($id: Int!) { product(id: $id) { id name price mainImagePath eGreetingCard { fontName coverImage { id filePath } } } }`;
const graphqlGet = (query: string, variables: Record<string, unknown>) => `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;

const READS: { name: string; path: string; headers: Record<string, string> }[] = [
  { name: 'GET /api/products/{id} (album)', path: `/api/products/${ALBUM_ID}`, headers: {} },
  { name: 'GraphQL product(id) of a card (GET)', path: graphqlGet(PRODUCT_QUERY, { id: CARD_ID }), headers: { 'apollo-require-preflight': 'true' } },
];

type Way = 'floor' | 'no limits' | 'counted, anonymous' | 'counted, with a key';
const WAYS: Way[] = ['floor', 'no limits', 'counted, anonymous', 'counted, with a key'];

export interface ApiKeyCostRow {
  read: string;
  way: Way;
  rps: number;
  ratio: number;
  p95: number;
}

export async function runApiKeysBench(): Promise<ApiKeyCostRow[]> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-api-keys-bench-'));
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'));
  const servers: Served[] = [];
  try {
    await cluster.createDatabase('api_keys');
    const { env: serveEnv, args } = serveCommand();
    const env = {
      ...serveEnv,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: cluster.url('api_keys'),
      DATA_DIR: path.join(dir, 'data'),
      ADMIN_PASSWORD: 'bench-admin-password',
      SEED_DEMO: '0',
      PAYMENT_PROVIDER: 'test',
    };
    // The first start migrates the empty database.
    await (await spawnServer(args, { ...env, API_KEY_RATE_PER_MINUTE: 'off' }, '/readyz')).stop();
    const db = new pg.Client({ connectionString: cluster.url('api_keys') });
    await db.connect();
    try {
      await seedProducts(db, PRODUCTS, await seedBase(db));
    } finally {
      await db.end();
    }
    // The two shops are started afresh each generation (in turn first): one process can run a few per
    // cent slower than another on the very same work, which must not pass for the cost of the count.
    let open!: Served;
    let counted!: Served;
    const startShops = async (generation: number) => {
      const spawnOpen = () => spawnServer(args, { ...env, API_KEY_RATE_PER_MINUTE: 'off' }, '/readyz');
      // The load comes from one address, far past a minute's allowance: counted, with its headers, never refused.
      const spawnCounted = () => spawnServer(args, { ...env, API_KEY_RATE_PER_MINUTE: '1000000000' }, '/readyz');
      if (generation % 2) [counted, open] = [await spawnCounted(), await spawnOpen()];
      else [open, counted] = [await spawnOpen(), await spawnCounted()];
      servers.push(open, counted);
    };
    const stopShops = async () => {
      for (const shop of [open, counted]) {
        if (shop.stderr()) console.log(`  a shop logged:\n${shop.stderr().trimEnd()}`);
        await shop.stop();
        servers.splice(servers.indexOf(shop), 1);
      }
    };
    await startShops(0);

    const token = await (await fetch(`${counted.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-admin-password' }) })).text();
    const created = await fetch(`${counted.url}/api/admin/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ name: 'Bench', scopes: ['catalogue:read'] }) });
    if (created.status !== 201) throw new Error(`creating the key answered ${created.status}: ${await created.text()}`);
    const key = ((await created.json()) as { key: string }).key;

    // Every way answers the very same bytes; the counting shop's answers carry the headers.
    const bodies: Record<string, FloorBody> = {};
    for (const [i, read] of READS.entries()) {
      const answers = await Promise.all(
        [open.url, counted.url, counted.url].map(async (url, k) => {
          const res = await fetch(url + read.path, { headers: { ...read.headers, ...(k === 2 ? { authorization: `Bearer ${key}` } : {}) } });
          if (res.status !== 200) throw new Error(`${read.name} answered ${res.status}: ${await res.text()}`);
          if ((k === 0) !== (res.headers.get('ratelimit-limit') === null)) throw new Error(`${read.name}: RateLimit headers ${k === 0 ? 'on the shop without limits' : 'missing'}`);
          return res.text();
        }),
      );
      if (new Set(answers).size !== 1) throw new Error(`${read.name}: the shops answer different bytes`);
      bodies[`/${i}`] = { body: Buffer.from(answers[0]!), contentType: 'application/json; charset=utf-8' };
    }
    const floor = await spawnFloor(bodies);
    servers.push(floor);
    pinLoadGenerator();

    const rows: ApiKeyCostRow[] = [];
    const roundsPerGeneration = Math.max(1, Math.round(ROUNDS / GENERATIONS));
    console.log(`  ${PRODUCTS.toLocaleString()} products, ${CONNECTIONS} connections, ${roundsPerGeneration * GENERATIONS} rounds a read over ${GENERATIONS} starts of the shops`);
    const loads = READS.map(() => new Map<Way, Load[]>(WAYS.map((way) => [way, []])));
    for (let generation = 0; generation < GENERATIONS; generation++) {
      if (generation > 0) await startShops(generation);
      for (const [i, read] of READS.entries()) {
        const run = (way: Way, seconds?: number): Promise<Load> => {
          if (way === 'floor') return load(`${floor.url}/${i}`, { seconds });
          if (way === 'no limits') return load(open.url + read.path, { headers: read.headers, seconds });
          return load(counted.url + read.path, { headers: { ...read.headers, ...(way === 'counted, with a key' ? { authorization: `Bearer ${key}` } : {}) }, seconds });
        };
        for (const way of WAYS) await run(way, WARMUP_S);
        for (let round = 0; round < roundsPerGeneration; round++) {
          // Each round starts with another way: none is always measured right after another.
          for (let k = 0; k < WAYS.length; k++) {
            const way = WAYS[(round + generation + k) % WAYS.length]!;
            const measured = await run(way);
            if (measured.errors) throw new Error(`${read.name}, ${way}: ${measured.errors} failed requests`);
            loads[i]!.get(way)!.push(measured);
          }
        }
      }
      await stopShops();
    }
    for (const [i, read] of READS.entries()) {
      // Ratios within each round (to the floor, and to the shop without limits), then their medians.
      const per = (way: Way, to: Way) => median(loads[i]!.get(way)!.map((l, round) => l.rps / loads[i]!.get(to)![round]!.rps));
      for (const way of WAYS) {
        const mine = loads[i]!.get(way)!;
        rows.push({ read: read.name, way, rps: median(mine.map((l) => l.rps)), ratio: per(way, 'floor'), p95: median(mine.map((l) => l.p95)) });
      }
      const keyed = per('counted, with a key', 'no limits');
      const anonymous = per('counted, anonymous', 'no limits');
      console.log(
        `  ${read.name}: with a key ${(keyed * 100).toFixed(1)} % of the rate without limits (goal ≥ ${GOAL * 100} %: ${keyed >= GOAL ? 'met' : 'NOT MET'}), anonymous and counted ${(anonymous * 100).toFixed(1)} %, with a key against anonymous ${(per('counted, with a key', 'counted, anonymous') * 100).toFixed(1)} %`,
      );
    }
    console.log('\nAPI keys and rate-limit headers on cached reads: rate, ratio to the floor of the same round, p95');
    console.table(rows.map((r) => ({ read: r.read, way: r.way, 'req/s': Math.round(r.rps), 'to floor': +r.ratio.toFixed(3), 'p95 ms': +r.p95.toFixed(1) })));
    return rows;
  } finally {
    for (const server of servers) await server.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
