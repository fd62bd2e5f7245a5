/**
 * Sales and export benchmark over the 100,000 orders of the orders bench: the Sales view's summary
 * (one order every 10 minutes, so about 4,300 in the 30 days; then all 100,000 moved into the 30
 * days), and the CSV export of a search and of every order.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { measure, percentile, startBenchApp, type BenchResult } from './bench-kit.js';
import { seedBenchOrders } from './orders.bench.js';

const RUNS = 40;

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

export async function runSalesBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp();
  try {
    const em = app.orm.em.fork();
    await seedBenchOrders(em);
    // Cards of delivered orders were sent a minute after the order, and every other one was opened.
    await bulk(em, `update order_item i set delivered_at = o.created_at + interval '1 minute',
                             opened_at = case when i.id % 2 = 0 then o.created_at + interval '1 hour' end
                        from "order" o where o.id = i.order_id and o.status = 'delivered'`);
    await em.execute('analyze order_item');

    const query = `query($tz: String) { salesSummary(timeZone: $tz) { revenue orders cardsSent cardsOpened days { day revenue orders } } }`;
    const summary = (tz: string | null) => async () => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { tz } }) });
      const body = (await res.json()) as { data?: { salesSummary: { orders: number } }; errors?: unknown };
      if (!body.data) throw new Error(`GraphQL answered ${JSON.stringify(body.errors).slice(0, 300)}`);
    };
    const csv = (search: string) => async () => {
      const res = await fetch(`${app.url}/api/admin/orders.csv?search=${encodeURIComponent(search)}`, { headers: auth });
      if (res.status !== 200) throw new Error(`CSV answered ${res.status}`);
      await res.arrayBuffer();
    };

    const results = [
      await measure('GraphQL salesSummary, UTC (≈ 4,300 orders in the 30 days)', summary(null), RUNS),
      await measure('GraphQL salesSummary, America/New_York', summary('America/New_York'), RUNS),
      await measureFew('REST GET /api/admin/orders.csv?search=snowy (≈ 25,000 rows)', csv('snowy'), 5),
      await measureFew('REST GET /api/admin/orders.csv (all 100,000 rows)', csv(''), 3),
    ];
    // The same shop, had all of its 100,000 orders come in the last 30 days.
    await bulk(em, `update "order" set created_at = now() - make_interval(secs => (extract(epoch from now() - created_at) / 24)::int)`);
    await bulk(em, `update order_item i set delivered_at = o.created_at + interval '1 minute', opened_at = case when i.opened_at is not null then o.created_at + interval '1 hour' end
                        from "order" o where o.id = i.order_id and i.delivered_at is not null`);
    await em.execute('analyze "order"');
    await em.execute('analyze order_item');
    results.push(await measure('GraphQL salesSummary with all 100,000 orders in the 30 days', summary(null), RUNS));
    return results;
  } finally {
    await stop();
  }
}
