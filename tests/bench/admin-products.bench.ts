/**
 * The console's products at scale (contract section 16): 100,000 products (a tenth drafts, a twentieth
 * on sale), then `GET /api/admin/products` in each order and with each filter, the first page and a
 * page 50,000 rows in (a keyset cursor made from the row there), timed warm with their ratio to a bare
 * node:http answer measured the same way in the same run; the plan of each order's deep page; and a bulk
 * price change of 1,000 products with their audit entries.
 */
import { encodeCursor } from '../../server/src/core/pagination.js';
import { measure, startBenchApp, startFloor, type BenchResult } from './bench-kit.js';

const SIZE = 100_000;
const DEEP = 50_000;
const RUNS = 60;
/** Each order: its REST name, its SQL order, the cursor it makes from a row. */
const SORTS = [
  ['name', 'sort_name asc, id asc', (row: Row) => ({ n: row.sort_name, id: row.id })],
  ['price_asc', 'price asc, id asc', (row: Row) => ({ p: row.price, id: row.id })],
  ['price_desc', 'price desc, id desc', (row: Row) => ({ p: row.price, id: row.id })],
  ['updated', 'updated_at desc, id desc', (row: Row) => ({ u: new Date(row.updated_at).toISOString(), id: row.id })],
] as const;

interface Row {
  id: number;
  sort_name: string;
  price: string;
  updated_at: string;
}

export async function runAdminProductsBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp();
  const floor = await startFloor('{"items":[],"next_cursor":null}');
  const results: BenchResult[] = [];
  try {
    const em = app.orm.em.fork();
    const [category] = await em.execute<{ id: number }[]>(`insert into category (name) values ('Bench') returning id`);
    const started = performance.now();
    await em.transactional(async (tx) => {
      await tx.execute('set local statement_timeout = 0');
      await tx.execute(`insert into product (name, price, compare_at_price, status, sku, tags, category_id, product_type_id, updated_at)
        select 'Product ' || n || ' ' || (array['Balloons', 'Carols', 'Roses', 'Thanks', 'Waves'])[1 + n % 5], 0.99 + (n::bigint * 7919) % 9900 / 100.0,
               case when n % 20 = 0 then 199.99 end, case when n % 10 = 0 then 'draft' else 'active' end, 'SKU-' || n, array['tag' || (n % 50)],
               ?, 1 + n % 3, now() - make_interval(mins => ((n::bigint * 104729) % 525600)::int)
          from generate_series(1, ?) as n`, [category!.id, SIZE]);
    });
    await em.execute('vacuum analyze product');
    console.log(`seeded ${SIZE.toLocaleString()} products in ${Math.round(performance.now() - started)} ms`);

    results.push(await floor.measure(RUNS));
    const ratio = floor.ratio;
    const list = async (query: string) => {
      const res = await fetch(`${app.url}/api/admin/products?${query}`, { headers: auth });
      if (res.status !== 200) throw new Error(`GET /api/admin/products?${query} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (const [name, order, cursorOf] of SORTS) {
      const [row] = await em.execute<Row[]>(`select id, sort_name, price::text as price, updated_at from product order by ${order} offset ${DEEP - 1} limit 1`);
      const after = encodeURIComponent(encodeCursor(cursorOf(row!)));
      const plan = await em.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, timing off) select id from product where (${order.split(',')[0]!.split(' ')[0]}, id) ${order.includes('desc') ? '<' : '>'} (select ${order.split(',')[0]!.split(' ')[0]}, id from product where id = ?) order by ${order} limit 51`, [row!.id]);
      console.log(`  plan by ${order}, ${DEEP.toLocaleString()} rows in: ${plan.map((r) => r['QUERY PLAN'].trim()).filter((line) => /Scan|Sort|Execution Time/.test(line)).join(' | ')}`);
      results.push(ratio(await measure(`sort=${name}: first page`, () => list(`sort=${name}`), RUNS)));
      results.push(ratio(await measure(`sort=${name}: ${DEEP.toLocaleString()} rows in`, () => list(`sort=${name}&after=${after}`), RUNS)));
    }
    for (const filter of ['status=draft', 'on_sale=1', 'type_id=2', `category_id=${category!.id}`, 'q=carols', 'q=sku-777', 'status=archived']) {
      results.push(ratio(await measure(`${filter}: first page`, () => list(filter), RUNS)));
    }
    // A bulk price change of 1,000 products (10 % up), with its 1,000 audit entries, in one transaction.
    const ids = (await em.execute<{ id: number }[]>(`select id from product where compare_at_price is null order by id limit 1000`)).map((r) => r.id);
    let percent = 10;
    results.push(await measure('POST /api/admin/products/bulk: price +10 % on 1,000 products', async () => {
      const res = await fetch(`${app.url}/api/admin/products/bulk`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ ids, action: { type: 'price', percent } }) });
      if (res.status !== 200) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
      percent = percent === 10 ? -9 : 10;
    }, 5));
    return results;
  } finally {
    floor.close();
    await stop();
  }
}
