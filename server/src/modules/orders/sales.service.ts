import type { SalesPromotion } from './sales.types.js';
import type { RequestContext } from '../../core/context.js';
import { badInput } from '../../core/errors.js';
import { fromCents } from '../../core/money.js';
import { addDays, dayIn, knownTimeZone, startOfDay } from '../../rules/delivery.js';
import { isRangeProblem, percentChange, previousRange, salesPeriods, salesRange, type SalesBucketKind, type SalesRange } from '../../rules/sales-range.js';
import { salesFigures, type DayFigures } from './sales-figures.js';

export interface SalesDay {
  /** YYYY-MM-DD in the time zone asked for. */
  day: string;
  /** What the shop kept of the day's orders (net). */
  revenue: string;
  /** The day's orders not refunded in full. */
  orders: number;
}

/** One bar of the chart and one line of the CSV: a day, or a week cut to the range. */
export interface SalesPeriod {
  from: string;
  to: string;
  gross: string;
  refunds: string;
  net: string;
  orders: number;
  averageOrder: string;
  cardsSent: number;
  cardsOpened: number;
}

export interface SalesFigure<T> {
  value: T;
  previous: T;
  /** Percent from the previous range, one decimal; null when the previous range had none. */
  change: number | null;
}

export interface SalesTotals {
  gross: SalesFigure<string>;
  refunds: SalesFigure<string>;
  net: SalesFigure<string>;
  orders: SalesFigure<number>;
  averageOrder: SalesFigure<string>;
  cardsSent: SalesFigure<number>;
  cardsOpened: SalesFigure<number>;
}

export interface SalesProduct {
  /** Null for the lines of a product since deleted (they are grouped by the name they were sold under). */
  productId: number | null;
  name: string;
  units: number;
  revenue: string;
}

export interface SalesSummary {
  timeZone: string;
  /** The first instant counted: the start of the range's first day. */
  since: Date;
  from: string;
  to: string;
  dayCount: number;
  bucket: SalesBucketKind;
  previousFrom: string;
  previousTo: string;
  totals: SalesTotals;
  periods: SalesPeriod[];
  topProducts: SalesProduct[];
  /** Revenue and orders per promotion (see SalesPromotion). */
  promotions: SalesPromotion[];
  /** The figures the view had before ranges, kept for their callers. */
  days: SalesDay[];
  revenue: string;
  orders: number;
  cardsSent: number;
  cardsOpened: number;
}

export interface SalesArgs {
  timeZone?: string | null;
  from?: string | null;
  to?: string | null;
  days?: number | null;
  bucket?: SalesBucketKind | null;
}

/** An IANA zone name the runtime knows (UTC by default). */
function cleanTimeZone(value: string | null | undefined): string {
  const zone = (value ?? '').trim() || 'UTC';
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(zone) || !knownTimeZone(zone)) throw badInput('Unknown time zone.', 'timeZone');
  return zone;
}

const EMPTY: DayFigures = { gross: 0, refunds: 0, orders: 0, kept: 0, sent: 0, opened: 0 };

function add(a: DayFigures, b: DayFigures): DayFigures {
  return { gross: a.gross + b.gross, refunds: a.refunds + b.refunds, orders: a.orders + b.orders, kept: a.kept + b.kept, sent: a.sent + b.sent, opened: a.opened + b.opened };
}

const average = (f: DayFigures) => (f.orders === 0 ? 0 : Math.round(f.gross / f.orders));
const money = (value: number, previous: number): SalesFigure<string> => ({ value: fromCents(value), previous: fromCents(previous), change: percentChange(value, previous) });
const count = (value: number, previous: number): SalesFigure<number> => ({ value, previous, change: percentChange(value, previous) });

