import type { Product } from '../catalogue/index.js';
import { badInput } from '../../core/errors.js';
import { fromCents, multiply, sum, toCents } from '../../core/money.js';
import { parseInput } from '../../core/input.js';
import { giftCardAmountSchema, QUANTITY_MESSAGE } from '../../rules/schemas.js';
import type { AppliedDiscount, Basket } from '../discount/index.js';
import { MAX_QUANTITY, type CartLine } from './checkout-rules.js';
import type { GiftPlan } from './priced-products.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  giftCardLine: { id: 'error.cart.giftCardLine', defaultMessage: 'A gift card line is one card: add the gift card again for another one.' },
  giftMembershipLine: { id: 'error.cart.giftMembershipLine', defaultMessage: 'A gift membership line is one gift: add it again for another one.' },
  planGone: { id: 'error.cart.planGone', defaultMessage: 'This plan is not offered any more: choose another one.' },
});

export interface CartQuoteLine<P = Product> {
  index: number;
  product: P;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
  /** An e-greeting card: its quantity counts its recipients. */
  isCard: boolean;
  /** A gift card: one card of the amount its personalisation names. */
  isGiftCard: boolean;
  /** A gift membership: one period of the plan its personalisation names, at the plan's price. */
  isGiftMembership?: boolean;
  /** The plan a gift membership gives. */
  giftPlan?: { id: number; name: string; period: 'month' | 'year' } | null;
  giftPlanName?: string | null;
  /** What a membership did to its price ("Included in your membership", "Members: 10 % off"); null: nothing. */
  memberNote?: string | null;
  /** Its unit price before the membership's benefit (when it had one). */
  regularUnitPrice?: string | null;
}

export interface CartQuote<P = Product> {
  lines: CartQuoteLine<P>[];
  droppedProductIds: number[];
  /** The lines together, before a discount. */
  subtotal: string;
  /** What the discount took off ("0.00" without one): a code's or an automatic discount's, the better. */
  discount: string;
  /** The code, when a code's discount applied. */
  discountCode: string | null;
  /** The discount that applied, by name (the code, or the automatic discount's name). */
  discountName: string | null;
  discountKind: AppliedDiscount['kind'] | null;
  total: string;
  itemCount: number;
  /** The membership that priced it, when the shopper is a member. */
  membership?: { id: number; name: string } | null;
  membershipName?: string | null;
}

/** What a membership gives at checkout (see MemberBenefits). */
export interface PricingBenefits {
  membershipId: number;
  planName: string;
  ecardsIncluded: boolean;
  percentOffOther: number;
}

/** The note of a line whose e-card a membership includes. */
export const INCLUDED = 'Included in your membership';

/** Prices the lines at each product's `price`: what it sells for at this moment (a running sale's price, see priced-products.ts). */
export function priceLines<P extends { id: number; name: string }>(lines: CartLine[], products: Map<number, { product: P; isCard: boolean; isGiftCard?: boolean; isGiftMembership?: boolean; plans?: Map<number, GiftPlan> | null; price: string }>, benefits: PricingBenefits | null = null): CartQuote<P> {
  const priced: CartQuoteLine<P>[] = [];
  const dropped = new Set<number>();
  lines.forEach((line, index) => {
    const { product, isCard, isGiftCard = false, isGiftMembership = false, plans, price } = products.get(line.productId) ?? {};
    if (!product) dropped.add(line.productId);
    // A card line's quantity counts its recipients (up to 100); anything else is 1 to 99 copies.
    else if (!isCard && line.quantity > MAX_QUANTITY) throw badInput(QUANTITY_MESSAGE, `lines.${index}.quantity`);
    else if (isGiftCard) {
      // One gift card per line, at the amount chosen (the product's price until one is).
      if (line.quantity !== 1) throw badInput(refusals.giftCardLine, `lines.${index}.quantity`);
      const amount = giftCardAmount(line, index) ?? price!;
      priced.push({ index, product, quantity: 1, unitPrice: amount, lineTotal: amount, isCard: false, isGiftCard: true });
    } else if (isGiftMembership) {
      // One gift per line, at the price of the plan it gives (no membership's percentage: it is a plan's price).
      if (line.quantity !== 1) throw badInput(refusals.giftMembershipLine, `lines.${index}.quantity`);
      const planId = Number((line.personalisation as { planId?: unknown } | null)?.planId);
      const plan = plans?.get(planId);
      if (!plan) throw badInput(refusals.planGone, `lines.${index}.personalisation.planId`);
      priced.push({ index, product, quantity: 1, unitPrice: plan.price, lineTotal: plan.price, isCard: false, isGiftCard: false, isGiftMembership: true, giftPlan: { id: planId, name: plan.name, period: plan.period }, giftPlanName: plan.name });
    } else {
      // A member's e-cards cost nothing; everything else (not gift cards) gets the plan's percentage.
      const member = benefits && (isCard ? (benefits.ecardsIncluded ? { unit: '0.00', note: INCLUDED } : null) : benefits.percentOffOther > 0 ? { unit: percentOff(price!, benefits.percentOffOther), note: `Members: ${benefits.percentOffOther} % off` } : null);
      const unitPrice = member?.unit ?? price!;
      priced.push({ index, product, quantity: line.quantity, unitPrice, lineTotal: multiply(unitPrice, line.quantity), isCard: isCard!, isGiftCard: false, memberNote: member?.note ?? null, regularUnitPrice: member ? price! : null });
    }
  });
  const total = sum(priced.map((line) => line.lineTotal));
  return {
    lines: priced,
    droppedProductIds: [...dropped],
    subtotal: total,
    discount: '0.00',
    discountCode: null,
    discountName: null,
    discountKind: null,
    total,
    itemCount: priced.reduce((count, line) => count + line.quantity, 0),
    membership: benefits ? { id: benefits.membershipId, name: benefits.planName } : null,
    membershipName: benefits?.planName ?? null,
  };
}

/** A price less a whole percentage, to the cent (half a cent away from zero). */
const percentOff = (price: string, percent: number): string => fromCents(Math.round((toCents(price) * (100 - percent)) / 100));

/** A gift card line's amount as its personalisation names it (null when it names none yet). */
function giftCardAmount(line: CartLine, index: number): string | null {
  const amount = (line.personalisation as { amount?: unknown } | null)?.amount;
  if (amount === undefined || amount === null || amount === '') return null;
  return parseInput(giftCardAmountSchema, amount, `lines.${index}.personalisation.amount`);
}

/** The quote with the discount it gets (none: as it is). */
export function withDiscount<P>(quote: CartQuote<P>, applied: AppliedDiscount | null): CartQuote<P> {
  if (!applied) return quote;
  return { ...quote, discountCode: applied.code, discountName: applied.name, discountKind: applied.kind, discount: applied.amount, total: fromCents(toCents(quote.subtotal) - toCents(applied.amount)) };
}

/**
 * The quote as the discounts read it: each line's product, its category, whether it is a card, and
 * its total. Gift cards are money, not merchandise: no discount takes anything off them, and they
 * count towards no minimum.
 */
export function basketOf<P extends { id: number; categoryId: number }>(quote: CartQuote<P>): Basket {
  const lines = quote.lines.filter((line) => !line.isGiftCard);
  const subtotal = lines.length === quote.lines.length ? quote.subtotal : sum(lines.map((line) => line.lineTotal));
  return { subtotal, lines: lines.map((line) => ({ productId: line.product.id, categoryId: line.product.categoryId, isCard: line.isCard, quantity: line.quantity, lineTotal: line.lineTotal })) };
}
