import type { Product } from '../catalogue/index.js';
import { badInput } from '../../core/errors.js';
import { fromCents, multiply, sum, toCents } from '../../core/money.js';
import { QUANTITY_MESSAGE } from '../../rules/schemas.js';
import { MAX_QUANTITY, type CartLine } from './checkout-rules.js';

export interface CartQuoteLine<P = Product> {
  index: number;
  product: P;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
}

export interface CartQuote<P = Product> {
  lines: CartQuoteLine<P>[];
  droppedProductIds: number[];
  /** The lines together, before a discount. */
  subtotal: string;
  /** What the discount code took off ("0.00" without one). */
  discount: string;
  discountCode: string | null;
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
    else priced.push({ index, product, quantity: line.quantity, unitPrice: price!, lineTotal: multiply(price!, line.quantity) });
  });
  const total = sum(priced.map((line) => line.lineTotal));
  return {
    lines: priced,
    droppedProductIds: [...dropped],
    subtotal: total,
    discount: '0.00',
    discountCode: null,
    total,
    itemCount: priced.reduce((count, line) => count + line.quantity, 0),
  };
}

export function withDiscount<P>(quote: CartQuote<P>, applied: { code: string; amount: string }): CartQuote<P> {
  return { ...quote, discountCode: applied.code, discount: applied.amount, total: fromCents(toCents(quote.subtotal) - toCents(applied.amount)) };
}
