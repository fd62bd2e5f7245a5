/**
 * What the storefront benchmarks (reads, pages) share: built shops started as `npm run serve` starts
 * them, one database per catalogue size seeded with set-based SQL, a bare node:http floor answering
 * the very same bytes, autocannon loads (a fixed address or random ids), and the processes' RSS.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.js';
import { freePort } from './bench-kit.js';

export const root = path.resolve(import.meta.dirname, '../..');
export const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
export const CONNECTIONS = 32;
/** Each read is measured in ROUNDS slices of DURATION_S seconds, the floor and then each shop, so that the machine's drift hits them alike. */
export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 2);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
/**
 * The shops are started afresh this many times, in a rotated order, and the rounds shared among
 * them: one process can run a few per cent slower than another on the very same work (where its
 * code and heap happened to land), and that must not pass for an effect of the catalogue's size.
 */
export const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 3);
export const WARMUP_S = 1;
/**
 * On a machine with two or more cores, the servers (floor and shops) run on the last core and
 * autocannon on the others, so the scheduler moving them about does not add to the noise
 * (BENCH_PIN=0 leaves placement to the scheduler).
 */
export const PIN = process.env.BENCH_PIN !== '0' && os.availableParallelism() >= 2 && fs.existsSync('/usr/bin/taskset');
export const SERVER_CPU = os.availableParallelism() - 1;
/** The leaf category the listing reads: the same 58 products at every catalogue size. */
export const LEAF_PRODUCTS = 58;
/** One product in this many is an e-greeting card. */
export const CARD_EVERY = 50;
export const RSS_GOAL_MIB = 250;

export interface Served {
  url: string;
  child: ChildProcess;
  /** What the process wrote to stderr so far (warnings and errors: the shops log at `warn`). */
  stderr(): string;
  stop(): Promise<void>;
}

export async function spawnServer(args: string[], env: Record<string, string>, readyPath: string): Promise<Served> {
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
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What the floor answers on one path: the bytes and, when they are compressed, their encoding. */
export interface FloorBody {
  body: Buffer;
  contentType: string;
  encoding?: string;
}

/**
 * A bare node:http server answering each path (the part before any `?`) with the bytes given for it,
 * with no more than the headers a server must send: the floor every figure is a ratio to.
 */
export async function spawnFloor(bodies: Record<string, FloorBody>): Promise<Served> {
  const file = path.join(os.tmpdir(), `artsong-floor-${process.pid}-${Date.now()}.json`);
  const table = Object.fromEntries(Object.entries({ '/ready': { body: Buffer.from('{}'), contentType: 'application/json' } as FloorBody, ...bodies }).map(([key, b]) => [key, { body: b.body.toString('base64'), type: b.contentType, encoding: b.encoding }]));
  fs.writeFileSync(file, JSON.stringify(table));
  const script = `const t = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'));
const m = new Map(Object.entries(t).map(([k, v]) => [k, { body: Buffer.from(v.body, 'base64'), headers: { 'content-type': v.type, ...(v.encoding ? { 'content-encoding': v.encoding } : {}) } }]));
const none = { body: Buffer.from('{}'), headers: { 'content-type': 'application/json' } };
require('node:http').createServer((q, s) => { const u = q.url, i = u.indexOf('?'); const a = m.get(i < 0 ? u : u.slice(0, i)) ?? none;
  s.writeHead(200, { ...a.headers, 'content-length': a.body.length }); s.end(a.body); }).listen(process.env.PORT, process.env.HOST);`;
  try {
    return await spawnServer(['-e', script], {}, '/ready');
  } finally {
    setTimeout(() => fs.rmSync(file, { force: true }), 5000).unref();
  }
}

export interface Load {
  rps: number;
  p50: number;
  p95: number;
  errors: number;
  /** Requests answered (2xx). */
  requests: number;
}

export interface LoadOptions {
  headers?: Record<string, string>;
  seconds?: number;
  /** Each request's path, when it changes from request to request (random ids); `url` then gives only the server. */
  path?: () => string;
  method?: 'GET' | 'POST';
  /** The body of every request (POST), or of each one when a function. */
  body?: string | (() => string);
  /** A fixed number of requests instead of a duration (a crawler's pass). */
  amount?: number;
  connections?: number;
}

export async function load(url: string, options: LoadOptions = {}): Promise<Load> {
  const { headers = {}, seconds = DURATION_S, path: pathOf, method = 'GET', body, amount, connections = CONNECTIONS } = options;
  const times: number[] = [];
  const dynamic = pathOf || typeof body === 'function';
  const requests = dynamic
    ? [
        {
          method,
          setupRequest(request: { path: string; body?: string }) {
            if (pathOf) request.path = pathOf();
            if (typeof body === 'function') request.body = body();
            return request;
          },
        },
      ]
    : undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, method, headers, ...(typeof body === 'string' ? { body } : {}), ...(amount ? { amount } : { duration: seconds }), ...(requests ? { requests } : {}) } as autocannon.Options,
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: times[Math.floor(times.length * 0.5)] ?? NaN,
    p95: times[Math.floor(times.length * 0.95)] ?? NaN,
    errors: result.non2xx + result.errors + result.timeouts,
    requests: result['2xx'],
  };
}

