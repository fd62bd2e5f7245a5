/**
 * Server-drawn pages benchmark (`npm run bench -- pages`): the built shop (`npm run serve`, production
 * settings) on catalogues of 1,000, 10,000 and 100,000 products (shop-kit.ts), one shop per size
 * side by side, started afresh a few times in a rotated order. For each page, with and without
 * `Accept-Encoding: br`: autocannon with 32 connections on a bare node:http server answering a body of
 * the same size (the floor, measured in the same round) and on each shop, round by round; product
 * pages at uniformly random ids over the whole catalogue. Each freshly started shop first gets a
 * crawler's pass over every product page once (cold: nothing cached; BENCH_CRAWL caps it), measured,
 * which also leaves the shop as a shop that has run for a while: what its cache holds of the
 * catalogue. Figures, ratios to the floor, goals, p95 and each shop's RSS after the load are printed
 * side by side.
 */
import { CONNECTIONS, GENERATIONS, ROUNDS, RSS_GOAL_MIB, SIZES, WARMUP_S, benchShops, cpuMs, load, median, pinLoadGenerator, rawGet, rssMiB, spawnFloor, type FloorBody, type Load, type Served } from './shop-kit.js';

/** An album: what most product pages are (the floor serves a body of its size). */
const SAMPLE_PRODUCT = 101;
const P95_GOAL_MS = 50;
/** The crawler's pass: every product page once (BENCH_CRAWL caps it, e.g. for a quick run on 100,000 products). */
const CRAWL_CAP = process.env.BENCH_CRAWL ? Number(process.env.BENCH_CRAWL) : Infinity;
const CRAWL_GOAL = 1000;

interface PageRead {
  name: string;
  /** The address (a sample one for random reads). */
  path: string;
  /** A new address per request (random ids over a catalogue of `size` products). */
  random?: (size: number) => () => string;
  br: boolean;
  goal: number;
}

function pageReads(): PageRead[] {
  const reads: PageRead[] = [];
  for (const br of [false, true]) {
    reads.push({ name: `/product/{random id}${br ? ' br' : ''}`, path: `/product/${SAMPLE_PRODUCT}`, random: (size) => () => `/product/${1 + Math.floor(Math.random() * size)}`, br, goal: 0.1 });
    reads.push({ name: `/shop${br ? ' br' : ''}`, path: '/shop', br, goal: 0.2 });
    reads.push({ name: `/${br ? ' br' : ''}`, path: '/', br, goal: 0.2 });
    reads.push({ name: `/blog${br ? ' br' : ''}`, path: '/blog', br, goal: 0 });
  }
  return reads;
}

const headersOf = (read: PageRead): Record<string, string> => ({ accept: 'text/html', ...(read.br ? { 'accept-encoding': 'br' } : {}) });

export interface PagesRow {
  size: number;
  read: string;
  rps: number;
  floor: number;
  ratio: number;
  goal: number;
  p95: number;
  met: boolean;
}

