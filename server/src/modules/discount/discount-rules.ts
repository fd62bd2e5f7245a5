import { parseInput } from '../../core/input.js';
import { MAX_DISCOUNT_CODE_LENGTH } from '../../rules/index.js';
import { automaticDiscountFieldsSchema, discountCodeSchema, discountFieldsSchema } from '../../rules/schemas.js';
import { parsePrice } from '../catalogue/index.js';

export const MAX_CODE_LENGTH = MAX_DISCOUNT_CODE_LENGTH;

export interface DiscountInput {
  code: string;
  percentOff: number | null;
  amountOff: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxUses: number | null;
  productIds: number[];
  categoryIds: number[];
  minSubtotal: string | null;
  oncePerCustomer: boolean;
  firstOrderOnly: boolean;
}

export interface AutomaticDiscountInput {
  name: string;
  minCards: number | null;
  percentOff: number | null;
  minSubtotal: string | null;
  amountOff: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
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
    productIds: [...new Set(input.productIds)],
    categoryIds: [...new Set(input.categoryIds)],
    minSubtotal: isBlank(input.minSubtotal) ? null : parsePrice(input.minSubtotal, 'minSubtotal'),
    oncePerCustomer: input.oncePerCustomer,
    firstOrderOnly: input.firstOrderOnly,
  };
}

/** The fields of an automatic discount: N or more cards and P % off them, or orders from X and Y off. */
export function cleanAutomaticInput(raw: Record<string, unknown>): AutomaticDiscountInput {
  const input = parseInput(automaticDiscountFieldsSchema, raw);
  const cards = typeof input.minCards === 'number';
  return {
    name: input.name,
    minCards: cards ? (input.minCards as number) : null,
    percentOff: cards ? (input.percentOff as number) : null,
    minSubtotal: cards ? null : parsePrice(input.minSubtotal, 'minSubtotal'),
    amountOff: cards ? null : parsePrice(input.amountOff, 'amountOff'),
    startsAt: input.startsAt,
    endsAt: input.endsAt,
  };
}

const isBlank = (value: unknown) => value === null || value === undefined || value === '';

/** Why a code cannot be used now, or null when it can. */
export function unusableReason(code: { startsAt: Date | null; endsAt: Date | null; maxUses: number | null; uses: number }, now: Date): string | null {
  if (code.startsAt && code.startsAt > now) return 'This discount code is not valid yet.';
  if (code.endsAt && code.endsAt <= now) return 'This discount code has expired.';
  if (code.maxUses !== null && code.uses >= code.maxUses) return 'This discount code has been used up.';
  return null;
}

/** Why a code's rules refuse a cart (the shopper hears it at checkout when signed in). */
export const NOT_APPLICABLE = {
  minSubtotal: (amount: string) => `This code needs a subtotal of at least $${amount}.`,
  products: 'This code applies to none of the products in your cart.',
  usedByCustomer: 'This code can be used once per customer, and you have used it.',
  firstOrder: 'This code is for a first order only.',
} as const;

export const UNKNOWN_CODE = 'There is no such discount code.';
/** What an anonymous caller hears of any code that cannot be used, so that guessing learns nothing of why. */
export const UNUSABLE_CODE = 'This discount code cannot be used: it is unknown, not valid yet, expired or used up.';
