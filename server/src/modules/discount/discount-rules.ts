import { parseInput } from '../../core/input.js';
import { MAX_DISCOUNT_CODE_LENGTH } from '../../rules/index.js';
import { automaticDiscountFieldsSchema, discountCodeSchema, discountFieldsSchema } from '../../rules/schemas.js';
import { parsePrice } from '../catalogue/index.js';
import { defineMessages } from '@formatjs/intl';
import { said, type ErrorText } from '../../core/errors.js';
import { priceIn } from '../../i18n/intl.js';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  notYet: { id: 'error.discount.notYet', defaultMessage: 'This discount code is not valid yet.' },
  expired: { id: 'error.discount.expired', defaultMessage: 'This discount code has expired.' },
  usedUp: { id: 'error.discount.usedUp', defaultMessage: 'This discount code has been used up.' },
  minSubtotal: { id: 'error.discount.minSubtotal', defaultMessage: 'This code needs a subtotal of at least {amount}.' },
  products: { id: 'error.discount.products', defaultMessage: 'This code applies to none of the products in your cart.' },
  usedByCustomer: { id: 'error.discount.usedByCustomer', defaultMessage: 'This code can be used once per customer, and you have used it.' },
  firstOrder: { id: 'error.discount.firstOrder', defaultMessage: 'This code is for a first order only.' },
  unknown: { id: 'error.discount.unknown', defaultMessage: 'There is no such discount code.' },
  unusable: { id: 'error.discount.unusable', defaultMessage: 'This discount code cannot be used: it is unknown, not valid yet, expired or used up.' },
  oneAtATime: { id: 'error.discount.oneAtATime', defaultMessage: 'Only one discount code can be tried at a time.' },
});

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
export function unusableReason(code: { startsAt: Date | null; endsAt: Date | null; maxUses: number | null; uses: number }, now: Date): ErrorText | null {
  if (code.startsAt && code.startsAt > now) return refusals.notYet;
  if (code.endsAt && code.endsAt <= now) return refusals.expired;
  if (code.maxUses !== null && code.uses >= code.maxUses) return refusals.usedUp;
  return null;
}

/** Why a code's rules refuse a cart (the shopper hears it at checkout when signed in). */
export const NOT_APPLICABLE = {
  minSubtotal: (amount: string): ErrorText => said(refusals.minSubtotal, { amount: priceIn(amount) }),
  products: refusals.products as ErrorText,
  usedByCustomer: refusals.usedByCustomer as ErrorText,
  firstOrder: refusals.firstOrder as ErrorText,
} as const;

export const UNKNOWN_CODE: ErrorText = refusals.unknown;
/** What an anonymous caller hears of any code that cannot be used, so that guessing learns nothing of why. */
export const UNUSABLE_CODE: ErrorText = refusals.unusable;
/** Asked for a second code in one request. */
export const ONE_CODE_AT_A_TIME: ErrorText = refusals.oneAtATime;
