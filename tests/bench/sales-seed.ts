/**
 * The shop the sales bench measures: 24 products and 200,000 orders, one every 5 minutes back from
 * now (about 694 days, so a 365-day range and the 365 days before it each hold about 100,000), with
 * one to three lines each, inserted with set-based SQL. Statuses cycle through 10 orders: 5 delivered,
 * 2 paid, 1 partly refunded (its first line), 1 refunded, 1 cancelled; every 4th order has 10 % off.
 * Cards of delivered orders went out a minute after the order and every other one was opened an hour
 * later. The tables are left vacuumed and analysed, as autovacuum leaves them at rest.
 */
import type { EntityManager } from '@mikro-orm/postgresql';

export const SALES_BENCH_ORDERS = 200_000;
const PRODUCTS = 24;
const NAMES = ['Balloon Bouquet', 'Candles & Cake', 'Snowy Pines', 'Snowflake Waltz', 'Midnight Fireworks', 'Hearts in Bloom', 'Garden of Thanks', 'Songs for Every Occasion'];
const STATUSES = ['delivered', 'delivered', 'delivered', 'delivered', 'paid', 'paid', 'partially_refunded', 'refunded', 'cancelled', 'delivered'];

const sqlArray = (items: string[]) => `array[${items.map((item) => `'${item.replace(/'/g, "''")}'`).join(', ')}]`;

export async function seedSalesBench(outer: EntityManager): Promise<void> {
  const started = performance.now();
  await outer.transactional(async (em) => {
    // Bulk inserts on a busy machine may take longer than the app's statement timeout.
    await em.execute('set local statement_timeout = 0');
    const [category] = await em.execute<{ id: number }[]>(`insert into category (name) values ('Sales bench') returning id`);
    await em.execute(
      `insert into product (name, price, category_id, product_type_id)
       select (${sqlArray(NAMES)})[1 + n % ${NAMES.length}] || ' ' || n, 2.99 + (n % 7), ?, 1 + n % 3 from generate_series(1, ${PRODUCTS}) as n`,
      [category!.id],
    );
    await em.execute(`create temporary table bench_product on commit drop as select (row_number() over (order by id) - 1)::int as slot, id, name, price from product where category_id = ?`, [category!.id]);
    // Line k of order n is product (7n + 3k) mod 24, one or two of it.
    await em.execute(`create temporary table bench_item on commit drop as
      select o.n, k, p.id as product_id, p.name, p.price, 1 + (o.n + k) % 2 as quantity
        from generate_series(1, ${SALES_BENCH_ORDERS}) as o(n) cross join generate_series(0, 2) as k
        join bench_product p on p.slot = (o.n * 7 + k * 3) % ${PRODUCTS}
       where k < 1 + o.n % 3`);
    await em.execute(`create temporary table bench_order on commit drop as
      select n, gen_random_uuid() as id, now() - make_interval(mins => n * 5) as created_at,
             case when (${sqlArray(STATUSES)})[1 + n % 10] = 'partially_refunded' and count(*) = 1 then 'delivered' else (${sqlArray(STATUSES)})[1 + n % 10] end as status,
             sum(price * quantity) as subtotal, case when n % 4 = 0 then round(sum(price * quantity) * 0.1, 2) else 0 end as discount,
             (array_agg(price * quantity order by k))[1] as first_line, string_agg(lower(name), ' ' order by k) as item_names
        from bench_item group by n`);
    await em.execute(`insert into "order" (id, purchaser_email, status, total, discount_code, discount_amount, refunded_amount, refunded_at, payment_provider, payment_reference, card_last4, idempotency_key, request_hash, item_names, created_at)
      select id, 'customer' || n || '@example.com', status, subtotal - discount, case when discount > 0 then 'TENOFF' end, discount,
             case status when 'refunded' then subtotal - discount when 'partially_refunded' then round(first_line * (subtotal - discount) / subtotal, 2) else 0 end,
             case when status in ('refunded', 'partially_refunded') then created_at + interval '2 days' end,
             'test', 'test_ch_' || n, '4242', 'sales-bench-' || n, 'bench', item_names, created_at
        from bench_order`);
    await em.execute(`insert into order_item (order_id, position, product_id, name, price, quantity, refunded_at, delivered_at, opened_at)
      select o.id, i.k, i.product_id, i.name, i.price, i.quantity,
             case when o.status = 'refunded' or (o.status = 'partially_refunded' and i.k = 0) then o.created_at + interval '2 days' end,
             case when o.status in ('delivered', 'partially_refunded') then o.created_at + interval '1 minute' end,
             case when o.status in ('delivered', 'partially_refunded') and (o.n + i.k) % 2 = 0 then o.created_at + interval '1 hour' end
        from bench_item i join bench_order o on o.n = i.n`);
  });
  await outer.execute('vacuum analyze "order"');
  await outer.execute('vacuum analyze order_item');
  console.log(`  seeded ${SALES_BENCH_ORDERS.toLocaleString()} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
