/**
 * The ranges of the Sales view (contract section 16): the last 7, 30, 90 or 365 days (today
 * included), or any days from–to, both included, at most SALES_MAX_DAYS of them; figures per day or
 * per week. Days are YYYY-MM-DD in the admin's time zone. The server checks a range with these and
 * the screen offers the same choices, so both say the same thing about a range.
 */
import { addDays, isDay } from './delivery.js';

/** The ranges the screen offers, in days ending today. */
export const SALES_PRESET_DAYS = [7, 30, 90, 365] as const;
/** What Sales shows when no range is asked for. */
export const SALES_DEFAULT_DAYS = 30;
/** The longest range: a whole leap year, so any calendar year fits. */
export const SALES_MAX_DAYS = 366;
/** No range starts earlier (the shop sold nothing before). */
export const SALES_EARLIEST_DAY = '2000-01-01';

export type SalesBucketKind = 'DAY' | 'WEEK';

export interface SalesRange {
  from: string;
  to: string;
  /** How many days, both ends counted. */
  days: number;
}

export interface SalesRangeProblem {
  field: 'from' | 'to' | 'days';
  message: string;
}

/** A bar of the chart and a line of the CSV: its first and last day (a week cut by the range's ends is shorter). */
export interface SalesPeriodDays {
  from: string;
  to: string;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/** Days from `from` to `to`, both counted. */
export const dayCount = (from: string, to: string): number => dayNumber(to) - dayNumber(from) + 1;

/** The last `days` days, today included. */
export const lastDays = (days: number, today: string): SalesRange => ({ from: addDays(today, 1 - days), to: today, days });

/**
 * The range asked for: `days` (the last so many, today included), or `from` and `to`, or neither
 * (the last 30 days). What is wrong with it names the argument at fault.
 */
export function salesRange(input: { from?: string | null; to?: string | null; days?: number | null }, today: string): SalesRange | SalesRangeProblem {
  const from = input.from?.trim() || null;
  const to = input.to?.trim() || null;
  const days = input.days ?? null;
  if (days !== null) {
    if (from || to) return { field: 'days', message: 'Ask for the last days or for days from–to, not both.' };
    if (!Number.isInteger(days) || days < 1 || days > SALES_MAX_DAYS) return { field: 'days', message: `Ask for 1 to ${SALES_MAX_DAYS} days.` };
    return lastDays(days, today);
  }
  if (!from && !to) return lastDays(SALES_DEFAULT_DAYS, today);
  if (!from) return { field: 'from', message: 'Choose the first day too.' };
  if (!to) return { field: 'to', message: 'Choose the last day too.' };
  if (!isDay(from)) return { field: 'from', message: 'Write the first day as YYYY-MM-DD.' };
  if (!isDay(to)) return { field: 'to', message: 'Write the last day as YYYY-MM-DD.' };
  if (from < SALES_EARLIEST_DAY) return { field: 'from', message: `Start on ${SALES_EARLIEST_DAY} or later.` };
  if (from > today) return { field: 'from', message: 'Start today at the latest.' };
  if (to > today) return { field: 'to', message: 'End today at the latest.' };
  if (to < from) return { field: 'to', message: 'End on the first day or after it.' };
  const count = dayCount(from, to);
  if (count > SALES_MAX_DAYS) return { field: 'to', message: `A range is at most ${SALES_MAX_DAYS} days.` };
  return { from, to, days: count };
}

export const isRangeProblem = (value: SalesRange | SalesRangeProblem): value is SalesRangeProblem => 'field' in value;

/** The range of the same length just before: what each figure is compared with. */
export const previousRange = (range: SalesRange): SalesRange => ({ from: addDays(range.from, -range.days), to: addDays(range.from, -1), days: range.days });

/** Monday of the week a day is in (weeks run Monday to Sunday, as ISO 8601 and PostgreSQL count them). */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The periods of a range: each day, or each week (Monday to Sunday) cut to the range's first and last day. */
export function salesPeriods(range: SalesRange, bucket: SalesBucketKind): SalesPeriodDays[] {
  const periods: SalesPeriodDays[] = [];
  let from = range.from;
  while (from <= range.to) {
    const end = bucket === 'DAY' ? from : addDays(weekStart(from), 6);
    const to = end < range.to ? end : range.to;
    periods.push({ from, to });
    from = addDays(to, 1);
  }
  return periods;
}

/** A change in percent from `previous` to `value`, to one decimal; null when there was nothing before to compare with. */
export function percentChange(value: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((value - previous) / Math.abs(previous)) * 1000) / 10;
}
