/**
 * Customers benchmark: 100,000 shopper accounts (inserted with set-based SQL, with the order figures
 * the database keeps on each account), then the time of the Customers view's reads over GraphQL and
 * REST: the first page and a page deep in the list (keyset, from a cursor 60,000 rows in), for the
 * default sort and for "Total spent", and searches. Each is printed with its ratio to a bare
 * node:http answer measured the same way in the same run (the floor), and the plan of the deep page
 * shows which index serves it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { measure, startBenchApp, type BenchResult } from './bench-kit.js';

const CUSTOMERS = 100_000;
const RUNS = 100;

export async function runCustomersBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp();
  const floorServer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{}}');
  });
  await new Promise<void>((resolve) => floorServer.listen(0, '127.0.0.1', resolve));
  try {
    const em = app.orm.em.fork();
    const started = performance.now();
    await em.transactional(async (tx) => {
      await tx.execute('set local statement_timeout = 0');
      // A third never ordered; the others 1-9 orders, spent a figure from them, last ordered in the last year.
      await tx.execute(`insert into app_user (username, email, password_hash, role, created_at, email_confirmed_at, orders_count, total_spent, last_order_at)
        select 'shopper' || n, 'shopper' || n || '@' || (array['example.com', 'mail.test', 'post.example'])[1 + n % 3], 'x', 'customer',
               now() - make_interval(mins => n * 5), case when n % 2 = 0 then now() end,
               case when n % 3 = 0 then 0 else 1 + n % 9 end,
               case when n % 3 = 0 then 0 else round(((n * 7919) % 50000) / 100.0, 2) end,
               case when n % 3 = 0 then null else now() - make_interval(hours => n % 8760) end
          from generate_series(1, ${CUSTOMERS}) as n`);
    });
    // As autovacuum leaves a table at rest: statistics and the visibility map (index-only scans).
    await em.execute('vacuum analyze app_user');
    console.log(`seeded ${CUSTOMERS.toLocaleString()} customers in ${Math.round(performance.now() - started)} ms`);

    const query = `query($search: String, $sort: CustomerSort, $after: String) { customers(search: $search, sort: $sort, first: 25, after: $after) { totalCount pageInfo { endCursor hasNextPage } edges { node { id username email confirmed ordersCount totalSpent lastOrderAt createdAt } } } }`;
    const gql = async (variables: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data?: { customers: { pageInfo: { endCursor: string }; edges: unknown[] } }; errors?: unknown };
      if (!body.data) throw new Error(`GraphQL answered ${JSON.stringify(body.errors).slice(0, 300)}`);
      return body.data.customers;
    };
    /** The cursor of the row 60,000 into a sort (from the database, as a client paging there would hold). */
    const deepCursor = async (sort: 'NEWEST' | 'SPENT') => {
      const key = sort === 'NEWEST' ? 'created_at' : 'total_spent';
      const [row] = await em.execute<{ k: string; id: number }[]>(`select ${key}::text as k, id from app_user where role = 'customer' order by ${key} desc, id desc offset 60000 limit 1`);
      return Buffer.from(JSON.stringify({ k: row!.k, id: row!.id })).toString('base64url');
    };
    const [newestDeep, spentDeep] = [await deepCursor('NEWEST'), await deepCursor('SPENT')];
    for (const [what, sql] of [
      ['the count', `select count(*) from app_user where role = 'customer'`],
      ['page 1 by total spent', `select id, username, email, total_spent::text as spent from app_user where role = 'customer' order by total_spent desc, id desc limit 26`],
      ['search "mail.test"', `select id from app_user where role = 'customer' and (lower(username) || ' ' || email) like '%mail.test%' order by created_at desc, id desc limit 26`],
      ['count of search "mail.test"', `select count(*) from app_user where role = 'customer' and (lower(username) || ' ' || email) like '%mail.test%'`],
    ]) {
      const rows = await em.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, timing on) ${sql}`);
      console.log(`${what}: ${rows.map((row) => row['QUERY PLAN']).filter((line) => /Scan|Execution Time|Sort|Aggregate/.test(line)).map((l) => l.trim()).join(' | ')}`);
    }
    const plan = await em.execute<{ 'QUERY PLAN': string }[]>(
      `explain select id from app_user where role = 'customer' and (total_spent, id) < (?::numeric, ?) order by total_spent desc, id desc limit 26`,
      [JSON.parse(Buffer.from(spentDeep, 'base64url').toString()).k, JSON.parse(Buffer.from(spentDeep, 'base64url').toString()).id],
    );
    console.log(`plan of a deep "Total spent" page:\n  ${plan.map((row) => row['QUERY PLAN']).join('\n  ')}`);

    const floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}/`;
    const floor = await measure('floor: bare node:http answer', async () => void (await (await fetch(floorUrl, { method: 'POST', body: '{}' })).arrayBuffer()), RUNS);
    const results = [
      floor,
      await measure('GraphQL customers, newest first, page 1', async () => void (await gql({})), RUNS),
      await measure('GraphQL customers, newest first, 60,000 rows in', async () => void (await gql({ after: newestDeep })), RUNS),
      await measure('GraphQL customers by total spent, page 1', async () => void (await gql({ sort: 'SPENT' })), RUNS),
      await measure('GraphQL customers by total spent, 60,000 rows in', async () => void (await gql({ sort: 'SPENT', after: spentDeep })), RUNS),
      await measure('GraphQL customers search "shopper4242"', async () => void (await gql({ search: 'shopper4242' })), RUNS),
      await measure('GraphQL customers search "mail.test" (a third)', async () => void (await gql({ search: 'mail.test' })), RUNS),
      await measure('REST GET /api/admin/customers?sort=last_order', async () => {
        const res = await fetch(`${app.url}/api/admin/customers?sort=last_order`, { headers: auth });
        if (res.status !== 200) throw new Error(`REST answered ${res.status}`);
        await res.arrayBuffer();
      }, RUNS),
    ];
    return results.map((r) => (r === floor ? r : { ...r, name: `${r.name} (×${(r.p50 / floor.p50).toFixed(1)} floor)` }));
  } finally {
    floorServer.close();
    await stop();
  }
}