/** A GET whose body comes back as sent (compressed bytes stay compressed, unlike fetch's). */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/**
 * The CPU time a process has used so far, in milliseconds (user and system, from /proc): what a
 * piece of work costs the server, whatever else the machine is doing at the time.
 */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export interface Catalogue {
  leafId: number;
  otherLeaves: number[];
  images: number[];
  songs: number[];
}

/** The catalogue's categories and media in a fresh database (205 categories, 40 images, 10 songs); the leaf the listing reads. */
export async function seedBase(db: pg.Client): Promise<Catalogue> {
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
  // The blog's first page: ten published posts with a cover.
  await db.query(
    `insert into blog_post (title, slug, excerpt, body, html, status, published_at, cover_image_id)
     select 'Post ' || n, 'post-' || n, 'What is new at the shop, part ' || n || '.', 'Body ' || n, '<p>Body ' || n || '</p>', 'published', now() - n * interval '1 day', $1
     from generate_series(1, 12) as n`,
    [images[1]],
  );
  return { leafId: leafId!, otherLeaves, images, songs };
}

/** Adds products 1..size, their card data and images, with set-based SQL. */
export async function seedProducts(db: pg.Client, size: number, { leafId, otherLeaves, images, songs }: Catalogue): Promise<void> {
  await db.query(
    `insert into product (id, name, description, sku, price, category_id, product_type_id, main_image_id, tags, search_text)
     select n, case when n % $7 = 0 then 'Card ' else 'Album ' end || n,
            'A description of product ' || n || ': songs and pictures for every occasion, carefully chosen for the people you love.',
            'SKU-' || n, 4.99 + (n % 20), case when n <= $6 then $3 else ($4::int[])[1 + n % array_length($4::int[], 1)] end,
            case when n % $7 = 0 then 1 else 2 end, ($5::int[])[1 + n % array_length($5::int[], 1)], array['gift', 'tag' || (n % 10)],
            'product ' || n
     from generate_series($1::int, $2::int) as n`,
    [1, size, leafId, otherLeaves, images, LEAF_PRODUCTS, CARD_EVERY],
  );
  await db.query(
    `insert into e_greeting_card (product_id, message_location, font_name, song_1_id, song_2_id, song_3_id, cover_image_id, greeting_image_id, back_image_id, extra_image_1_id, extra_image_2_id, extra_image_3_id)
     select n, 'middle-center', 'Open Sans', ($4::int[])[1], ($4::int[])[2], ($4::int[])[3], ($3::int[])[1], ($3::int[])[2], ($3::int[])[3], ($3::int[])[4], ($3::int[])[5], ($3::int[])[6]
     from generate_series($1::int, $2::int) as n where n % $5 = 0`,
    [1, size, images, songs, CARD_EVERY],
  );
  await db.query(
    `insert into product_image (product_id, file_id, position)
     select n, ($3::int[])[1 + (n + k) % array_length($3::int[], 1)], k from generate_series($1::int, $2::int) as n cross join generate_series(0, 2) as k where n % $4 = 0`,
    [1, size, images, CARD_EVERY],
  );
  await db.query(`select setval(pg_get_serial_sequence('product', 'id'), (select max(id) from product))`);
  await db.query('analyze product; analyze e_greeting_card; analyze product_image; analyze blog_post');
}

export interface BenchShops {
  catalogue: Catalogue;
  /** The environment of the shop on each size. */
  envs: Map<number, Record<string, string>>;
  /** The arguments `npm run serve` runs node with, plus any BENCH_NODE_FLAGS (e.g. --cpu-prof). */
  serve: string[];
  /** The shops running now, in start order. */
  running: { size: number; app: Served }[];
  /** Starts one shop per size, the first of them sizes[first] (the order rotates from generation to generation). */
  start(first: number): Promise<void>;
  /** Stops the running shops. */
  stopShops(): Promise<void>;
  /** Stops everything, the database included, and removes the files. */
  close(): Promise<void>;
}

