/**
 * A crawler's pass over the product pages (`npm run bench -- crawl`), on the built shop (`npm run
 * serve`) with 10,000 products (BENCH_CRAWL_SIZES, e.g. `10000,100000`), in one run:
 *
 * - drawn on request (BACKGROUND_PAGES=0): the first 2,000 product pages (BENCH_CRAWL_COLD) once, in
 *   order, on a freshly started shop: what a crawler cost before pages were drawn in the background;
 * - drawn in the background: a freshly started shop draws its catalogue (every product page in both
 *   themes) into PostgreSQL; how long that takes, and the p95 of ordinary reads (REST products and the
 *   shop's page, random ids, 4 connections) in a few windows of load while it runs, beside the same load once it has
 *   settled; then the crawler's pass, the process's RSS and the stored table's size
 *   (pg_total_relation_size);
 * - the floor: a node:http server answering a product page's br bytes, in the same run.
 */
import pg from 'pg';
import { CONNECTIONS, benchShops, cpuMs, load, pinLoadGenerator, rawGet, rssMiB, spawnFloor, spawnServer, type Load, type Served } from './shop-kit.js';

const SIZES = (process.env.BENCH_CRAWL_SIZES ?? '10000').split(',').map(Number);
const CRAWL_GOAL = 2000;
const P95_GOAL_MS = 50;
/** Windows of foreground load while the background drawing runs, each this long, with a pause between. */
const WINDOWS = 3;
const WINDOW_S = 3;
const PAUSE_MS = 2000;
/** The longest the background drawing may take to settle. */
const SETTLE_LIMIT_MS = Number(process.env.BENCH_SETTLE_MINUTES ?? 30) * 60_000;
const CRAWLER = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' };

interface CrawlRow {
  size: number;
  onRequest: Load & { cpu: number };
  background: Load & { cpu: number };
  floor: Load;
  settleS: number;
  pagesStored: number;
  drawingP95: number;
  settledP95: number;
  rssSettled: number;
  rss: number;
  tableMiB: number;
}

/** The pages of the pass drawn on request (BENCH_CRAWL_COLD; its rate is per page, and it is the slow one). */
const COLD_PAGES = Number(process.env.BENCH_CRAWL_COLD ?? 2000);

