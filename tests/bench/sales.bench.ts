/**
 * Sales benchmark over 200,000 orders (sales-seed.ts): the Sales view's summary for each range it
 * offers (goal: p95 < 100 ms for 365 days), its CSV export, and the orders export, each timed warm
 * with its ratio to a bare node:http answer measured the same way in the same run (the floor). The
 * plans (EXPLAIN ANALYZE) of the statements a 365-day summary sends are printed, as sent. Last, the
 * same shop with all of its orders in the last 30 days.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RunningApp } from '../../gateway/src/boot.js';
import { addDays } from '../../server/src/rules/delivery.js';
import { recordQueries } from '../helpers/queries.js';
import { measure, percentile, startBenchApp, type BenchResult } from './bench-kit.js';
import { SALES_BENCH_ORDERS, seedSalesBench } from './sales-seed.js';

const RUNS = 60;

/** Like measure() but with one warm-up run: for calls that take seconds (a whole export). */
async function measureFew(name: string, call: () => Promise<void>, runs: number): Promise<BenchResult> {
  await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { name, runs, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
}

/** A bulk statement, without the app's statement timeout. */
const bulk = (em: EntityManager, sql: string) =>
  em.transactional(async (tx) => {
    await tx.execute('set local statement_timeout = 0');
    await tx.execute(sql);
  });

/** The sales statements the app sends while `work` runs. */
async function statementsOf(app: RunningApp, work: () => Promise<void>): Promise<string[]> {
  return (await recordQueries(app, work)).filter((q) => /sales_/.test(q));
}

/** Each statement's plan, the lines that say how it reads (scans, joins, sorts) and its time. */
async function printPlans(em: EntityManager, statements: string[]): Promise<void> {
  for (const sql of statements) {
    const rows = await em.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers, costs off) ${sql}`);
    const what = /sales_product_day/.test(sql) ? 'the top products' : /sales_hour/.test(sql) ? 'the figures per day, both ranges' : 'the refresh (nothing changed since the last one)';
    const lines = rows.map((row) => row['QUERY PLAN']).filter((line) => /Scan|Join|Aggregate|Sort|Hash|Loop|Append|Execution Time|Planning Time|Result/.test(line) && !/never executed/.test(line));
    console.log(`  plan of ${what}:\n    ${lines.join('\n    ')}`);
  }
}

export async function runSalesBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp();
  const floorServer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{}}');
  });
  await new Promise<void>((resolve) => floorServer.listen(0, '127.0.0.1', resolve));
  try {
    const em = app.orm.em.fork();
    await seedSalesBench(em);
    const query = `query($tz: String, $days: Int, $from: String, $to: String, $bucket: SalesBucket) {
      salesSummary(timeZone: $tz, days: $days, from: $from, to: $to, bucket: $bucket) {
        from to totals { gross { value previous change } refunds { value change } net { value change } orders { value change } averageOrder { value change } cardsSent { value change } cardsOpened { value change } }
        periods { from to gross refunds net orders averageOrder cardsSent cardsOpened } topProducts { productId name units revenue }
      }
    }`;
    const summary = (variables: Record<string, unknown>) => async () => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data?: { salesSummary: unknown }; errors?: unknown };
      if (!body.data) throw new Error(`GraphQL answered ${JSON.stringify(body.errors).slice(0, 300)}`);
    };
    const get = (path: string) => async () => {
      const res = await fetch(`${app.url}${path}`, { headers: auth });
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      await res.arrayBuffer();
    };
    const today = new Date().toISOString().slice(0, 10);

    const year = { tz: 'UTC', days: 365, bucket: 'DAY' };
    // The seeding listed every order's hour to be counted: the first summary counts them all.
    const first = performance.now();
    await summary(year)();
    console.log(`  first summary, counting the hours of the ${SALES_BENCH_ORDERS.toLocaleString()} orders just seeded: ${((performance.now() - first) / 1000).toFixed(1)} s`);
    await printPlans(em, await statementsOf(app, summary(year)));
    // Days that start on the half hour: the hours they cut are read from the orders themselves.
    console.log('  365 days in Asia/Kolkata:');
    await printPlans(em, (await statementsOf(app, summary({ tz: 'Asia/Kolkata', days: 365 }))).filter((q) => !/sales_rollup_refresh/.test(q)));

    const floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}/`;
    const floor = await measure('floor: bare node:http answer', async () => void (await (await fetch(floorUrl, { method: 'POST', body: '{}' })).arrayBuffer()), RUNS);
    const results: BenchResult[] = [
      floor,
      await measure('GraphQL salesSummary, last 30 days, UTC (≈ 8,600 orders)', summary({ tz: 'UTC' }), RUNS),
      await measure('GraphQL salesSummary, last 30 days, America/New_York', summary({ tz: 'America/New_York' }), RUNS),
      await measure('GraphQL salesSummary, last 90 days by week', summary({ tz: 'UTC', days: 90, bucket: 'WEEK' }), RUNS),
      await measure('GraphQL salesSummary, last 365 days by day (≈ 105,000 orders; goal p95 < 100 ms)', summary(year), RUNS),
      await measure('GraphQL salesSummary, last 365 days by week, Europe/Berlin', summary({ tz: 'Europe/Berlin', days: 365, bucket: 'WEEK' }), RUNS),
      await measure('GraphQL salesSummary, last 365 days, Asia/Kolkata (days start on the half hour)', summary({ tz: 'Asia/Kolkata', days: 365 }), RUNS),
      await measure('GraphQL salesSummary, from–to of 366 days ending 5 weeks ago', summary({ tz: 'UTC', from: addDays(today, -400), to: addDays(today, -35) }), RUNS),
      await measure('REST GET /api/admin/sales.csv?days=365 (365 lines)', get('/api/admin/sales.csv?days=365'), RUNS),
      await measureFew('REST GET /api/admin/orders.csv?search=snowy (≈ 50,000 rows)', get('/api/admin/orders.csv?search=snowy'), 3),
      await measureFew(`REST GET /api/admin/orders.csv (all ${SALES_BENCH_ORDERS.toLocaleString()} rows)`, get('/api/admin/orders.csv'), 2),
    ];
    // The same shop, had all of its orders come in the last 30 days (a busy month: ≈ 6,700 a day).
    await bulk(em, `update "order" set created_at = now() - make_interval(secs => (extract(epoch from now() - created_at) / 24)::int)`);
    await bulk(em, `update order_item i set delivered_at = o.created_at + interval '1 minute', opened_at = case when i.opened_at is not null then o.created_at + interval '1 hour' end
                        from "order" o where o.id = i.order_id and i.delivered_at is not null`);
    await em.execute('vacuum analyze "order"');
    await em.execute('vacuum analyze order_item');
    const moved = performance.now();
    await summary({ tz: 'UTC' })();
    console.log(`  first summary after moving every order, counting them again: ${((performance.now() - moved) / 1000).toFixed(1)} s`);
    results.push(await measure(`GraphQL salesSummary, last 30 days holding all ${SALES_BENCH_ORDERS.toLocaleString()} orders`, summary({ tz: 'UTC' }), RUNS));
    return results.map((r) => (r === floor ? r : { ...r, name: `${r.name} (×${(r.p50 / floor.p50).toFixed(1)} floor)` }));
  } finally {
    floorServer.close();
    await stop();
  }
}
