/**
 * Storefront reads benchmark (`npm run bench -- reads`): the built shop (`npm run serve`, production
 * settings) on catalogues of 1,000, 10,000 and 100,000 products (2 % of them e-greeting cards with
 * every media slot filled, the rest albums; 205 categories), seeded with set-based SQL, one shop per
 * size running side by side (started afresh a few times, in a rotated order). For each read,
 * autocannon with 32 connections on a bare node:http server answering the very same bytes (the
 * floor, measured in the same run) and on each shop, round by round; the figure, its ratio to the
 * floor, the goal, p95 and each shop's RSS after the load are printed side by side.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.js';

const root = path.resolve(import.meta.dirname, '../..');
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const CONNECTIONS = 32;
/** Each read is measured in ROUNDS slices of DURATION_S seconds (shared among the generations below), the floor and then each shop, so that the machine's drift hits them alike. */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
/**
 * The shops are started afresh this many times, in a rotated order, and the rounds shared among
 * them: one process can run a few per cent slower than another on the very same work (where its
 * code and heap happened to land), and that must not pass for an effect of the catalogue's size.
 */
const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 3);
const WARMUP_S = 1;
/**
 * On a machine with two or more cores, the servers (floor and shops) run on the last core and
 * autocannon on the others, so the scheduler moving them about does not add to the noise
 * (BENCH_PIN=0 leaves placement to the scheduler).
 */
const PIN = process.env.BENCH_PIN !== '0' && os.availableParallelism() >= 2 && fs.existsSync('/usr/bin/taskset');
const SERVER_CPU = os.availableParallelism() - 1;
/** The leaf category the listing reads: the same 58 products at every catalogue size. */
const LEAF_PRODUCTS = 58;
/** One product in this many is an e-greeting card. */
const CARD_EVERY = 50;
const ALBUM_ID = 101;
const CARD_ID = 100;
const RSS_GOAL_MIB = 250;
const P95_GOAL_MS = 15;

const PRODUCT_QUERY = `query Product($id: Int!) { product(id: $id) { id name description price tags mainImagePath associatedImages { id filePath friendlyName }
  eGreetingCard { messageLocation fontName song1 { id filePath } song2 { id filePath } song3 { id filePath } coverImage { id filePath } greetingImage { id filePath }
  backImage { id filePath } extraImage1 { id filePath } extraImage2 { id filePath } extraImage3 { id filePath } } } }`;
const PAGE_QUERY = `query Page($categoryId: Int!, $first: Int) { products(categoryId: $categoryId, first: $first) { edges { node { id name price mainImageThumbnailPath } } pageInfo { hasNextPage endCursor } } }`;

interface Read {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** The least ratio to the floor the issue asks for. */
  goal: number;
  /** Whether its p95 must stay under P95_GOAL_MS. */
  p95Goal?: boolean;
  /** Reads whose figure must not depend on the catalogue's size (compared across sizes). */
  flat: boolean;
}

