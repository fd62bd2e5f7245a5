import type { Product } from '../catalogue/index.js';
import { badInput } from '../../core/errors.js';
import { fromCents, multiply, sum, toCents } from '../../core/money.js';
import { QUANTITY_MESSAGE } from '../../rules/schemas.js';
import type { AppliedDiscount, Basket } from '../discount/index.js';
import { MAX_QUANTITY, type CartLine } from './checkout-rules.js';

export interface CartQuoteLine<P = Product> {
  index: number;
  product: P;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
  /** An e-greeting card: its quantity counts its recipients. */
  isCard: boolean;
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
}

/** Prices the lines at each product's `price`: what it sells for at this moment (a running sale's price, see priced-products.ts). */
export function priceLines<P extends { id: number; name: string }>(lines: CartLine[], products: Map<number, { product: P; isCard: boolean; price: string }>): CartQuote<P> {
  const priced: CartQuoteLine<P>[] = [];
  const dropped = new Set<number>();
  lines.forEach((line, index) => {
    const { product, isCard, price } = products.get(line.productId) ?? {};
    if (!product) dropped.add(line.productId);
    // A card line's quantity counts its recipients (up to 100); anything else is 1 to 99 copies.
    else if (!isCard && line.quantity > MAX_QUANTITY) throw badInput(QUANTITY_MESSAGE, `lines.${index}.quantity`);
    else priced.push({ index, product, quantity: line.quantity, unitPrice: price!, lineTotal: multiply(price!, line.quantity), isCard: isCard! });
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
  };
}

/** The quote with the discount it gets (none: as it is). */
export function withDiscount<P>(quote: CartQuote<P>, applied: AppliedDiscount | null): CartQuote<P> {
  if (!applied) return quote;
  return { ...quote, discountCode: applied.code, discountName: applied.name, discountKind: applied.kind, discount: applied.amount, total: fromCents(toCents(quote.subtotal) - toCents(applied.amount)) };
}

/** The quote as the discounts read it: each line's product, its category, whether it is a card, and its total. */
export function basketOf<P extends { id: number; categoryId: number }>(quote: CartQuote<P>): Basket {
  return { subtotal: quote.subtotal, lines: quote.lines.map((line) => ({ productId: line.product.id, categoryId: line.product.categoryId, isCard: line.isCard, quantity: line.quantity, lineTotal: line.lineTotal })) };
}
