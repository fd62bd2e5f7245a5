/**
 * How the shopper sees the discount a cart or an order got: a code as "Discount (SPRING10)", an
 * automatic discount by its name ("3 cards, 15 % off"). Null without one.
 */
export function discountLabel(discount: { discountCode?: string | null; discountName?: string | null; discount?: string | null; discountAmount?: string | null }): string | null {
  const amount = Number(discount.discount ?? discount.discountAmount ?? 0);
  if (!(amount > 0)) return null;
  if (discount.discountCode) return `Discount (${discount.discountCode})`;
  return discount.discountName ?? 'Discount';
}
