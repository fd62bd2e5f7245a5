import { orderNumber } from '../../rules/index.js';
import { button, DEFAULT_SHOP_IDENTITY, heading, mjml, paragraph, renderEmail, type MailContent, type ShopIdentity } from '../mail/index.js';

/** What a refund notice says: the order, the amount given back and what it was for. */
export interface RefundNotice {
  orderId: string;
  amount: string;
  lines: string[];
}

/** "Tell the customer": the purchaser's notice of a refund (the reason stays with the shop). */
export function refundEmail(to: string, notice: RefundNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const number = orderNumber(notice.orderId);
  const subject = `Your refund for order ${number}`;
  const link = `${baseUrl}/order-confirmation/${notice.orderId}`;
  const why = `You receive this e-mail because you placed order ${number} at ${shop.name} with this address.`;
  return renderEmail({
    to,
    subject,
    preview: `We refunded $${notice.amount} to the card you paid with.`,
    body: mjml`${heading(subject)}
${paragraph(mjml`We refunded <strong>$${notice.amount}</strong> to the card you paid with, for: ${notice.lines.join('; ')}.`)}
${paragraph('Banks usually show a refund within 5 to 10 working days. Refunded cards that were not sent yet will not be sent; a card already opened says it was withdrawn.')}
${button('See your order', link)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\nWe refunded $${notice.amount} to the card you paid with, for: ${notice.lines.join('; ')}.\n\nBanks usually show a refund within 5 to 10 working days. Refunded cards that were not sent yet will not be sent; a card already opened says it was withdrawn.\n\nSee your order: ${link}\n\n${why}`,
    shop,
  });
}