export async function runPagesBench(): Promise<PagesRow[]> {
  const shops = await benchShops('pages');
  const rows: PagesRow[] = [];
  let floor: Served | null = null;
  try {
    await shops.start(0);
    const list = pageReads();
    // The floor answers each read with bytes of the same size (the br form for a br read), read from the first shop.
    const bodies: Record<string, FloorBody> = {};
    for (const [i, read] of list.entries()) {
      const res = await rawGet(shops.running[0]!.app.url + read.path, headersOf(read));
      if (res.status !== 200) throw new Error(`${read.path} answered ${res.status}`);
      if (read.br !== (res.headers['content-encoding'] === 'br')) throw new Error(`${read.name}: content-encoding ${res.headers['content-encoding']}`);
      bodies[`/${i}`] = { body: res.body, contentType: 'text/html; charset=utf-8', encoding: read.br ? 'br' : undefined };
    }
    floor = await spawnFloor(bodies);
    pinLoadGenerator();

    const bares = list.map((): Load[] => []);
    const measured = list.map(() => new Map<number, { load: Load; bare: Load }[]>(SIZES.map((size) => [size, []])));
    const rssAfter = new Map<number, number>(SIZES.map((size) => [size, 0]));
    const roundsPerGeneration = Math.max(1, Math.round(ROUNDS / GENERATIONS));
    const shopLoad = (url: string, read: PageRead, size: number, seconds?: number) => load(url, { headers: headersOf(read), path: read.random?.(size) ?? (() => read.path), seconds });
    const crawls: { size: number; pages: number; rate: number; p95: number; rss: number; cpu: number }[] = [];
    for (let generation = 0; generation < GENERATIONS; generation++) {
      if (generation > 0) await shops.start(generation);
      // A crawler's cold pass on each fresh shop: every product page once, in order, as a sitemap lists them.
      for (const { size, app } of shops.running) {
        const pages = Math.min(size, CRAWL_CAP);
        let next = 0;
        const started = performance.now();
        const cpuBefore = cpuMs(app.child.pid!);
        const pass = await load(app.url, { headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' }, path: () => `/product/${1 + (next++ % pages)}`, amount: pages });
        if (pass.errors) throw new Error(`crawl on ${size} products: ${pass.errors} failed requests`);
        // The server's CPU time per page: what a cold page costs, however busy the machine is.
        const cpu = (cpuMs(app.child.pid!) - cpuBefore) / pages;
        crawls.push({ size, pages, rate: pages / ((performance.now() - started) / 1000), p95: pass.p95, rss: rssMiB(app.child.pid!), cpu });
        console.log(`  generation ${generation + 1}/${GENERATIONS}, crawl of ${pages.toLocaleString()} product pages on ${size.toLocaleString()} products: ${Math.round(crawls.at(-1)!.rate)} pages/s, p95 ${pass.p95.toFixed(0)} ms, ${cpu.toFixed(2)} ms of server CPU a page`);
      }
      for (const [i, read] of list.entries()) {
        await load(`${floor.url}/${i}`, { seconds: WARMUP_S });
        for (const { size, app } of shops.running) await shopLoad(app.url, read, size, WARMUP_S);
        for (let round = 0; round < roundsPerGeneration; round++) {
          const bare = await load(`${floor.url}/${i}`);
          bares[i]!.push(bare);
          for (let k = 0; k < shops.running.length; k++) {
            const { size, app } = shops.running[(round + k) % shops.running.length]!;
            measured[i]!.get(size)!.push({ load: await shopLoad(app.url, read, size), bare });
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
      console.log(`  ${read.name}: floor ${Math.round(bare.rps)} req/s, p95 ${bare.p95.toFixed(1)} ms, ${bodies[`/${i}`]!.body.length} bytes`);
      for (const size of SIZES) {
        const loads = measured[i]!.get(size)!;
        const errors = loads.reduce((sum, { load }) => sum + load.errors, 0);
        if (errors) throw new Error(`${read.name} on ${size} products: ${errors} failed requests`);
        const rps = median(loads.map(({ load }) => load.rps));
        const p95 = median(loads.map(({ load }) => load.p95));
        const ratio = median(loads.map(({ load, bare }) => load.rps / bare.rps));
        const met = ratio >= read.goal && p95 < P95_GOAL_MS;
        rows.push({ size, read: read.name, rps, floor: bare.rps, ratio, goal: read.goal, p95, met });
      }
    }

    console.log('\nServer-drawn pages: figure, ratio to a node:http floor serving a body of the same size in the same round, goal');
    console.table(rows.map((r) => ({ products: r.size, page: r.read, 'req/s': Math.round(r.rps), floor: Math.round(r.floor), ratio: +r.ratio.toFixed(3), goal: r.goal || '-', 'p95 ms': +r.p95.toFixed(1), met: r.goal ? (r.met ? 'yes' : 'NO') : '-' })));
    console.log(`A crawler's cold pass over the product pages (${CONNECTIONS} connections, goal ≥ ${CRAWL_GOAL} pages/s):`);
    console.table(
      SIZES.map((size) => {
        const mine = crawls.filter((c) => c.size === size);
        const rate = median(mine.map((c) => c.rate));
        return { products: size, pages: mine[0]!.pages, 'pages/s (median)': Math.round(rate), 'p95 ms': +median(mine.map((c) => c.p95)).toFixed(1), 'CPU ms a page': +median(mine.map((c) => c.cpu)).toFixed(2), 'RSS after MiB': Math.round(Math.max(...mine.map((c) => c.rss))), met: rate >= CRAWL_GOAL ? 'yes' : 'NO' };
      }),
    );
    console.log(`RSS after the load (the most of any generation): ${[...rssAfter].map(([size, mib]) => `${size.toLocaleString()}: ${mib.toFixed(0)} MiB ${mib < RSS_GOAL_MIB ? 'met' : 'NOT MET'}`).join(', ')} (goal < ${RSS_GOAL_MIB} MiB)`);
    return rows;
  } finally {
    await floor?.stop();
    await shops.close();
  }
}
