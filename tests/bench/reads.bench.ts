/**
 * Storefront reads benchmark (`npm run bench -- reads`): the built shop (`npm run serve`, production
 * settings) on catalogues of 1,000, 10,000 and 100,000 products (2 % of them e-greeting cards with
 * every media slot filled, the rest albums; 205 categories), seeded with set-based SQL, one shop per
 * size running side by side (started afresh a few times, in a rotated order). For each read,
 * autocannon with 32 connections on a bare node:http server answering the very same bytes (the
 * floor, measured in the same run) and on each shop, round by round; the figure, its ratio to the
 * floor, the goal, p95 and each shop's RSS after the load are printed side by side. The reads of
 * random ids are measured on a warm shop, after a cold pass over the catalogue that is reported too.
 */
import { CARD_EVERY, GENERATIONS, LEAF_PRODUCTS, ROUNDS, RSS_GOAL_MIB, SIZES, WARMUP_S, benchShops, cpuMs, load, median, pinLoadGenerator, rssMiB, spawnFloor, type FloorBody, type Load, type LoadOptions, type Served } from './shop-kit.js';

const ALBUM_ID = 101;
const CARD_ID = 100;
const P95_GOAL_MS = 15;
/** The random reads' p95 goal (the issue's goal for pages and random reads). */
const RANDOM_P95_GOAL_MS = 50;
/** The cold pass before the random reads asks for at most this many products (BENCH_PASS). */
const PASS_CAP = Number(process.env.BENCH_PASS ?? 20_000);

const PRODUCT_QUERY = `query Product($id: Int!) { product(id: $id) { id name description price tags mainImagePath associatedImages { id filePath friendlyName }
  eGreetingCard { messageLocation fontName song1 { id filePath } song2 { id filePath } song3 { id filePath } coverImage { id filePath } greetingImage { id filePath }
  backImage { id filePath } extraImage1 { id filePath } extraImage2 { id filePath } extraImage3 { id filePath } } } }`;
const PAGE_QUERY = `query Page($categoryId: Int!, $first: Int) { products(categoryId: $categoryId, first: $first) { edges { node { id name price mainImageThumbnailPath } } pageInfo { hasNextPage endCursor } } }`;

interface Read {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /**
   * A new request per call, for the product `id()` gives (random ids over the whole catalogue, or
   * every id in turn for the cold pass); `path` is then a sample answered by the floor.
   */
  random?: (id: () => number) => Pick<LoadOptions, 'path' | 'body' | 'method'>;
  method?: 'GET' | 'POST';
  /** The least ratio to the floor the issue asks for. */
  goal: number;
  /** Its p95 goal, if any. */
  p95Goal?: number;
  /** Reads whose figure must not depend on the catalogue's size (compared across sizes). */
  flat: boolean;
}