/**
 * `npm run serve` as package.json says it (`exec env NAME=${NAME:-value} node ARGS`): the variables
 * it sets (the value unless the environment has one) and node's arguments, with BENCH_NODE_FLAGS.
 */
export function serveCommand(overrides: Record<string, string> = {}): { env: Record<string, string>; args: string[] } {
  const script = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve!;
  // `${NAME:-default}` as the shell reads it: the variable if set (here or in this process), else the default.
  const expand = (word: string) => word.replace(/\$\{(\w+):-([^}]*)\}/g, (_, name: string, fallback: string) => overrides[name] ?? process.env[name] ?? fallback);
  const words = script.split(/\s+/);
  if (words[0] === 'exec' && words[1] === 'env') words.splice(0, 2);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [name, value] = words.shift()!.split('=') as [string, string];
    env[name] = expand(value);
  }
  if (words.shift() !== 'node') throw new Error(`npm run serve does not run node: ${script}`);
  const args = words.map(expand);
  // BENCH_NODE_FLAGS (e.g. --cpu-prof) go after the script's own flags (the last of a V8 flag wins), before the entry point.
  return { env, args: [...args.slice(0, -1), ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), ...args.slice(-1)] };
}

/**
 * A built shop per catalogue size, each on a database of its own in one embedded cluster, seeded with
 * `size` products (2 % of them e-greeting cards with every media slot filled, the rest albums), 205
 * categories, 50 media files and 12 blog posts.
 */
export async function benchShops(name: string, sizes: number[] = SIZES): Promise<BenchShops> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `artsong-${name}-bench-`));
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'), { onLog: process.env.BENCH_PG_LOG ? (line) => console.error('[pg]', line) : undefined });
  const running: BenchShops['running'] = [];
  const stopShops = async () => {
    for (const { app } of running.splice(0)) await app.stop();
  };
  const close = async () => {
    await stopShops();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { env: serveEnv, args: serve } = serveCommand();
    const envs = new Map<number, Record<string, string>>();
    let catalogue: Catalogue | null = null;
    for (const size of sizes) {
      const database = `${name}_${size}`;
      await cluster.createDatabase(database);
      const env = {
        ...serveEnv,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATABASE_URL: cluster.url(database),
        DATA_DIR: path.join(dir, `data-${size}`),
        ADMIN_PASSWORD: 'bench-admin-password',
        SEED_DEMO: '0',
        PAYMENT_PROVIDER: 'test',
        // The load comes from one address, far past a minute's allowance: counted, with its headers, never refused.
        API_KEY_RATE_PER_MINUTE: '1000000000',
      };
      envs.set(size, env);
      // The first start migrates the empty database.
      await (await spawnServer(serve, env, '/readyz')).stop();
      const db = new pg.Client({ connectionString: cluster.url(database) });
      await db.connect();
      try {
        const started = performance.now();
        catalogue = await seedBase(db);
        await seedProducts(db, size, catalogue);
        console.log(`  ${size.toLocaleString()} products (${Math.floor(size / CARD_EVERY).toLocaleString()} cards, 205 categories, 12 posts) seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        await db.end();
      }
    }
    return {
      catalogue: catalogue!,
      envs,
      serve,
      running,
      async start(first: number) {
        for (let k = 0; k < sizes.length; k++) {
          const size = sizes[(first + k) % sizes.length]!;
          running.push({ size, app: await spawnServer(serve, envs.get(size)!, '/readyz') });
        }
        console.log(`  shops started (${running.map(({ size, app }) => `${size.toLocaleString()} products: RSS ${rssMiB(app.child.pid!).toFixed(0)} MiB`).join(', ')})`);
      },
      stopShops,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Puts this process (autocannon) on the cores the servers do not use. */
export function pinLoadGenerator(): void {
  if (PIN) execFileSync('/usr/bin/taskset', ['-a', '-pc', `0-${SERVER_CPU - 1}`, String(process.pid)], { stdio: 'ignore' });
  console.log(PIN ? `  servers on CPU ${SERVER_CPU}, autocannon on CPU 0${SERVER_CPU > 1 ? `-${SERVER_CPU - 1}` : ''}` : '  placement left to the scheduler');
}
