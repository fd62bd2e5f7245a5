import { fromCents, toCents } from '../../core/money.js';
import { orderNumber } from '../../rules/index.js';
import { button, DEFAULT_SHOP_IDENTITY, heading, mjml, paragraph, renderEmail, type MailContent, type ShopIdentity } from '../mail/index.js';

/** What a refund notice says: the order, the amount given back and what it was for. */
export interface RefundNotice {
  orderId: string;
  amount: string;
  lines: string[];
  /** What of the amount went back on the gift card that paid the order (none: all to the card). */
  toGiftCard?: string;
  giftCardLast4?: string | null;
}

/** Where a refund went: the card, the gift card, or each its share. */
function refundedTo(notice: RefundNotice): { words: string; toCard: boolean } {
  const gift = toCents(notice.toGiftCard ?? '0.00');
  if (gift <= 0) return { words: `$${notice.amount} to the card you paid with`, toCard: true };
  const card = toCents(notice.amount) - gift;
  if (card <= 0) return { words: `$${notice.amount} to your gift card ending ${notice.giftCardLast4}`, toCard: false };
  return { words: `$${notice.amount}: $${fromCents(gift)} to your gift card ending ${notice.giftCardLast4} and $${fromCents(card)} to the card you paid with`, toCard: true };
}

/** "Tell the customer": the purchaser's notice of a refund (the reason stays with the shop). */
export function refundEmail(to: string, notice: RefundNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const number = orderNumber(notice.orderId);
  const subject = `Your refund for order ${number}`;
  const link = `${baseUrl}/order-confirmation/${notice.orderId}`;
  const destination = refundedTo(notice);
  const banks = destination.toCard ? 'Banks usually show a refund within 5 to 10 working days. ' : '';
  const why = `You receive this e-mail because you placed order ${number} at ${shop.name} with this address.`;
  return renderEmail({
    to,
    subject,
    preview: `We refunded ${destination.words}.`,
    body: mjml`${heading(subject)}
${paragraph(mjml`We refunded <strong>$${notice.amount}</strong>${destination.words.slice(`$${notice.amount}`.length)}, for: ${notice.lines.join('; ')}.`)}
${paragraph(`${banks}Refunded cards that were not sent yet will not be sent; a card already opened says it was withdrawn.`)}
${button('See your order', link)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\nWe refunded ${destination.words}, for: ${notice.lines.join('; ')}.\n\n${banks}Refunded cards that were not sent yet will not be sent; a card already opened says it was withdrawn.\n\nSee your order: ${link}\n\n${why}`,
    shop,
  });
}
