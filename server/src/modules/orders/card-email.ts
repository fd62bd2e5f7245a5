/** The e-mail that brings a card to its recipient, in the language of the card's order. */
import { defineMessages } from '@formatjs/intl';
import { html, SafeHtml } from '../../core/html.js';
import { DEFAULT_SHOP_IDENTITY, button, heading, mjml, paragraph, renderEmail, type MailContent, type MailTemplate, type ShopIdentity, wordsFor, type Locale, type Words } from '../mail/index.js';
import { ecardPath, type OrderItem } from './order-item.entity.js';

/** The address of a card's page, for e-mails. */
export const cardLink = (item: Pick<OrderItem, 'itemUrlUuid'>, baseUrl: string) => baseUrl + ecardPath(item.itemUrlUuid!);

const messages = defineMessages({
  someone: { id: 'mail.someone', defaultMessage: 'Someone' },
  recipientWhy: { id: 'mail.recipient.why', defaultMessage: 'You receive this e-mail because {from} sent you a card through {shop}.' },
  recipientUnsubscribe: { id: 'mail.recipient.unsubscribe', defaultMessage: 'To get no more cards or reminders from this shop, <link>unsubscribe</link>.' },
  recipientUnsubscribeText: { id: 'mail.recipient.unsubscribeText', defaultMessage: 'To get no more cards or reminders from this shop, unsubscribe: {url}' },
  cardSubject: { id: 'mail.card.subject', defaultMessage: '{from} sent you a card: {card}' },
  cardTestSubject: { id: 'mail.card.testSubject', defaultMessage: 'Test: {subject}' },
  cardPreview: { id: 'mail.card.preview', defaultMessage: '{from} sent you an e-greeting card with music.' },
  dear: { id: 'mail.card.dear', defaultMessage: 'Dear {name},' },
  cardSent: { id: 'mail.card.sent', defaultMessage: '{from} sent you an e-greeting card with music: <b>{card}</b>.' },
  openCard: { id: 'mail.card.open', defaultMessage: 'Open your card' },
  openCardText: { id: 'mail.card.openText', defaultMessage: 'Open your card: {link}' },
  paste: { id: 'mail.card.paste', defaultMessage: 'Or paste this address into your browser: {link}' },
  yourRecipient: { id: 'mail.card.test.yourRecipient', defaultMessage: 'your recipient' },
  testNote: { id: 'mail.card.test.note', defaultMessage: 'This is a test you sent yourself from {shop}: it is the e-mail {recipient} will get. Nothing was ordered, and its link shows the card for {days, plural, one {# day} other {# days}}.' },
});

/** Why a recipient gets a card's e-mail, and how to get no more (the unsubscribe link). */
export function recipientNote(from: string, unsubscribeUrl: string | undefined, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY, locale?: Locale): { html: MailTemplate; text: string } {
  const words = wordsFor(locale);
  const why = words.text(messages.recipientWhy, { from, shop: shop.name });
  if (!unsubscribeUrl) return { html: paragraph(why, { quiet: true }), text: why };
  const unsubscribe = words.html(messages.recipientUnsubscribe, {}, { link: (inner) => html`<a href="${unsubscribeUrl}" style="color:#7a6f66">${new SafeHtml(inner)}</a>`.value });
  return {
    html: paragraph(html`${why} ${unsubscribe}`, { quiet: true }),
    text: `${why} ${words.text(messages.recipientUnsubscribeText, { url: unsubscribeUrl })}`,
  };
}

/** The name a card's e-mails give its sender ("Someone" when the purchaser left it out). */
export const senderOf = (item: Pick<OrderItem, 'senderName'>, locale?: Locale): string => item.senderName ?? wordsFor(locale).text(messages.someone);

/**
 * The e-mail that brings a card to its recipient (with its unsubscribe link, when given). A `test` is
 * the same e-mail sent by a shopper to themselves before buying: its link opens the card's preview
 * for `days` days, and it says that it is a test. It speaks the language of the card's order.
 */
export function cardEmail(
  item: Pick<OrderItem, 'name' | 'senderName' | 'recipientName' | 'recipientEmail' | 'itemUrlUuid'> & { order?: { locale?: Locale } },
  baseUrl: string,
  unsubscribeUrl?: string,
  test?: { link: string; days: number },
  shop: ShopIdentity = DEFAULT_SHOP_IDENTITY,
  locale: Locale | undefined = item.order?.locale,
): Promise<MailContent> {
  const words = wordsFor(locale);
  const link = test?.link ?? cardLink(item, baseUrl);
  const from = senderOf(item, locale);
  const real = words.text(messages.cardSubject, { from, card: item.name });
  const subject = test ? words.text(messages.cardTestSubject, { subject: real }) : real;
  const note = test ? testNote(item.recipientName ?? words.text(messages.yourRecipient), test.days, shop, words) : recipientNote(from, unsubscribeUrl, shop, locale);
  const dear = words.text(messages.dear, { name: item.recipientName });
  return renderEmail({
    to: item.recipientEmail!,
    subject,
    preview: words.text(messages.cardPreview, { from }),
    body: mjml`${heading(dear)}
${paragraph(words.html(messages.cardSent, { from, card: item.name }))}
${button(words.text(messages.openCard), link)}
${paragraph(words.text(messages.paste, { link }), { quiet: true })}
${note.html}`,
    text: `${dear}\n\n${words.text(messages.cardSent, { from, card: item.name })}\n\n${words.text(messages.openCardText, { link })}\n\n${note.text}`,
    shop,
    locale,
  });
}

/** What a test card's e-mail says in place of the recipient's note. */
function testNote(recipient: string, days: number, shop: ShopIdentity, words: Words): { html: MailTemplate; text: string } {
  const text = words.text(messages.testNote, { shop: shop.name, recipient, days });
  return { html: paragraph(text, { quiet: true }), text };
}
