import type { EntityManager } from '@mikro-orm/postgresql';
import { toCents } from '../../core/money.js';
import type { SalesProduct } from './sales.service.js';
import { SalesPromotionKind, type SalesPromotion } from './sales.types.js';

/** What one counted span (a day, or the whole previous range) adds up to; money in cents. */
export interface DayFigures {
  gross: number;
  refunds: number;
  /** Charged orders, wholly refunded ones included. */
  orders: number;
  /** Charged orders not wholly refunded (the figure the view showed before ranges). */
  kept: number;
  sent: number;
  opened: number;
}

export interface RangeFigures {
  /** By span: 1 is the previous range, 2 the range's first day, and so on. */
  spans: Map<number, DayFigures>;
  topProducts: SalesProduct[];
  promotions: SalesPromotion[];
}

/** Orders whose payment went through (pending ones were not charged yet, cancelled ones never). */
const CHARGED = `('paid', 'delivered', 'partially_refunded', 'refunded')`;
const TOP_PRODUCTS = 10;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const floorTo = (instant: Date, unit: number) => new Date(Math.floor(instant.getTime() / unit) * unit);
const pgArray = (instants: Date[]) => `{${instants.map((i) => i.toISOString()).join(',')}}`;

/**
 * The units (UTC hours or days) that some of the bounds cut in two, as the windows of them inside
 * [start, end): what is counted from the orders themselves rather than from the sums of whole units.
 */
function cutWindows(bounds: Date[], unit: number, start: Date, end: Date): string {
  const cut = new Map<number, string>();
  for (const bound of bounds) {
    if (bound.getTime() % unit === 0) continue;
    const from = floorTo(bound, unit).getTime();
    const [a, b] = [Math.max(from, start.getTime()), Math.min(from + unit, end.getTime())];
    if (a < b) cut.set(from, `"[${new Date(a).toISOString()},${new Date(b).toISOString()})"`);
  }
  return `{${[...cut.values()].join(',')}}`;
}

/** The whole units (UTC hours or days) a cut window leaves out of the sums: the units the windows start in. */
const cutUnits = (bounds: Date[], unit: number): Date[] => [...new Set(bounds.filter((b) => b.getTime() % unit !== 0).map((b) => floorTo(b, unit).getTime()))].map((t) => new Date(t));

/**
 * The sales of consecutive spans of time, `bounds` being where each starts and the last one ends:
 * the previous range as the first span, then the days of the range. Three statements whatever the
 * number of spans: the refresh of the sums kept per hour and per product and day (see the migration
 * Migration20261128110000_sales_ranges; repeated only while a mass change is still being counted),
 * then the spans' figures and the top products side by side, on connections of their own.
 * The figures read the sums of whole UTC hours (at most 2 × 366 × 24 rows) and put each in its span
 * with `width_bucket` (a binary search over the bounds); an hour that a bound cuts in two (a zone
 * such as Asia/Kolkata, whose days start on the half hour) is counted from its orders and cards. The
 * top products likewise read the sums of whole UTC days and the lines of the one or two days the
 * range's ends cut.
 */
