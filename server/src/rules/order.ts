/**
 * An order's number as the shopper sees it: on the confirmation page, in My orders and in every
 * e-mail about the order. It is the first eight characters of the order's UUID in capitals, so the
 * admin's order search (which matches the id) finds the order from it.
 */
export const orderNumber = (orderId: string): string => orderId.slice(0, 8).toUpperCase();

/** A line of an order as a refund sees it. */
export interface RefundLine {
  id: number;
  /** Two decimals ("4.50"). */
  price: string;
  quantity: number;
  /** Set once the line was refunded. */
  refundedAt?: Date | string | null;
}

const cents = (amount: string): number => Math.round(Number(amount) * 100);
const amount = (value: number): string => (value / 100).toFixed(2);

/**
 * What refunding some lines of an order gives back: their share of what was charged (a discount is
 * spread over the lines in proportion), and, when they are the last lines standing, exactly what is
 * left, so that the refunds of an order always add up to its total to the cent. The server refunds
 * this amount; Order Details shows it before the admin confirms.
 */
export function refundAmount(order: { total: string; refundedAmount: string }, items: readonly RefundLine[], chosen: ReadonlySet<number>): string {
  const total = cents(order.total);
  const left = total - cents(order.refundedAmount);
  const standing = items.filter((item) => !item.refundedAt);
  if (standing.every((item) => chosen.has(item.id))) return amount(left);
  const linesOf = (lines: readonly RefundLine[]) => lines.reduce((sum, item) => sum + cents(item.price) * item.quantity, 0);
  const subtotal = linesOf(items);
  return amount(subtotal === 0 ? 0 : Math.min(left, Math.round((linesOf(standing.filter((item) => chosen.has(item.id))) * total) / subtotal)));
}
