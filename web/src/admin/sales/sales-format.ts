import type { Intent } from '@blueprintjs/core';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const wholeDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const compactDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });

/** An amount as the totals show it: $1,234.50. */
export const money = (amount: string | number) => dollars.format(Number(amount));

/** An amount on the chart's axis: $0, $250, $1.5K. */
export const axisMoney = (amount: number) => (amount >= 10_000 ? compactDollars.format(amount) : wholeDollars.format(amount));

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** A day on the chart and in tables: "Mar 9" (with the year when asked). */
export const shortDay = (day: string, withYear = false) => asDate(day).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: withYear ? 'numeric' : undefined, timeZone: 'UTC' });

/** A range of days: "Mar 9 – Mar 15, 2026", or "Dec 16, 2025 – Mar 15, 2026" across a new year. */
export function dayRange(from: string, to: string): string {
  if (from === to) return shortDay(from, true);
  return from.slice(0, 4) === to.slice(0, 4) ? `${shortDay(from)} – ${shortDay(to, true)}` : `${shortDay(from, true)} – ${shortDay(to, true)}`;
}

/** "the previous 30 days" (the range each total is compared with). */
export const previousLabel = (days: number) => `the previous ${days === 1 ? 'day' : `${days} days`}`;

export interface ChangeView {
  /** What the card shows: "▲ 12.5%", "▼ 3%", "New", "No change". */
  text: string;
  /** What a screen reader says: "up 12.5% from the previous 30 days". */
  spoken: string;
  intent: Intent;
}

/**
 * How a total moved from the previous range. Up is good news except for refunds (`upIsBad`); a
 * change from nothing has no percentage.
 */
export function changeView(change: number | null, value: number, previous: number, dayCount: number, upIsBad = false): ChangeView {
  const since = previousLabel(dayCount);
  if (change === null) {
    return value === 0 ? { text: 'No change', spoken: `none, as in ${since}`, intent: 'none' } : { text: 'New', spoken: `none in ${since}`, intent: upIsBad ? 'danger' : 'success' };
  }
  if (change === 0 || value === previous) return { text: 'No change', spoken: `no change from ${since}`, intent: 'none' };
  const percent = `${Math.abs(change).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
  const up = change > 0;
  return { text: `${up ? '▲' : '▼'} ${percent}`, spoken: `${up ? 'up' : 'down'} ${percent} from ${since}`, intent: up !== upIsBad ? 'success' : 'danger' };
}
