import { fromCents, toCents } from '../../core/money.js';

/** A priced cart line as the discounts read it. */
export interface BasketLine {
  productId: number;
  categoryId: number;
  /** An e-greeting card: its quantity counts its recipients, one card each. */
  isCard: boolean;
  quantity: number;
  lineTotal: string;
}

/** A priced cart as the discounts read it. */
export interface Basket {
  subtotal: string;
  lines: BasketLine[];
}

/** Who is buying, as far as it is known: the account (signed in) and the purchaser's address (at checkout). */
export interface Customer {
  userId: number | null;
  /** Normalised (lower case); null while only a cart is priced. */
  email: string | null;
}

export type DiscountKindName = 'code' | 'cards' | 'subtotal';

/** The discount a cart or an order gets. */
export interface AppliedDiscount {
  kind: DiscountKindName;
  /** The code as the shop spells it, or the automatic discount's name. */
  name: string;
  /** The code, when a code applied. */
  code: string | null;
  amount: string;
}

/** An automatic discount's terms. */
export interface AutomaticTerms {
  name: string;
  minCards: number | null;
  percentOff: number | null;
  minSubtotal: string | null;
  amountOff: string | null;
}

/** A code's terms of what it takes off. */
export interface CodeTerms {
  percentOff: number | null;
  amountOff: string | null;
  productIds: readonly number[];
  categoryIds: readonly number[];
}

/** The cards of a basket: how many (recipients) and what they cost together. */
export function cardsOf(basket: Basket): { count: number; cents: number } {
  const cards = basket.lines.filter((line) => line.isCard);
  return { count: cards.reduce((n, line) => n + line.quantity, 0), cents: cards.reduce((total, line) => total + toCents(line.lineTotal), 0) };
}

/** What an automatic discount takes off a basket (null when it does not apply). */
export function automaticAmount(terms: AutomaticTerms, basket: Basket): string | null {
  if (terms.minCards !== null && terms.percentOff !== null) {
    const cards = cardsOf(basket);
    if (cards.count < terms.minCards || cards.cents === 0) return null;
    return fromCents(Math.round((cards.cents * terms.percentOff) / 100));
  }
  const subtotal = toCents(basket.subtotal);
  if (terms.minSubtotal === null || terms.amountOff === null || subtotal === 0 || subtotal < toCents(terms.minSubtotal)) return null;
  return fromCents(Math.min(subtotal, toCents(terms.amountOff)));
}

/** The automatic discount that takes the most off (the first of equals), or null when none applies. */
export function bestAutomatic(discounts: readonly AutomaticTerms[], basket: Basket): AppliedDiscount | null {
  let best: AppliedDiscount | null = null;
  for (const terms of discounts) {
    const amount = automaticAmount(terms, basket);
    if (amount === null || toCents(amount) === 0) continue;
    if (!best || toCents(amount) > toCents(best.amount)) best = { kind: terms.minCards !== null ? 'cards' : 'subtotal', name: terms.name, code: null, amount };
  }
  return best;
}

/**
 * The lines a code takes its discount off: those of its products and of its categories (`categories`
 * holds them with their subcategories), or every line when it names neither.
 */
export function eligibleLines(code: Pick<CodeTerms, 'productIds' | 'categoryIds'>, categories: ReadonlySet<number>, basket: Basket): BasketLine[] {
  if (!code.productIds.length && !code.categoryIds.length) return basket.lines;
  return basket.lines.filter((line) => code.productIds.includes(line.productId) || categories.has(line.categoryId));
}

/** What a code takes off its lines: a percentage rounded to the cent, or an amount capped at their sum. */
export function codeAmount(code: Pick<CodeTerms, 'percentOff' | 'amountOff'>, lines: readonly BasketLine[]): string {
  const cents = lines.reduce((total, line) => total + toCents(line.lineTotal), 0);
  if (code.percentOff !== null) return fromCents(Math.round((cents * code.percentOff) / 100));
  return fromCents(Math.min(cents, toCents(code.amountOff ?? '0')));
}

/** The better of a code's discount and the best automatic one: a code does not add to an automatic discount; of equals, the automatic one (the code's use is kept). */
export function better(code: AppliedDiscount | null, automatic: AppliedDiscount | null): AppliedDiscount | null {
  if (!code) return automatic;
  if (!automatic) return code;
  return toCents(code.amount) > toCents(automatic.amount) ? code : automatic;
}
