import type { RequestContext } from '../../core/context.js';
import { badInput } from '../../core/errors.js';
import { fromCents, toCents } from '../../core/money.js';

export const SALES_DAYS = 30;

export interface SalesDay {
  /** YYYY-MM-DD in the time zone asked for. */
  day: string;
  revenue: string;
  orders: number;
}

export interface SalesSummary {
  timeZone: string;
  /** The first instant counted: the start of the first of the 30 days. */
  since: Date;
  days: SalesDay[];
  revenue: string;
  orders: number;
  cardsSent: number;
  cardsOpened: number;
}

/** An IANA zone name the database and the browser both know (UTC by default). */
function cleanTimeZone(value: string | null | undefined): string {
  const zone = (value ?? '').trim() || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw badInput('Unknown time zone.', 'timeZone');
  }
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(zone)) throw badInput('Unknown time zone.', 'timeZone');
  return zone;
}

/**
 * Sales at a glance: revenue and orders per day for the last 30 days (today included) in the admin's
 * time zone, and the totals of those days. Charged orders are those paid, delivered or partly
 * refunded, each counted for what the shop kept of it (its total less its refunds); refunded ones
 * are not revenue. Each figure is one SQL aggregate over an index: `order_sales_index` (created_at,
 * with the total, for charged orders only) and the partial indexes on the cards' delivered_at and
 * opened_at, so the cost follows the orders of 30 days, not the size of the shop.
 */
export class SalesService {
  constructor(private readonly clock: () => Date) {}

  async summary(ctx: RequestContext, rawTimeZone?: string | null): Promise<SalesSummary> {
    const timeZone = cleanTimeZone(rawTimeZone);
    const now = this.clock();
    const em = ctx.em;
    const [window] = await em.execute<{ since: Date; first_day: string }[]>(
      `select ((date_trunc('day', ?::timestamptz at time zone ?) - interval '${SALES_DAYS - 1} days') at time zone ?) as since,
              to_char(date_trunc('day', ?::timestamptz at time zone ?) - interval '${SALES_DAYS - 1} days', 'YYYY-MM-DD') as first_day`,
      [now, timeZone, timeZone, now, timeZone],
    );
    const since = new Date(window!.since);
    const [perDay, cards] = await Promise.all([
      em.execute<{ day: string; revenue: string; orders: string }[]>(
        `select to_char(created_at at time zone ?, 'YYYY-MM-DD') as day, sum(total - refunded_amount)::text as revenue, count(*) as orders
           from "order"
          where status in ('paid', 'delivered', 'partially_refunded') and created_at >= ? and created_at <= ?
          group by 1 order by 1`,
        [timeZone, since, now],
      ),
      em.execute<{ sent: string; opened: string }[]>(
        `select (select count(*) from order_item where delivered_at >= ? and delivered_at <= ?) as sent,
                (select count(*) from order_item where opened_at >= ? and opened_at <= ?) as opened`,
        [since, now, since, now],
      ),
    ]);
    const byDay = new Map(perDay.map((row) => [row.day, row]));
    const days: SalesDay[] = [];
    const first = new Date(`${window!.first_day}T00:00:00Z`);
    for (let i = 0; i < SALES_DAYS; i++) {
      const day = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      const row = byDay.get(day);
      days.push({ day, revenue: row ? fromCents(toCents(row.revenue)) : '0.00', orders: row ? Number(row.orders) : 0 });
    }
    return {
      timeZone,
      since,
      days,
      revenue: fromCents(days.reduce((total, d) => total + toCents(d.revenue), 0)),
      orders: days.reduce((total, d) => total + d.orders, 0),
      cardsSent: Number(cards[0]!.sent),
      cardsOpened: Number(cards[0]!.opened),
    };
  }
}
