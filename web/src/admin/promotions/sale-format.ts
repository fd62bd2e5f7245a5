import { dayIn, timeIn, zonedTime } from '@rules';
import type { Intent } from '@blueprintjs/core';
import type { SaleState } from '../../apollo/generated/graphql';
import { money } from '../orders/order-format';

/** What a sale takes off: "25% off" or "$3.00 off" (as Discounts says it of a code). */
export const saleAmount = (sale: { percentOff?: number | null; amountOff?: string | null }) =>
  sale.percentOff !== null && sale.percentOff !== undefined ? `${sale.percentOff}% off` : `${money(sale.amountOff ?? '0')} off`;

export const STATE_LABEL: Record<SaleState, string> = { SCHEDULED: 'Scheduled', RUNNING: 'Running', ENDED: 'Ended' };
export const STATE_INTENT: Record<SaleState, Intent> = { SCHEDULED: 'primary', RUNNING: 'success', ENDED: 'none' };

/**
 * Sales start and end by the shop's clock (Settings → time zone), wherever the owner happens to be:
 * the screen reads and writes every time in that zone and says which it is.
 */
export const toZonedInput = (iso: string | null | undefined, timeZone: string) => {
  if (!iso) return '';
  const instant = new Date(iso);
  return `${dayIn(instant, timeZone)}T${timeIn(instant, timeZone)}`;
};

/** A datetime-local value ("2026-05-01T09:00") read in the shop's zone, as an ISO instant; null when empty or not a time. */
export const fromZonedInput = (value: string, timeZone: string): string | null => {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return match ? zonedTime(match[1]!, match[2]!, timeZone).toISOString() : null;
};

const formats = new Map<string, Intl.DateTimeFormat>();
/** "May 1, 2026, 9:00 AM" in the shop's zone. */
export const zonedDateTime = (iso: string, timeZone: string) => {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
    formats.set(timeZone, format);
  }
  return format.format(new Date(iso));
};

/** The shop's zone as a reader knows it: "UTC", "Europe/Berlin (GMT+2)". */
export const zoneLabel = (timeZone: string, at = new Date()) => {
  if (timeZone === 'UTC') return 'UTC';
  const offset = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
  return offset ? `${timeZone} (${offset})` : timeZone;
};
