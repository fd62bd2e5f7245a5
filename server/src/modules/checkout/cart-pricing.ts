import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors.js';
import { fromCents, multiply, sum, toCents } from '../../core/money.js';
import { QUANTITY_MESSAGE } from '../../rules/schemas.js';
import { E_GREETING_CARD_TYPE_ID, Product, ProductStatus } from '../catalogue/index.js';
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

/** The products of the lines (a cart's quote shows them with their images). */
export async function quoteProducts(em: EntityManager, lines: CartLine[]): Promise<Map<number, { product: Product; isCard: boolean }>> {
  const ids = [...new Set(lines.map((line) => line.productId))];
  if (!ids.length) return new Map();
  // A product that left the shop (deleted, a draft, archived) is dropped from the quote.
  const products = await em.find(Product, { id: { $in: ids }, status: ProductStatus.ACTIVE }, { populate: ['mainImage'] });
  return new Map(products.map((product) => [product.id, { product, isCard: product.type.id === E_GREETING_CARD_TYPE_ID }]));
}

export function priceLines<P extends { id: number; name: string; price: string }>(lines: CartLine[], products: Map<number, { product: P; isCard: boolean }>): CartQuote<P> {
  const priced: CartQuoteLine<P>[] = [];
  const dropped = new Set<number>();
  lines.forEach((line, index) => {
    const { product, isCard } = products.get(line.productId) ?? {};
    if (!product) dropped.add(line.productId);
    // A card line's quantity counts its recipients (up to 100); anything else is 1 to 99 copies.
    else if (!isCard && line.quantity > MAX_QUANTITY) throw badInput(QUANTITY_MESSAGE, `lines.${index}.quantity`);
    else priced.push({ index, product, quantity: line.quantity, unitPrice: product.price, lineTotal: multiply(product.price, line.quantity) });
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