/** `pages` product pages once each, in order, as a sitemap lists them; with the server's CPU time a page. */
async function crawl(app: Served, pages: number): Promise<Load & { cpu: number }> {
  // The server renderer is loaded by the first page drawn (the shop's page, not one of the pass).
  await rawGet(`${app.url}/shop`, CRAWLER);
  let next = 0;
  const cpuBefore = cpuMs(app.child.pid!);
  const pass = await load(app.url, { headers: CRAWLER, path: () => `/product/${1 + (next++ % pages)}`, amount: pages });
  if (pass.errors) {
    // What failed, page by page (a status), or nothing (the load's own time limit on a busy machine).
    const statuses = new Map<number, number>();
    for (let id = 1; id <= Math.min(pages, 200); id++) {
      const { status } = await rawGet(`${app.url}/product/${id}`, CRAWLER);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    console.log(`  crawl of ${pages} pages: ${pass.errors} failed requests; the first 200 pages asked again one by one: ${JSON.stringify(Object.fromEntries(statuses))}`);
  }
  return { ...pass, cpu: (cpuMs(app.child.pid!) - cpuBefore) / pages };
}

/** The shoppers reading while the shop draws: a few at a time (a load that saturates the process measures its queue, not the drawing). */
const SHOPPERS = 4;

/** Ordinary reads: a product's JSON and the shop's page, at random ids. */
const ordinary = (app: Served, size: number, seconds: number) =>
  load(app.url, { headers: { accept: '*/*', 'accept-encoding': 'br' }, seconds, connections: SHOPPERS, path: () => (Math.random() < 0.5 ? `/api/products/${1 + Math.floor(Math.random() * size)}` : '/shop') });

async function stored(db: pg.Client): Promise<{ waiting: number; pages: number }> {
  const { rows } = await db.query('select (select count(*)::int from product_page_work) as waiting, (select count(*)::int from product_page) as pages');
  return rows[0];
}

export async function runCrawlBench(): Promise<CrawlRow[]> {
  const shops = await benchShops('crawl', SIZES);
  const rows: CrawlRow[] = [];
  let floor: Served | null = null;
  try {
    pinLoadGenerator();
    for (const size of SIZES) {
      const env = shops.envs.get(size)!;
      // Drawn on request: the shop as it was.
      const cold = await spawnServer(shops.serve, { ...env, BACKGROUND_PAGES: '0' }, '/readyz');
      const onRequest = await crawl(cold, Math.min(size, COLD_PAGES)).finally(() => cold.stop());
      console.log(`  ${size.toLocaleString()} products, ${Math.min(size, COLD_PAGES).toLocaleString()} pages drawn on request: ${Math.round(onRequest.rps)} pages/s, p95 ${onRequest.p95.toFixed(0)} ms, ${onRequest.cpu.toFixed(2)} ms of server CPU a page`);

      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      try {
        const started = performance.now();
        const app = await spawnServer(shops.serve, env, '/readyz');
        try {
          // Ordinary reads in windows while the drawing runs (a busy process draws a page only every 100 ms, so the load pauses between windows).
          const during: Load[] = [];
          for (let window = 0; window < WINDOWS && (await stored(db)).pages < 2 * size; window++) {
            during.push(await ordinary(app, size, WINDOW_S));
            await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
          }
          let state = await stored(db);
          while (state.waiting > 0 || state.pages < 2 * size) {
            if (performance.now() - started > SETTLE_LIMIT_MS) throw new Error(`the background drawing did not settle: ${JSON.stringify(state)}`);
            await new Promise((resolve) => setTimeout(resolve, 250));
            state = await stored(db);
          }
          const settleS = (performance.now() - started) / 1000;
          const [{ bytes }] = (await db.query(`select pg_total_relation_size('product_page') as bytes`)).rows;
          console.log(`  ${size.toLocaleString()} products: ${state.pages.toLocaleString()} pages drawn in the background in ${settleS.toFixed(1)} s after start, table ${(Number(bytes) / 2 ** 20).toFixed(0)} MiB`);
          const rssSettled = rssMiB(app.child.pid!);
          const settled = await ordinary(app, size, WINDOW_S);
          const background = await crawl(app, size);
          const sample = await rawGet(`${app.url}/product/${Math.ceil(size / 2)}`, CRAWLER);
          floor = await spawnFloor({ '/page': { body: sample.body, contentType: 'text/html; charset=utf-8', encoding: 'br' } });
          const bare = await load(`${floor.url}/page`, { seconds: WINDOW_S, headers: CRAWLER });
          await floor.stop();
          floor = null;
          rows.push({
            size,
            onRequest,
            background,
            floor: bare,
            settleS,
            pagesStored: state.pages,
            drawingP95: during.length ? Math.max(...during.map((d) => d.p95)) : NaN,
            settledP95: settled.p95,
            rssSettled,
            rss: rssMiB(app.child.pid!),
            tableMiB: Number(bytes) / 2 ** 20,
          });
          if (app.stderr()) console.log(`  the shop logged:\n${app.stderr().trimEnd()}`);
        } finally {
          await app.stop();
        }
      } finally {
        await db.end();
      }
    }
    console.log(`\nA crawler's pass over every product page (${CONNECTIONS} connections, goal ≥ ${CRAWL_GOAL} pages/s), against a node:http floor serving a product page's br bytes in the same run:`);
    console.table(
      rows.map((r) => ({
        products: r.size,
        'on request pages/s': Math.round(r.onRequest.rps),
        'on request CPU ms/page': +r.onRequest.cpu.toFixed(2),
        'stored pages/s': Math.round(r.background.rps),
        'stored CPU ms/page': +r.background.cpu.toFixed(2),
        'stored p95 ms': +r.background.p95.toFixed(1),
        floor: Math.round(r.floor.rps),
        'ratio on request': +(r.onRequest.rps / r.floor.rps).toFixed(3),
        'ratio stored': +(r.background.rps / r.floor.rps).toFixed(3),
        met: r.background.rps >= CRAWL_GOAL ? 'yes' : 'NO',
      })),
    );
    console.log(`The background drawing (goal: foreground p95 < ${P95_GOAL_MS} ms while it runs):`);
    console.table(
      rows.map((r) => ({
        products: r.size,
        'pages drawn': r.pagesStored,
        'settled after s': +r.settleS.toFixed(1),
        'pages/s drawn': Math.round(r.pagesStored / r.settleS),
        'reads p95 while drawing ms': +r.drawingP95.toFixed(1),
        'reads p95 settled ms': +r.settledP95.toFixed(1),
        'RSS settled MiB': Math.round(r.rssSettled),
        'RSS after crawl MiB': Math.round(r.rss),
        'table MiB': +r.tableMiB.toFixed(1),
        met: r.drawingP95 < P95_GOAL_MS ? 'yes' : 'NO',
      })),
    );
    return rows;
  } finally {
    await floor?.stop();
    await shops.close();
  }
}