const graphqlGet = (query: string, variables: Record<string, unknown>) => `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;
/**
 * A random product of the catalogue, and every other time a random e-greeting card (one product in
 * CARD_EVERY is one), so that half the random reads carry card data, as a card shop's traffic does.
 */
const randomId = (size: number) => (Math.random() < 0.5 ? CARD_EVERY * (1 + Math.floor(Math.random() * Math.floor(size / CARD_EVERY))) : 1 + Math.floor(Math.random() * size));

/** REST's product read of random ids, and GraphQL's by GET and by POST with the least share of REST's figure each must reach. */
const RANDOM_REST = 'GET /api/products/{random id}';
const RANDOM_GRAPHQL = [
  { name: 'GraphQL product(random id) with card data (GET)', method: 'GET', goal: 0.8 },
  { name: 'GraphQL product(random id) with card data (POST)', method: 'POST', goal: 0.5 },
] as const;

/** BENCH_READS='random id' measures only the reads whose name holds it (here: REST's random product and GraphQL's by GET and by POST). */
const wantedRead = (read: Read) => !process.env.BENCH_READS || read.name.includes(process.env.BENCH_READS);

function reads(leafId: number): Read[] {
  const gql = { 'apollo-require-preflight': 'true' };
  const json = { 'content-type': 'application/json' };
  return [
    { name: 'GET /api/products/{id} (album)', path: `/api/products/${ALBUM_ID}`, goal: 0.25, p95Goal: P95_GOAL_MS, flat: true },
    { name: 'GET /api/products/{id} (card, all slots)', path: `/api/products/${CARD_ID}`, goal: 0.2, p95Goal: P95_GOAL_MS, flat: true },
    { name: RANDOM_REST, path: `/api/products/${ALBUM_ID}`, random: (id) => ({ path: () => `/api/products/${id()}` }), goal: 0.25, p95Goal: RANDOM_P95_GOAL_MS, flat: false },
    { name: 'GraphQL product(id) with card data (GET)', path: graphqlGet(PRODUCT_QUERY, { id: CARD_ID }), headers: gql, goal: 0.15, flat: true },
    { name: RANDOM_GRAPHQL[0].name, path: graphqlGet(PRODUCT_QUERY, { id: ALBUM_ID }), headers: gql, random: (id) => ({ path: () => graphqlGet(PRODUCT_QUERY, { id: id() }) }), goal: 0.15, p95Goal: RANDOM_P95_GOAL_MS, flat: false },
    { name: RANDOM_GRAPHQL[1].name, path: '/graphql', method: 'POST', headers: json, random: (id) => ({ method: 'POST', path: () => '/graphql', body: () => JSON.stringify({ query: PRODUCT_QUERY, variables: { id: id() } }) }), goal: 0.05, p95Goal: RANDOM_P95_GOAL_MS, flat: false },
    { name: 'GraphQL products(categoryId, first: 20) (GET)', path: graphqlGet(PAGE_QUERY, { categoryId: leafId, first: 20 }), headers: gql, goal: 0.15, flat: true },
    { name: `GET /api/products/category/{leaf} (${LEAF_PRODUCTS} products)`, path: `/api/products/category/${leafId}`, goal: 0.15, flat: true },
    { name: 'GET /api/categories/all (205 categories)', path: '/api/categories/all', goal: 0.3, flat: true },
    { name: 'GET /api/settings', path: '/api/settings', goal: 0, flat: false },
  ];
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
  /** The shop's CPU time a request (µs, median of the rounds). */
  cpuUs: number;
}

/**
 * One shop per catalogue size, each on its own database, all running at once: every read is
 * measured round by round on the floor and then on each shop in turn (in an order that changes
 * from round to round), so the machine's drift during the run hits every size alike and the
 * sizes are compared within the same minute rather than minutes apart.
 */
export async function runReadsBench(): Promise<ReadsRow[]> {
  const shops = await benchShops('reads');
  const rows: ReadsRow[] = [];
  let floor: Served | null = null;
  try {
    await shops.start(0);
    const list = reads(shops.catalogue.leafId).filter(wantedRead);
    const bodies: Record<string, FloorBody> = {};
    const answer = async (url: string, read: Read) => {
      const res = await fetch(url, { method: read.method ?? 'GET', headers: read.headers, body: read.method === 'POST' ? JSON.stringify({ query: PRODUCT_QUERY, variables: { id: ALBUM_ID } }) : undefined });
      const text = await res.text();
      if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${read.name} answered ${res.status}: ${text.slice(0, 300)}`);
      return text;
    };
    for (const [i, read] of list.entries()) {
      for (const { size, app } of shops.running) {
        const text = await answer(app.url + read.path, read);
        // Every size must answer the very same bytes, or the sizes would not be compared alike.
        const first = (bodies[`/${i}`] ??= { body: Buffer.from(text), contentType: 'application/json; charset=utf-8' });
        if (!first.body.equals(Buffer.from(text))) throw new Error(`${read.name}: ${size} products answer ${text.length} bytes, the first size ${first.body.length}`);
      }
    }
    floor = await spawnFloor(bodies);
    pinLoadGenerator();

    // Per read: the floor's loads and each size's, round by round, with the floor's load of the same round.
    const bares = list.map((): Load[] => []);
    const measured = list.map(() => new Map<number, { load: Load; bare: Load; cpuUs: number }[]>(SIZES.map((size) => [size, []])));
    const rssAfter = new Map<number, number>(SIZES.map((size) => [size, 0]));
    const roundsPerGeneration = Math.max(1, Math.round(ROUNDS / GENERATIONS));
    const shopLoad = (url: string, read: Read, size: number, seconds?: number) => load(url + (read.random ? '' : read.path), { headers: read.headers, seconds, ...(read.random?.(() => randomId(size)) ?? {}) });
    const passes: { read: string; size: number; reads: number; rate: number; p95: number; cpu: number }[] = [];
    for (let generation = 0; generation < GENERATIONS; generation++) {
      if (generation > 0) await shops.start(generation);
      for (const [i, read] of list.entries()) {
        // Random ids over the whole catalogue are measured on a warm shop, as a shop that has been
        // open a while is: first a cold pass asks for every product once, in order (as a crawler or
        // a newsletter's first readers would), and that pass is a figure of its own (the miss path).
        // GraphQL keeps one answer for a query and its variables whether it came by GET or POST, so
        // the POST pass finds what the GET pass left: only the first GraphQL pass is cold.
        if (read.random) {
          for (const { size, app } of shops.running) {
            const reads = Math.min(size, PASS_CAP);
            let next = 0;
            const started = performance.now();
            const cpuBefore = cpuMs(app.child.pid!);
            const pass = await load(app.url, { headers: read.headers, amount: reads, ...read.random(() => 1 + (next++ % reads)) });
            if (pass.errors) throw new Error(`${read.name}: the cold pass on ${size} products had ${pass.errors} failed requests`);
            passes.push({ read: read.name, size, reads, rate: reads / ((performance.now() - started) / 1000), p95: pass.p95, cpu: (cpuMs(app.child.pid!) - cpuBefore) / reads });
            console.log(`  generation ${generation + 1}/${GENERATIONS}, ${read.name}, cold pass over ${reads.toLocaleString()} of ${size.toLocaleString()} products: ${Math.round(passes.at(-1)!.rate)} req/s, p95 ${pass.p95.toFixed(0)} ms, ${passes.at(-1)!.cpu.toFixed(2)} ms of server CPU a read`);
          }
        }
        await load(`${floor.url}/${i}`, { seconds: WARMUP_S });
        for (const { size, app } of shops.running) await shopLoad(app.url, read, size, WARMUP_S);
        for (let round = 0; round < roundsPerGeneration; round++) {
          const bare = await load(`${floor.url}/${i}`);
          bares[i]!.push(bare);
          // Each round starts with another size: none is always measured right after the floor.
          for (let k = 0; k < shops.running.length; k++) {
            const { size, app } = shops.running[(round + k) % shops.running.length]!;
            // The shop's CPU time a request: what the read costs the server, whatever else the machine runs.
            const cpuBefore = cpuMs(app.child.pid!);
            const shop = await shopLoad(app.url, read, size);
            measured[i]!.get(size)!.push({ load: shop, bare, cpuUs: ((cpuMs(app.child.pid!) - cpuBefore) * 1000) / Math.max(1, shop.requests) });
          }
        }
        const figures = shops.running.map(({ size, app }) => {
          const latest = measured[i]!.get(size)!.slice(-roundsPerGeneration);
          return `${size.toLocaleString()}: ${median(latest.map(({ load, bare }) => load.rps / bare.rps)).toFixed(3)} (RSS ${rssMiB(app.child.pid!).toFixed(0)} MiB)`;
        });
        console.log(`  generation ${generation + 1}/${GENERATIONS}, ${read.name}: ${figures.join(', ')}`);
      }
      for (const { size, app } of shops.running) {
        rssAfter.set(size, Math.max(rssAfter.get(size)!, rssMiB(app.child.pid!)));
        if (app.stderr()) console.log(`  the shop on ${size.toLocaleString()} products logged:\n${app.stderr().trimEnd()}`);
      }
      await shops.stopShops();
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
        const met = ratio >= read.goal && (!read.p95Goal || shop.p95 < read.p95Goal);
        rows.push({ size, read: read.name, rps: shop.rps, floor: bare.rps, ratio, goal: read.goal, p95: shop.p95, floorP95: bare.p95, met, cpuUs: median(loads.map(({ cpuUs }) => cpuUs)) });
        console.log(
          `    ${size.toLocaleString().padStart(7)} products ${Math.round(shop.rps).toString().padStart(6)} req/s  ratio ${ratio.toFixed(3)}  goal ${read.goal ? '≥ ' + read.goal : '-'}${read.p95Goal ? `, p95 < ${read.p95Goal} ms` : ''}  p95 ${shop.p95.toFixed(1)} ms  ${read.goal ? (met ? 'met' : 'NOT MET') : ''}`,
        );
      }
    }

    console.log('\nStorefront reads: figure, ratio to the floor measured beside it, goal');
    console.table(rows.map((r) => ({ products: r.size, read: r.read, 'req/s': Math.round(r.rps), floor: Math.round(r.floor), ratio: +r.ratio.toFixed(3), goal: r.goal || '-', 'p95 ms': +r.p95.toFixed(1), 'floor p95': +r.floorP95.toFixed(1), 'CPU µs': Math.round(r.cpuUs), met: r.goal ? (r.met ? 'yes' : 'NO') : '-' })));
    // The issue's comparison: GraphQL product(id) by GET and by POST against REST's product read, the same random ids, the same run.
    const against = (size: number, name: string) => rows.find((r) => r.size === size && r.read === name);
    for (const size of SIZES) {
      const rest = against(size, RANDOM_REST);
      if (!rest) continue;
      const parts = RANDOM_GRAPHQL.flatMap(({ name, method, goal }) => {
        const row = against(size, name);
        if (!row) return [];
        const ratio = row.rps / rest.rps;
        return [`${method} ${Math.round(row.rps)} req/s, ${ratio.toFixed(2)} of REST (goal ≥ ${goal}: ${ratio >= goal ? 'met' : 'NOT MET'}), ${row.ratio.toFixed(3)} of its floor, ${Math.round(row.cpuUs)} µs of server CPU a request (REST's / this: ${(rest.cpuUs / row.cpuUs).toFixed(2)})`];
      });
      console.log(`GraphQL product(random id) at ${size.toLocaleString()} products, REST ${Math.round(rest.rps)} req/s (${rest.ratio.toFixed(3)} of its floor, ${Math.round(rest.floor)} req/s; ${Math.round(rest.cpuUs)} µs of server CPU a request): ${parts.join('; ')}`);
    }
    // Flatness: each read's ratio at every size within 20 % of the others.
    console.log(`Within 20 % of each other at ${SIZES.map((size) => size.toLocaleString()).join(', ')} products (ratios to the floor of the same rounds):`);
    for (const read of [...new Set(rows.filter((r) => list.find((x) => x.name === r.read)?.flat).map((r) => r.read))]) {
      const ratios = rows.filter((r) => r.read === read).map((r) => r.ratio);
      const spread = Math.max(...ratios) / Math.min(...ratios) - 1;
      console.log(`  ${read.padEnd(50)} ${ratios.map((r) => r.toFixed(3)).join(' / ')}  spread ${(spread * 100).toFixed(0)} %  ${spread <= 0.2 ? 'met' : 'NOT MET'}`);
    }
    console.log(`\nCold passes (every product once, in order, on a fresh shop; up to ${PASS_CAP.toLocaleString()} products, BENCH_PASS):`);
    console.table(
      [...new Set(passes.map((p) => `${p.read}\u0000${p.size}`))].map((k) => {
        const [read, size] = k.split('\u0000') as [string, string];
        const mine = passes.filter((p) => p.read === read && p.size === Number(size));
        return { products: Number(size), read, reads: mine[0]!.reads, 'req/s (median)': Math.round(median(mine.map((p) => p.rate))), 'p95 ms': +median(mine.map((p) => p.p95)).toFixed(1), 'CPU ms a read': +median(mine.map((p) => p.cpu)).toFixed(2) };
      }),
    );
    console.log(`RSS after the load (the most of any generation): ${[...rssAfter].map(([size, mib]) => `${size.toLocaleString()}: ${mib.toFixed(0)} MiB ${mib < RSS_GOAL_MIB ? 'met' : 'NOT MET'}`).join(', ')} (goal < ${RSS_GOAL_MIB} MiB)`);
    return rows;
  } finally {
    await floor?.stop();
    await shops.close();
  }
}