export async function salesFigures(em: EntityManager, bounds: Date[], withTopProducts = true): Promise<RangeFigures> {
  // Normally one call; after a mass change (an import, a backfill) a few, each within the statement timeout.
  while ((await em.execute<{ more: boolean }[]>('select "sales_rollup_refresh"() as more'))[0]!.more);
  const thresholds = pgArray(bounds);
  const start = bounds[0]!;
  const rangeStart = bounds[1]!;
  const end = bounds.at(-1)!;
  const cutHours = pgArray(cutUnits(bounds, HOUR));
  const cutDays = pgArray(cutUnits([rangeStart, end], DAY));
  const hourWindows = cutWindows(bounds, HOUR, start, end);
  const dayWindows = cutWindows([rangeStart, end], DAY, rangeStart, end);
  // The rows of each window, read through the index on their time. OFFSET 0 keeps the subquery
  // apart (an optimisation fence): joined flat, the planner guessed thousands of rows per window
  // and read every order and line of the shop instead.
  const ofWindows = (select: string) => `select w.* from unnest(?::tstzrange[]) as s(r) cross join lateral (${select} offset 0) as w`;
  const within = (column: string) => `${column} >= lower(s.r) and ${column} < upper(s.r)`;
  const [spans, top, promotions] = await Promise.all([
    em.execute<{ span: number; gross: string; refunds: string; orders: number; kept: number; sent: number; opened: number }[]>(
      `select width_bucket(at, ?::timestamptz[]) as span, sum(gross)::text as gross, sum(refunds)::text as refunds,
              sum(orders)::int as orders, sum(kept)::int as kept, sum(sent)::int as sent, sum(opened)::int as opened
         from (
           select hour as at, gross, refunds, orders, kept, sent, opened from sales_hour
            where hour >= ? and hour < ? and hour <> all(?::timestamptz[])
           union all
           ${ofWindows(`select o.created_at, o.total, o.refunded_amount, 1, (o.status <> 'refunded')::int, 0, 0 from "order" o where ${within('o.created_at')} and o.status in ${CHARGED}`)}
           union all
           ${ofWindows(`select i.delivered_at, 0, 0, 0, 0, 1, 0 from order_item i where ${within('i.delivered_at')}`)}
           union all
           ${ofWindows(`select i.opened_at, 0, 0, 0, 0, 0, 1 from order_item i where ${within('i.opened_at')}`)}
         ) as counted
        group by 1`,
      [thresholds, floorTo(start, HOUR), end, cutHours, hourWindows, hourWindows, hourWindows],
    ),
    withTopProducts
      ? em.execute<{ product_id: number | null; name: string; units: number; revenue: string }[]>(
          // A wholly refunded order has every line refunded: it is left out before the join.
          `select sold.product_id, coalesce(latest.name, sold.name) as name, sold.units, sold.revenue::text as revenue
             from (
               select product_id, min(name) as name, sum(units)::int as units, round(sum(revenue), 2) as revenue
                 from (
                   select product_id, name, units, revenue from sales_product_day
                    where day >= ? and day < ? and day <> all(?::timestamptz[])
                   union all
                   ${ofWindows(
                     `select i.product_id, i.name, i.quantity, coalesce(i.price * i.quantity * o.total / nullif(o.total + o.discount_amount, 0), 0)
                        from "order" o join order_item i on i.order_id = o.id
                       where ${within('o.created_at')} and o.status in ('paid', 'delivered', 'partially_refunded') and i.refunded_at is null`,
                   )}
                 ) as lines
                group by product_id, case when product_id is null then name end
                order by revenue desc, units desc, product_id
                limit ${TOP_PRODUCTS}
             ) as sold
             left join lateral (
               select d.name from sales_product_day d where d.product_id = sold.product_id and d.day < ? order by d.day desc limit 1
             ) as latest on true
            order by sold.revenue desc, sold.units desc, sold.product_id`,
          [floorTo(rangeStart, DAY), end, cutDays, dayWindows, end],
        )
      : [],
    withTopProducts ? promotionFigures(em, rangeStart, end) : [],
  ]);
  const figures = new Map<number, DayFigures>();
  for (const row of spans) {
    figures.set(row.span, { gross: toCents(row.gross), refunds: toCents(row.refunds), orders: row.orders, kept: row.kept, sent: row.sent, opened: row.opened });
  }
  return {
    spans: figures,
    topProducts: top.map((row) => ({ productId: row.product_id, name: row.name, units: row.units, revenue: row.revenue })),
    promotions,
  };
}

const PROMOTIONS = 20;

/**
 * What each promotion brought in over [from, to): a scheduled sale by the lines it priced (as the
 * lines recorded it when sold), a discount code or an automatic discount by the orders it applied
 * to. Read through the partial indexes of the lines sold in a sale and of the discounted orders, so
 * the cost follows the promoted orders, not all of them.
 */
async function promotionFigures(em: EntityManager, from: Date, to: Date): Promise<SalesPromotion[]> {
  const rows = await em.execute<{ kind: SalesPromotionKind; name: string; orders: number; revenue: string; saved: string }[]>(
    `select kind, name, count(distinct order_id)::int as orders, round(sum(revenue), 2)::text as revenue, round(sum(saved), 2)::text as saved
       from (
         select '${SalesPromotionKind.SALE}' as kind, i.sale_name as name, o.id as order_id, i.price * i.quantity as revenue,
                greatest(coalesce(i.compare_at_price, i.price) - i.price, 0) * i.quantity as saved
           from order_item i join "order" o on o.id = i.order_id
          where i.sale_name is not null and i.refunded_at is null and o.created_at >= ? and o.created_at < ? and o.status in ${CHARGED}
         union all
         select case when o.discount_code is not null then '${SalesPromotionKind.CODE}' else '${SalesPromotionKind.AUTOMATIC}' end,
                coalesce(o.discount_code, o.discount_name), o.id, o.total - o.refunded_amount, o.discount_amount
           from "order" o
          where (o.discount_name is not null or o.discount_code is not null) and o.created_at >= ? and o.created_at < ? and o.status in ${CHARGED}
       ) as promoted
      group by kind, name
      order by sum(revenue) desc, kind, name
      limit ${PROMOTIONS}`,
    [from, to, from, to],
  );
  return rows.map((row) => ({ kind: row.kind, name: row.name, orders: row.orders, revenue: row.revenue, saved: row.saved }));
}