/**
 * Sales over a range of days in the admin's time zone, compared with the range of the same length
 * just before it. The figures:
 * - The orders counted are those placed (created) on the range's days whose payment went through:
 *   paid, delivered, partly or wholly refunded. Pending and cancelled orders were never charged.
 * - gross: the sum of their totals, what was charged (after any discount code).
 * - refunds: what has been given back of those same orders, counted on the day of the order (not of
 *   the refund), so that each day says what the shop kept of that day's sales.
 * - net: gross − refunds.
 * - orders: how many there were, wholly refunded ones included (they were sold, then given back).
 * - average order: gross / orders to the cent; 0.00 without orders.
 * - cards sent / cards opened: e-cards whose e-mail first went out / that were first opened on the
 *   range's days, whenever they were ordered.
 * - change: (this − previous) / previous in percent, one decimal; null when the previous range had 0.
 * - top products: the 10 with the most net revenue, a line's revenue being its share of what its
 *   order was charged (a discount spread over the lines in proportion, as refunds do), refunded lines
 *   left out; units are the quantities of those lines.
 * The range and both ranges' periods are worked out here (days begin at midnight in the zone,
 * daylight-saving changes included), and the database counts in three statements whatever the
 * range's length (see sales-figures.ts).
 */
export class SalesService {
  constructor(private readonly clock: () => Date) {}

  /** Which range the arguments name, checked (BAD_USER_INPUT naming the argument at fault). */
  range(args: SalesArgs): { timeZone: string; range: SalesRange; bucket: SalesBucketKind } {
    const timeZone = cleanTimeZone(args.timeZone);
    const range = salesRange(args, dayIn(this.clock(), timeZone));
    if (isRangeProblem(range)) throw badInput(range.message, range.field);
    const bucket = args.bucket ?? 'DAY';
    if (bucket !== 'DAY' && bucket !== 'WEEK') throw badInput('Group by DAY or WEEK.', 'bucket');
    return { timeZone, range, bucket };
  }

  /** The summary of a range; `topProducts: false` leaves them out (the export has no use for them). */
  async summary(ctx: RequestContext, args: SalesArgs = {}, parts: { topProducts: boolean } = { topProducts: true }): Promise<SalesSummary> {
    const { timeZone, range, bucket } = this.range(args);
    const previous = previousRange(range);
    const dayList = Array.from({ length: range.days }, (_, i) => addDays(range.from, i));
    // Where each counted day starts: the previous range counts as one, then each day of the range.
    const bounds = [previous.from, ...dayList, addDays(range.to, 1)].map((day) => startOfDay(day, timeZone));
    const figures = await salesFigures(ctx.em, bounds, parts.topProducts);
    const before = figures.spans.get(1) ?? EMPTY;
    const ofDay = new Map(dayList.map((day, i) => [day, figures.spans.get(i + 2) ?? EMPTY]));

    const periods = salesPeriods(range, bucket).map(({ from, to }) => {
      let f = EMPTY;
      for (let day = from; day <= to; day = addDays(day, 1)) f = add(f, ofDay.get(day)!);
      return { from, to, gross: fromCents(f.gross), refunds: fromCents(f.refunds), net: fromCents(f.gross - f.refunds), orders: f.orders, averageOrder: fromCents(average(f)), cardsSent: f.sent, cardsOpened: f.opened };
    });
    const all = [...ofDay.values()].reduce(add, EMPTY);
    return {
      timeZone,
      since: bounds[1]!,
      from: range.from,
      to: range.to,
      dayCount: range.days,
      bucket,
      previousFrom: previous.from,
      previousTo: previous.to,
      totals: {
        gross: money(all.gross, before.gross),
        refunds: money(all.refunds, before.refunds),
        net: money(all.gross - all.refunds, before.gross - before.refunds),
        orders: count(all.orders, before.orders),
        averageOrder: money(average(all), average(before)),
        cardsSent: count(all.sent, before.sent),
        cardsOpened: count(all.opened, before.opened),
      },
      periods,
      topProducts: figures.topProducts,
      promotions: figures.promotions,
      days: dayList.map((day) => {
        const f = ofDay.get(day)!;
        return { day, revenue: fromCents(f.gross - f.refunds), orders: f.kept };
      }),
      revenue: fromCents(all.gross - all.refunds),
      orders: all.kept,
      cardsSent: all.sent,
      cardsOpened: all.opened,
    };
  }
}