const graphqlGet = (query: string, variables: Record<string, unknown>) => `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;

function reads(leafId: number): Read[] {
  const gql = { 'apollo-require-preflight': 'true' };
  return [
    { name: 'GET /api/products/{id} (album)', path: `/api/products/${ALBUM_ID}`, goal: 0.25, p95Goal: true, flat: true },
    { name: 'GET /api/products/{id} (card, all slots)', path: `/api/products/${CARD_ID}`, goal: 0.2, p95Goal: true, flat: true },
    { name: 'GraphQL product(id) with card data (GET)', path: graphqlGet(PRODUCT_QUERY, { id: CARD_ID }), headers: gql, goal: 0.15, flat: true },
    { name: 'GraphQL products(categoryId, first: 20) (GET)', path: graphqlGet(PAGE_QUERY, { categoryId: leafId, first: 20 }), headers: gql, goal: 0.15, flat: true },
    { name: `GET /api/products/category/{leaf} (${LEAF_PRODUCTS} products)`, path: `/api/products/category/${leafId}`, goal: 0.15, flat: true },
    { name: 'GET /api/categories/all (205 categories)', path: '/api/categories/all', goal: 0.3, flat: true },
    { name: 'GET /api/settings', path: '/api/settings', goal: 0, flat: false },
  ];
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Served {
  url: string;
  child: ChildProcess;
  /** What the process wrote to stderr so far (warnings and errors: the shops log at `warn`). */
  stderr(): string;
  stop(): Promise<void>;
}

async function spawnServer(args: string[], env: Record<string, string>, readyPath: string): Promise<Served> {
  const port = await freePort();
  const [command, argv] = PIN ? ['/usr/bin/taskset', ['-c', String(SERVER_CPU), process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(command, argv, { cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${stderr}`);
    if (performance.now() - started > 120_000) throw new Error('not ready within 120 s');
    if (await fetch(url + readyPath).then((res) => res.status === 200, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    stderr: () => stderr,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A bare node:http server answering each path with the bytes given for it (read from a file). */
async function spawnFloor(bodies: Record<string, string>): Promise<Served> {
  const file = path.join(os.tmpdir(), `artsong-floor-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(bodies));
  const script = `const b = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));
const m = new Map(Object.entries(b).map(([k, v]) => [k, Buffer.from(v)]));
require('node:http').createServer((q, s) => { const body = m.get(q.url) ?? Buffer.from('{}');
  s.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); s.end(body); }).listen(process.env.PORT, process.env.HOST);`;
  return spawnServer(['-e', script], {}, '/ready');
}

interface Load {
  rps: number;
  p95: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string> = {}, seconds = DURATION_S): Promise<Load> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers }, (error, res) => (error ? reject(error) : resolve(res)));
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  return { rps: result.requests.average, p95: times[Math.floor(times.length * 0.95)] ?? NaN, errors: result.non2xx + result.errors + result.timeouts };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Adds products `from`..`to` (ids), their card data and images, with set-based SQL. */
async function seedProducts(db: pg.Client, from: number, to: number, leafId: number, otherLeaves: number[], images: number[], songs: number[]): Promise<void> {
  await db.query(
    `insert into product (id, name, description, sku, price, category_id, product_type_id, main_image_id, tags, search_text)
     select n, case when n % $7 = 0 then 'Card ' else 'Album ' end || n,
            'A description of product ' || n || ': songs and pictures for every occasion, carefully chosen for the people you love.',
            'SKU-' || n, 4.99 + (n % 20), case when n <= $6 then $3 else ($4::int[])[1 + n % array_length($4::int[], 1)] end,
            case when n % $7 = 0 then 1 else 2 end, ($5::int[])[1 + n % array_length($5::int[], 1)], array['gift', 'tag' || (n % 10)],
            'product ' || n
     from generate_series($1::int, $2::int) as n`,
    [from, to, leafId, otherLeaves, images, LEAF_PRODUCTS, CARD_EVERY],
  );
  await db.query(
    `insert into e_greeting_card (product_id, message_location, font_name, song_1_id, song_2_id, song_3_id, cover_image_id, greeting_image_id, back_image_id, extra_image_1_id, extra_image_2_id, extra_image_3_id)
     select n, 'middle-center', 'Open Sans', ($4::int[])[1], ($4::int[])[2], ($4::int[])[3], ($3::int[])[1], ($3::int[])[2], ($3::int[])[3], ($3::int[])[4], ($3::int[])[5], ($3::int[])[6]
     from generate_series($1::int, $2::int) as n where n % $5 = 0`,
    [from, to, images, songs, CARD_EVERY],
  );
  await db.query(
    `insert into product_image (product_id, file_id, position)
     select n, ($3::int[])[1 + (n + k) % array_length($3::int[], 1)], k from generate_series($1::int, $2::int) as n cross join generate_series(0, 2) as k where n % $4 = 0`,
    [from, to, images, CARD_EVERY],
  );
  await db.query(`select setval(pg_get_serial_sequence('product', 'id'), (select max(id) from product))`);
  await db.query('analyze product; analyze e_greeting_card; analyze product_image');
}

export interface ReadsRow {
  size: number;
  read: string;
  rps: number;
  floor: number;
  ratio: number;
  goal: number;
  p95: number;
  floorP95: number;
  met: boolean;
}

/** The catalogue's categories and media in a fresh database (205 categories, 40 images, 10 songs); the leaf the listing reads. */
async function seedBase(db: pg.Client): Promise<{ leafId: number; otherLeaves: number[]; images: number[]; songs: number[] }> {
  const [{ id: folderId }] = (await db.query(`insert into media_folder (name) values ('Bench') returning id`)).rows;
  const images = (
    await db.query(
      `insert into media_file (file_name, file_path, friendly_name, folder_id, mime_type, size, width, height, thumbnail_path)
       select 'image-' || n || '.png', 'uploads/bench/image-' || n || '.png', 'Image ' || n, $1, 'image/png', 120000, 1200, 900, 'uploads/bench/image-' || n || '.thumb.webp'
       from generate_series(1, 40) as n returning id`,
      [folderId],
    )
  ).rows.map((r) => r.id as number);
  const songs = (
    await db.query(
      `insert into media_file (file_name, file_path, friendly_name, folder_id, mime_type, size)
       select 'song-' || n || '.mp3', 'uploads/bench/song-' || n || '.mp3', 'Song ' || n, $1, 'audio/mpeg', 3000000 from generate_series(1, 10) as n returning id`,
      [folderId],
    )
  ).rows.map((r) => r.id as number);
  await db.query(`insert into category (name) select 'Department ' || r from generate_series(1, 5) as r`);
  await db.query(
    `insert into category (name, parent_id, media_id) select 'Shelf ' || r || '-' || l, (select id from category where name = 'Department ' || r), $1
     from generate_series(1, 5) as r cross join generate_series(1, 40) as l`,
    [images[0]],
  );
  const leaves = (await db.query(`select id from category where parent_id is not null order by id`)).rows.map((r) => r.id as number);
  const [leafId, ...otherLeaves] = leaves;
  return { leafId: leafId!, otherLeaves, images, songs };
}

/**
 * One shop per catalogue size, each on its own database, all running at once: every read is
 * measured round by round on the floor and then on each shop in turn (in an order that changes
 * from round to round), so the machine's drift during the run hits every size alike and the
 * sizes are compared within the same minute rather than minutes apart.
 */
export async function runReadsBench(): Promise<ReadsRow[]> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-reads-bench-'));
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'), { onLog: process.env.BENCH_PG_LOG ? (line) => console.error('[pg]', line) : undefined });
  const rows: ReadsRow[] = [];
  const shops: { size: number; app: Served }[] = [];
  const stopShops = async () => {
    for (const { app } of shops.splice(0)) await app.stop();
  };
  let floor: Served | null = null;
  try {
    // As `npm run serve` starts it (its node flags included), plus any BENCH_NODE_FLAGS (e.g. --cpu-prof).
    const serveScript = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve!;
    const serve = [...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), ...serveScript.split(/\s+/).slice(1)];
    let leafId = 0;
    const envs = new Map<number, Record<string, string>>();
    for (const size of SIZES) {
      const database = `reads_${size}`;
      await cluster.createDatabase(database);
      const env = {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATABASE_URL: cluster.url(database),
        DATA_DIR: path.join(dir, `data-${size}`),
        ADMIN_PASSWORD: 'reads-bench-password',
        SEED_DEMO: '0',
      };
      envs.set(size, env);
      // The first start migrates the empty database.
      await (await spawnServer(serve, env, '/readyz')).stop();
      const db = new pg.Client({ connectionString: cluster.url(database) });
      await db.connect();
      try {
        const started = performance.now();
        const base = await seedBase(db);
        leafId = base.leafId;
        await seedProducts(db, 1, size, base.leafId, base.otherLeaves, base.images, base.songs);
        console.log(`  ${size.toLocaleString()} products (${Math.floor(size / CARD_EVERY).toLocaleString()} cards, 205 categories) seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        await db.end();
      }
    }
    /** Starts one shop per size, the first of them `first` (the order rotates from generation to generation). */
    const startShops = async (first: number) => {
      for (let k = 0; k < SIZES.length; k++) {
        const size = SIZES[(first + k) % SIZES.length]!;
        const app = await spawnServer(serve, envs.get(size)!, '/readyz');
        shops.push({ size, app });
      }
      console.log(`  shops started (${shops.map(({ size, app }) => `${size.toLocaleString()} products: RSS ${rssMiB(app.child.pid!).toFixed(0)} MiB`).join(', ')})`);
    };
    await startShops(0);

    const list = reads(leafId);
    const bodies: Record<string, string> = { '/ready': '{}' };
    for (const [i, read] of list.entries()) {
      for (const { size, app } of shops) {
        const res = await fetch(app.url + read.path, { headers: read.headers });
        const text = await res.text();
        if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${read.name} on ${size} products answered ${res.status}: ${text.slice(0, 300)}`);
        // Every size must answer the very same bytes, or the sizes would not be compared alike.
        const first = (bodies[`/${i}`] ??= text);
        if (first !== text) throw new Error(`${read.name}: ${size} products answer ${text.length} bytes, the first size ${first.length}`);
      }
    }
    floor = await spawnFloor(bodies);
    if (PIN) execFileSync('/usr/bin/taskset', ['-a', '-pc', `0-${SERVER_CPU - 1}`, String(process.pid)], { stdio: 'ignore' });
    console.log(PIN ? `  servers on CPU ${SERVER_CPU}, autocannon on CPU 0${SERVER_CPU > 1 ? `-${SERVER_CPU - 1}` : ''}` : '  placement left to the scheduler');

    // Per read: the floor's loads and each size's, round by round, with the floor's load of the same round.
    const bares = list.map((): Load[] => []);
    const measured = list.map(() => new Map<number, { load: Load; bare: Load }[]>(SIZES.map((size) => [size, []])));
    const rssAfter = new Map<number, number>(SIZES.map((size) => [size, 0]));
    const roundsPerGeneration = Math.max(1, Math.round(ROUNDS / GENERATIONS));
    for (let generation = 0; generation < GENERATIONS; generation++) {
      if (generation > 0) await startShops(generation);
      for (const [i, read] of list.entries()) {
        await load(`${floor.url}/${i}`, {}, WARMUP_S);
        for (const { app } of shops) await load(app.url + read.path, read.headers, WARMUP_S);
        for (let round = 0; round < roundsPerGeneration; round++) {
          const bare = await load(`${floor.url}/${i}`);
          bares[i]!.push(bare);
          // Each round starts with another size: none is always measured right after the floor.
          for (let k = 0; k < shops.length; k++) {
            const { size, app } = shops[(round + k) % shops.length]!;
            measured[i]!.get(size)!.push({ load: await load(app.url + read.path, read.headers), bare });
          }
        }
        const figures = shops.map(({ size, app }) => {
          const latest = measured[i]!.get(size)!.slice(-roundsPerGeneration);
          return `${size.toLocaleString()}: ${median(latest.map(({ load, bare }) => load.rps / bare.rps)).toFixed(3)} (RSS ${rssMiB(app.child.pid!).toFixed(0)} MiB)`;
        });
        console.log(`  generation ${generation + 1}/${GENERATIONS}, ${read.name}: ${figures.join(', ')}`);
      }
      for (const { size, app } of shops) {
        rssAfter.set(size, Math.max(rssAfter.get(size)!, rssMiB(app.child.pid!)));
        if (app.stderr()) console.log(`  the shop on ${size.toLocaleString()} products logged:\n${app.stderr().trimEnd()}`);
      }
      await stopShops();
    }

    for (const [i, read] of list.entries()) {
      const bare = { rps: median(bares[i]!.map((b) => b.rps)), p95: median(bares[i]!.map((b) => b.p95)) };
      console.log(`  ${read.name}: floor ${Math.round(bare.rps)} req/s, p95 ${bare.p95.toFixed(1)} ms`);
      for (const size of SIZES) {
        const loads = measured[i]!.get(size)!;
        const errors = loads.reduce((sum, { load }) => sum + load.errors, 0);
        if (errors) throw new Error(`${read.name} on ${size} products: ${errors} failed requests`);
        const shop = { rps: median(loads.map(({ load }) => load.rps)), p95: median(loads.map(({ load }) => load.p95)) };
        const ratio = median(loads.map(({ load, bare }) => load.rps / bare.rps));
        const met = ratio >= read.goal && (!read.p95Goal || shop.p95 < P95_GOAL_MS);
        rows.push({ size, read: read.name, rps: shop.rps, floor: bare.rps, ratio, goal: read.goal, p95: shop.p95, floorP95: bare.p95, met });
        console.log(
          `    ${size.toLocaleString().padStart(7)} products ${Math.round(shop.rps).toString().padStart(6)} req/s  ratio ${ratio.toFixed(3)}  goal ${read.goal ? '≥ ' + read.goal : '-'}${read.p95Goal ? `, p95 < ${P95_GOAL_MS} ms` : ''}  p95 ${shop.p95.toFixed(1)} ms  ${read.goal ? (met ? 'met' : 'NOT MET') : ''}`,
        );
      }
    }

    console.log('\nStorefront reads: figure, ratio to the floor measured beside it, goal');
    console.table(rows.map((r) => ({ products: r.size, read: r.read, 'req/s': Math.round(r.rps), floor: Math.round(r.floor), ratio: +r.ratio.toFixed(3), goal: r.goal || '-', 'p95 ms': +r.p95.toFixed(1), 'floor p95': +r.floorP95.toFixed(1), met: r.goal ? (r.met ? 'yes' : 'NO') : '-' })));
    // Flatness: each read's ratio at every size within 20 % of the others.
    console.log(`Within 20 % of each other at ${SIZES.map((size) => size.toLocaleString()).join(', ')} products (ratios to the floor of the same rounds):`);
    for (const read of [...new Set(rows.filter((r) => reads(0).find((x) => x.name === r.read)?.flat).map((r) => r.read))]) {
      const ratios = rows.filter((r) => r.read === read).map((r) => r.ratio);
      const spread = Math.max(...ratios) / Math.min(...ratios) - 1;
      console.log(`  ${read.padEnd(50)} ${ratios.map((r) => r.toFixed(3)).join(' / ')}  spread ${(spread * 100).toFixed(0)} %  ${spread <= 0.2 ? 'met' : 'NOT MET'}`);
    }
    console.log(`RSS after the load (the most of any generation): ${[...rssAfter].map(([size, mib]) => `${size.toLocaleString()}: ${mib.toFixed(0)} MiB ${mib < RSS_GOAL_MIB ? 'met' : 'NOT MET'}`).join(', ')} (goal < ${RSS_GOAL_MIB} MiB)`);
    return rows;
  } finally {
    await floor?.stop();
    await stopShops();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
