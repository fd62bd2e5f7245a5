import { badInput } from '../../core/errors.js';
import { fromCents, toCents } from '../../core/money.js';
import { parsePrice } from '../catalogue/product-rules.js';

export const MAX_CODE_LENGTH = 40;
const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/;

export interface DiscountInput {
  code: string;
  percentOff: number | null;
  amountOff: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
}

/** A code as a shopper or an admin typed it: 2 to 40 letters, digits, "-" or "_". */
export function cleanCode(value: unknown, field = 'code'): string {
  const code = typeof value === 'string' ? value.trim() : '';
  if (!CODE.test(code)) throw badInput(`A discount code is 2 to ${MAX_CODE_LENGTH} letters, digits, "-" or "_".`, field);
  return code;
}

/** An optional code from the checkout: empty is none. */
export function optionalCode(value: unknown, field = 'discountCode'): string | null {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return null;
  return cleanCode(value, field);
}

function optionalDate(value: unknown, field: string): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'string' || value instanceof Date ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw badInput('Please give a date and time (ISO 8601).', field);
  return date;
}

function optionalCount(value: unknown, field: string, what: string): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1_000_000_000) throw badInput(`${what} must be a whole number from 1.`, field);
  return value;
}

/** The fields of a discount code; exactly one of percentOff and amountOff. */
export function cleanDiscountInput(raw: Record<string, unknown>): DiscountInput {
  const code = cleanCode(raw.code);
  const hasPercent = raw.percentOff !== null && raw.percentOff !== undefined && raw.percentOff !== '';
  const hasAmount = raw.amountOff !== null && raw.amountOff !== undefined && raw.amountOff !== '';
  if (hasPercent === hasAmount) throw badInput('Give either a percentage or an amount off, not both.', hasPercent ? 'amountOff' : 'percentOff');
  let percentOff: number | null = null;
  let amountOff: string | null = null;
  if (hasPercent) {
    if (typeof raw.percentOff !== 'number' || !Number.isInteger(raw.percentOff) || raw.percentOff < 1 || raw.percentOff > 100) {
      throw badInput('The percentage off is a whole number from 1 to 100.', 'percentOff');
    }
    percentOff = raw.percentOff;
  } else {
    amountOff = parsePrice(raw.amountOff, 'amountOff');
  }
  const startsAt = optionalDate(raw.startsAt, 'startsAt');
  const endsAt = optionalDate(raw.endsAt, 'endsAt');
  if (startsAt && endsAt && endsAt <= startsAt) throw badInput('The end must be after the start.', 'endsAt');
  const maxUses = optionalCount(raw.maxUses, 'maxUses', 'The maximum uses');
  return { code, percentOff, amountOff, startsAt, endsAt, maxUses };
}

/** What a code takes off a subtotal: a percentage rounded to the cent, or an amount capped at the subtotal. */
export function discountOf(code: { percentOff: number | null; amountOff: string | null }, subtotal: string): string {
  const cents = toCents(subtotal);
  if (code.percentOff !== null) return fromCents(Math.round((cents * code.percentOff) / 100));
  return fromCents(Math.min(cents, toCents(code.amountOff ?? '0')));
}

/** Why a code cannot be used now, or null when it can. */
export function unusableReason(code: { startsAt: Date | null; endsAt: Date | null; maxUses: number | null; uses: number }, now: Date): string | null {
  if (code.startsAt && code.startsAt > now) return 'This discount code is not valid yet.';
  if (code.endsAt && code.endsAt <= now) return 'This discount code has expired.';
  if (code.maxUses !== null && code.uses >= code.maxUses) return 'This discount code has been used up.';
  return null;
}

export const UNKNOWN_CODE = 'There is no such discount code.';
