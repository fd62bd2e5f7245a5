/**
 * Orders benchmark: 100,000 orders with one to three items each (inserted with set-based SQL), then
 * the time of the admin's order search over GraphQL (`orders(search, first: 25)`) for the kinds of
 * search an admin types, and of the REST list for a selective search.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { measure, startBenchApp, type BenchResult } from './bench-kit.js';

const ORDERS = 100_000;
const PRODUCTS = ['Balloon Bouquet', 'Candles & Cake', 'Snowy Pines', 'Snowflake Waltz', 'Midnight Fireworks', 'Hearts in Bloom', 'Garden of Thanks', 'Songs for Every Occasion', 'Seasons in Colour'];
const DOMAINS = ['example.com', 'mail.test', 'post.example', 'inbox.test'];
const STATUSES = ['delivered', 'delivered', 'delivered', 'paid', 'cancelled', 'refunded'];
const RUNS = 60;

const sqlArray = (items: string[]) => `array[${items.map((item) => `'${item.replace(/'/g, "''")}'`).join(', ')}]`;

/**
 * Inserts 100,000 orders (or `count`; one every 10 minutes back from now) with one to three items
 * each, with set-based SQL; the console's orders bench reuses it.
 */
export async function seedBenchOrders(outer: EntityManager, count = ORDERS): Promise<void> {
  const started = performance.now();
  // One transaction without the app's statement timeout: bulk inserts on a busy machine may take longer.
  await outer.transactional(async (em) => {
    await em.execute('set local statement_timeout = 0');
    // Each order n has 1 + n % 3 items; item k of order n is product (n * 7 + k * 3) % 9.
    await em.execute(`create temporary table bench_order as
      select n, gen_random_uuid() as id, 1 + n % 3 as items from generate_series(1, ${count}) as n`);
    await em.execute(`insert into "order" (id, purchaser_email, status, total, payment_provider, payment_reference, card_last4, idempotency_key, request_hash, item_names, created_at)
      select o.id,
             'customer' || o.n || '@' || (${sqlArray(DOMAINS)})[1 + o.n % 4],
             (${sqlArray(STATUSES)})[1 + o.n % 6],
             4.99 * o.items, 'test', 'test_ch_' || o.n, '4242', 'bench-' || o.n, 'bench',
             (select string_agg(lower((${sqlArray(PRODUCTS)})[1 + (o.n * 7 + k * 3) % 9]), ' ' order by k) from generate_series(0, o.items - 1) as k),
             now() - make_interval(mins => o.n * 10)
      from bench_order o`);
    await em.execute(`insert into order_item (order_id, position, name, price, quantity)
      select o.id, k, (${sqlArray(PRODUCTS)})[1 + (o.n * 7 + k * 3) % 9], 4.99, 1
      from bench_order o cross join generate_series(0, 2) as k where k < o.items`);
  });
  await outer.execute('analyze "order"');
  await outer.execute('analyze order_item');
  console.log(`  seeded ${count.toLocaleString()} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export async function runOrdersBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp();
  try {
    const em = app.orm.em.fork();
    await seedBenchOrders(em);
    const [{ id: someId }] = await em.execute<{ id: string }[]>(`select id::text from "order" order by created_at desc offset 54321 limit 1`);

    const query = `query($search: String, $first: Int) {
      orders(search: $search, first: $first) { totalCount pageInfo { hasNextPage endCursor } edges { node { id purchaserEmail status total createdAt } } }
    }`;
    const search = (text: string) => async () => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { search: text, first: 25 } }) });
      const body = (await res.json()) as { data?: { orders: { totalCount: number } }; errors?: unknown };
      if (!body.data) throw new Error(`GraphQL answered ${JSON.stringify(body.errors).slice(0, 300)}`);
    };
    const rest = (text: string) => async () => {
      const res = await fetch(`${app.url}/api/admin/orders?search=${encodeURIComponent(text)}`, { headers: auth });
      if (res.status !== 200) throw new Error(`REST answered ${res.status}`);
      await res.arrayBuffer();
    };

    const mix = ['customer4242', 'snowy', 'refunded', someId!.slice(0, 8), 'hearts inbox.test', ''];
    let next = 0;
    return [
      await measure('GraphQL orders(first: 25): a mix of the searches below', () => search(mix[next++ % mix.length]!)(), RUNS * 2),
      await measure('  e-mail fragment "customer4242"', search('customer4242'), RUNS),
      await measure('  product word "snowy" (≈ 1 in 4 orders)', search('snowy'), RUNS),
      await measure('  status "refunded"', search('refunded'), RUNS),
      await measure('  order id prefix', search(someId!.slice(0, 8)), RUNS),
      await measure('  two words "hearts inbox.test"', search('hearts inbox.test'), RUNS),
      await measure('  no search (newest first)', search(''), RUNS),
      await measure('REST GET /api/admin/orders?search=customer4242 (with items)', rest('customer4242'), RUNS),
    ];
  } finally {
    await stop();
  }
}
