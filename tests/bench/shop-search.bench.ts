/**
 * Shop search benchmark (contract section 15): 10,000 and then 100,000 products (inserted with
 * set-based SQL), then `searchProducts` over GraphQL and `GET /api/products/search` over REST in each
 * order (name, newest, price either way), with a price range and with a type, timed warm and printed
 * with their ratio to a bare node:http answer measured the same way in the same run (the floor). The
 * plan of each order's page is printed: each is read through an index of its own, without a sort.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { measure, startBenchApp, type BenchResult } from './bench-kit.js';

const SIZES = [10_000, 100_000];
const RUNS = 100;
const SORTS = [
  ['NAME', 'name', 'sort_name asc, id asc'],
  ['NEWEST', 'newest', 'created_at desc, id desc'],
  ['PRICE_ASC', 'price_asc', 'price asc, id asc'],
  ['PRICE_DESC', 'price_desc', 'price desc, id desc'],
] as const;

export async function runShopSearchBench(): Promise<BenchResult[]> {
  const { app, stop } = await startBenchApp();
  const floorServer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{}}');
  });
  await new Promise<void>((resolve) => floorServer.listen(0, '127.0.0.1', resolve));
  const results: BenchResult[] = [];
  try {
    const em = app.orm.em.fork();
    const [category] = await em.execute<{ id: number }[]>(`insert into category (name) values ('Bench') returning id`);
    const floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}/`;
    const floor = await measure('floor: bare node:http answer', async () => void (await (await fetch(floorUrl)).arrayBuffer()), RUNS);
    results.push(floor);
    const query = `query($sort: ProductSort, $minPrice: Decimal, $maxPrice: Decimal, $productTypeId: Int) { searchProducts(sort: $sort, minPrice: $minPrice, maxPrice: $maxPrice, productTypeId: $productTypeId, first: 24) { totalCount pageInfo { endCursor hasNextPage } edges { node { id name price productTypeId mainImage { id filePath } } } } }`;
    const gql = async (variables: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data?: unknown; errors?: unknown };
      if (!body.data) throw new Error(`GraphQL answered ${JSON.stringify(body.errors).slice(0, 300)}`);
    };
    const rest = async (search: string) => {
      const res = await fetch(`${app.url}/api/products/search?${search}`);
      if (res.status !== 200) throw new Error(`REST answered ${res.status}`);
      await res.arrayBuffer();
    };
    let seeded = 0;
    for (const size of SIZES) {
      const started = performance.now();
      await em.transactional(async (tx) => {
        await tx.execute('set local statement_timeout = 0');
        // Names, prices from 0.99 to 99.99, the three types, added over the last year.
        await tx.execute(`insert into product (name, price, category_id, product_type_id, created_at)
          select 'Product ' || n || ' ' || (array['Balloons', 'Carols', 'Roses', 'Thanks', 'Waves'])[1 + n % 5], 0.99 + (n::bigint * 7919) % 9900 / 100.0, ?, 1 + n % 3, now() - make_interval(mins => ((n::bigint * 104729) % 525600)::int)
            from generate_series(?, ?) as n`, [category!.id, seeded + 1, size]);
      });
      seeded = size;
      await em.execute('vacuum analyze product');
      console.log(`seeded ${size.toLocaleString()} products in ${Math.round(performance.now() - started)} ms`);
      for (const [, , order] of SORTS) {
        const plan = await em.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, timing off) select id from product where price between 5 and 50 order by ${order} limit 25`);
        console.log(`  plan by ${order}, between $5 and $50: ${plan.map((row) => row['QUERY PLAN'].trim()).filter((line) => /Scan|Sort|Execution Time/.test(line)).join(' | ')}`);
      }
      const at = `${size.toLocaleString()} products`;
      const ratio = (r: BenchResult) => ({ ...r, name: `${r.name} (×${(r.p50 / floor.p50).toFixed(1)} floor)` });
      for (const [sort, param] of SORTS) {
        results.push(ratio(await measure(`${at}: GraphQL searchProducts ${sort}`, () => gql({ sort }), RUNS)));
        results.push(ratio(await measure(`${at}: GraphQL searchProducts ${sort}, $5 to $50`, () => gql({ sort, minPrice: '5', maxPrice: '50' }), RUNS)));
        results.push(ratio(await measure(`${at}: REST /api/products/search?sort=${param}&type_id=2`, () => rest(`sort=${param}&type_id=2`), RUNS)));
      }
    }
    return results;
  } finally {
    floorServer.close();
    await stop();
  }
}
