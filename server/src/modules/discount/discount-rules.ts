import { fromCents, toCents } from '../../core/money.js';
import { parseInput } from '../../core/input.js';
import { MAX_DISCOUNT_CODE_LENGTH } from '../../rules/index.js';
import { discountCodeSchema, discountFieldsSchema } from '../../rules/schemas.js';
import { parsePrice } from '../catalogue/index.js';

export const MAX_CODE_LENGTH = MAX_DISCOUNT_CODE_LENGTH;

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
  return parseInput(discountCodeSchema, value, field);
}

/** An optional code from the checkout: empty is none. */
export function optionalCode(value: unknown, field = 'discountCode'): string | null {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return null;
  return cleanCode(value, field);
}

/** The fields of a discount code; exactly one of percentOff and amountOff (an amount is a price). */
export function cleanDiscountInput(raw: Record<string, unknown>): DiscountInput {
  const input = parseInput(discountFieldsSchema, raw);
  const hasPercent = typeof input.percentOff === 'number';
  return {
    code: input.code,
    percentOff: hasPercent ? (input.percentOff as number) : null,
    amountOff: hasPercent ? null : parsePrice(input.amountOff, 'amountOff'),
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    maxUses: input.maxUses,
  };
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
/** What an anonymous caller hears of any code that cannot be used, so that guessing learns nothing of why. */
export const UNUSABLE_CODE = 'This discount code cannot be used: it is unknown, not valid yet, expired or used up.';
