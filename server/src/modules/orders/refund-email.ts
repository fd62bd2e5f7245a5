import { defineMessages } from '@formatjs/intl';
import { fromCents, toCents } from '../../core/money.js';
import { DEFAULT_LOCALE, localizedPath, orderNumber, type Locale } from '../../rules/index.js';
import { button, DEFAULT_SHOP_IDENTITY, heading, mjml, paragraph, renderEmail, wordsFor, type MailContent, type ShopIdentity, type Words } from '../mail/index.js';

/** What a refund notice says: the order, the amount given back and what it was for. */
export interface RefundNotice {
  orderId: string;
  amount: string;
  lines: string[];
  /** What of the amount went back on the gift card that paid the order (none: all to the card). */
  toGiftCard?: string;
  giftCardLast4?: string | null;
  /** The order's language (English when left out, as in notices queued before orders had one). */
  locale?: Locale;
}

const messages = defineMessages({
  toCard: { id: 'mail.refund.toCard', defaultMessage: '{amount} to the card you paid with' },
  toGiftCard: { id: 'mail.refund.toGiftCard', defaultMessage: '{amount} to your gift card ending {last4}' },
  split: { id: 'mail.refund.split', defaultMessage: '{amount}: {gift} to your gift card ending {last4} and {card} to the card you paid with' },
  toCardHtml: { id: 'mail.refund.sentence.toCard', defaultMessage: 'We refunded <b>{amount}</b> to the card you paid with, for: {lines}.' },
  toGiftCardHtml: { id: 'mail.refund.sentence.toGiftCard', defaultMessage: 'We refunded <b>{amount}</b> to your gift card ending {last4}, for: {lines}.' },
  splitHtml: { id: 'mail.refund.sentence.split', defaultMessage: 'We refunded <b>{amount}</b>: {gift} to your gift card ending {last4} and {card} to the card you paid with, for: {lines}.' },
  subject: { id: 'mail.refund.subject', defaultMessage: 'Your refund for order {number}' },
  preview: { id: 'mail.refund.preview', defaultMessage: 'We refunded {where}.' },
  banks: { id: 'mail.refund.banks', defaultMessage: 'Banks usually show a refund within 5 to 10 working days.' },
  cards: { id: 'mail.refund.cards', defaultMessage: 'Refunded cards that were not sent yet will not be sent; a card already opened says it was withdrawn.' },
  see: { id: 'mail.refund.see', defaultMessage: 'See your order' },
  seeText: { id: 'mail.refund.seeText', defaultMessage: 'See your order: {link}' },
  why: { id: 'mail.refund.why', defaultMessage: 'You receive this e-mail because you placed order {number} at {shop} with this address.' },
  line: { id: 'mail.refund.line', defaultMessage: '{card} to {recipient}' },
});

/** A refunded line as its notice names it: a card by its recipient, anything else by its quantity. */
export function refundLine(item: { name: string; quantity: number; recipientName: string | null }, locale?: Locale): string {
  return item.recipientName ? wordsFor(locale).text(messages.line, { card: item.name, recipient: item.recipientName }) : `${item.quantity} × ${item.name}`;
}

/** Where a refund went: the card, the gift card, or each its share (the words, and the sentence that says it). */
function refundedTo(notice: RefundNotice, words: Words) {
  const gift = toCents(notice.toGiftCard ?? '0.00');
  const values = { amount: words.price(notice.amount), last4: notice.giftCardLast4, lines: notice.lines.join('; ') };
  if (gift <= 0) return { where: words.text(messages.toCard, values), sentence: messages.toCardHtml, values, toCard: true };
  const card = toCents(notice.amount) - gift;
  if (card <= 0) return { where: words.text(messages.toGiftCard, values), sentence: messages.toGiftCardHtml, values, toCard: false };
  const split = { ...values, gift: words.price(fromCents(gift)), card: words.price(fromCents(card)) };
  return { where: words.text(messages.split, split), sentence: messages.splitHtml, values: split, toCard: true };
}

/** "Tell the customer": the purchaser's notice of a refund (the reason stays with the shop), in the order's language. */
export function refundEmail(to: string, notice: RefundNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const words = wordsFor(notice.locale);
  const number = orderNumber(notice.orderId);
  const subject = words.text(messages.subject, { number });
  const link = `${baseUrl}${localizedPath(notice.locale ?? DEFAULT_LOCALE, `/order-confirmation/${notice.orderId}`)}`;
  const destination = refundedTo(notice, words);
  const cards = words.text(messages.cards);
  const after = destination.toCard ? `${words.text(messages.banks)} ${cards}` : cards;
  const why = words.text(messages.why, { number, shop: shop.name });
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.preview, { where: destination.where }),
    body: mjml`${heading(subject)}
${paragraph(words.html(destination.sentence, destination.values))}
${paragraph(after)}
${button(words.text(messages.see), link)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${words.text(destination.sentence, destination.values)}\n\n${after}\n\n${words.text(messages.seeText, { link })}\n\n${why}`,
    shop,
    locale: notice.locale,
  });
}
