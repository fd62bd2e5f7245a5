import { pageIntl } from '../../i18n/page-intl';

/** A price from the shop ("12.5" or "12.50") as shoppers of the page's language read it: "$12.50", "12,50 $" in German. */
export function formatPrice(amount: string | number): string {
  const value = typeof amount === 'number' ? amount : Number(amount);
  return Number.isFinite(value) ? pageIntl().formatNumber(value, { style: 'currency', currency: 'USD' }) : `$${amount}`;
}

/** A whole amount of dollars, as a choice of amounts offers it: "$25", "25 $" in German. */
export const formatWholePrice = (dollars: number): string => pageIntl().formatNumber(dollars, { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });

/** The price of a line: a unit price times a count, in whole cents (no float drift: 3 × 4.49 is 13.47). */
export function lineTotal(price: string, count: number): string {
  return ((Math.round(Number(price) * 100) * count) / 100).toFixed(2);
}

/**
 * How the shopper sees the discount a cart or an order got: a code as "Discount (SPRING10)", an
 * automatic discount by its name ("3 cards, 15 % off"). Null without one.
 */
export function discountLabel(discount: { discountCode?: string | null; discountName?: string | null; discount?: string | null; discountAmount?: string | null }): string | null {
  const amount = Number(discount.discount ?? discount.discountAmount ?? 0);
  if (!(amount > 0)) return null;
  if (discount.discountCode) return pageIntl().formatMessage({ id: 'price.discount.code', defaultMessage: 'Discount ({code})' }, { code: discount.discountCode });
  return discount.discountName ?? pageIntl().formatMessage({ id: 'price.discount', defaultMessage: 'Discount' });
}

/** A line a membership priced: its total at the regular price, shown struck through (null: the membership did not change it). */
export const regularLineTotal = (line: { quantity: number; regularUnitPrice?: string | null }) => (line.regularUnitPrice ? lineTotal(line.regularUnitPrice, line.quantity) : null);

/**
 * What a membership saved on a priced cart: each line it changed at its regular price, less what the
 * line costs now, in whole cents ("5.70"; "0.00" for a shopper who is not a member).
 */
export function membershipSaving(lines: readonly { quantity: number; lineTotal: string; regularUnitPrice?: string | null }[]): string {
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  const saved = lines.reduce((sum, line) => sum + (line.regularUnitPrice ? cents(lineTotal(line.regularUnitPrice, line.quantity)) - cents(line.lineTotal) : 0), 0);
  return (saved / 100).toFixed(2);
}

/** A gift card as shoppers read it: "Gift card ····7KQX". */
export const giftCardName = (last4: string) => pageIntl().formatMessage({ id: 'price.giftCard.name', defaultMessage: 'Gift card ····{last4}' }, { last4 });

/** What a gift card holding `balance` pays of `total`, and what is left for the card, in whole cents. */
export function giftCardSplit(total: string, balance: string): { giftCard: string; card: string } {
  const due = Math.round(Number(total) * 100);
  const pays = Math.min(due, Math.max(Math.round(Number(balance) * 100), 0));
  return { giftCard: (pays / 100).toFixed(2), card: ((due - pays) / 100).toFixed(2) };
}

/**
 * How an order was paid when a gift card paid part or all of it: the card's name ("Gift card ····7KQX"),
 * what it paid and what the card was charged. Null for an order without one.
 */
export function paidWithGiftCard(order: { giftCardAmount: string; giftCardLast4?: string | null; chargedAmount: string }): { label: string; giftCard: string; card: string } | null {
  if (!(Number(order.giftCardAmount) > 0)) return null;
  return { label: order.giftCardLast4 ? giftCardName(order.giftCardLast4) : pageIntl().formatMessage({ id: 'price.giftCard', defaultMessage: 'Gift card' }), giftCard: order.giftCardAmount, card: order.chargedAmount };
}
