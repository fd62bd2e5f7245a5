import { defineMessages } from '@formatjs/intl';
import { localeBase, type Locale as ShopLocale } from '../../rules/index.js';

const localeBaseOf = (locale: ShopLocale | undefined) => (locale ? (localeBase(locale) ?? '') : '');
import { button, DEFAULT_SHOP_IDENTITY, heading, mjml, paragraph, quote, renderEmail, wordsFor, type Locale, type MailContent, type ShopIdentity } from '../mail/index.js';

/** What a bought gift card's e-mail says; `code` is erased from the queue once it is sent. */
export interface GiftCardNotice {
  code: string;
  amount: string;
  recipientName: string;
  senderName: string;
  message: string | null;
  /** The language of the order that bought it (English when left out). */
  locale?: Locale;
}

/** The mail kind of a bought gift card, sent to its recipient once the order is paid. */
export const GIFT_CARD_KIND = 'gift-card';

/** The page that shows a gift card: its code travels in the fragment, which browsers never send to a server. */
export const giftCardPage = (baseUrl: string, code: string) => `${baseUrl}/gift-card#${code}`;

const messages = defineMessages({
  subject: { id: 'mail.giftCard.subject', defaultMessage: '{sender} sent you a {amount} {shop} gift card' },
  use: { id: 'mail.giftCard.use', defaultMessage: 'Enter the code at checkout: it pays for cards, albums and collections at {shop} until its balance is spent, and it does not expire.' },
  why: { id: 'mail.giftCard.why', defaultMessage: 'You receive this e-mail because {sender} bought you a gift card at {shop}.' },
  preview: { id: 'mail.giftCard.preview', defaultMessage: 'A gift card of {amount} from {sender}, with its code.' },
  dear: { id: 'mail.card.dear', defaultMessage: 'Dear {name},' },
  sent: { id: 'mail.giftCard.sent', defaultMessage: '{sender} sent you a gift card of <b>{amount}</b>.' },
  code: { id: 'mail.gift.code', defaultMessage: 'Your code: <big>{code}</big>' },
  view: { id: 'mail.giftCard.view', defaultMessage: 'View your gift card' },
  viewText: { id: 'mail.giftCard.viewText', defaultMessage: 'View your gift card: {link}' },
});

/** The code, large: the tag of `mail.gift.code`. */
export const bigCode = (inner: string) => `<strong style="font-size:20px;letter-spacing:2px">${inner}</strong>`;

/** "Ada sent you a $50.00 gift card": the code, the message, and the page that shows it all, in the language of the order that bought it. */
export function giftCardEmail(to: string, notice: GiftCardNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const words = wordsFor(notice.locale);
  const amount = words.price(notice.amount);
  const sender = notice.senderName;
  const subject = words.text(messages.subject, { sender, amount, shop: shop.name });
  const page = giftCardPage(baseUrl + localeBaseOf(notice.locale), notice.code);
  const use = words.text(messages.use, { shop: shop.name });
  const why = words.text(messages.why, { sender, shop: shop.name });
  const dear = words.text(messages.dear, { name: notice.recipientName });
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.preview, { amount, sender }),
    body: mjml`${heading(dear)}
${paragraph(words.html(messages.sent, { sender, amount }))}
${notice.message ? quote(notice.message, sender) : ''}
${paragraph(words.html(messages.code, { code: notice.code }, { big: bigCode }))}
${button(words.text(messages.view), page)}
${paragraph(use, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `${dear}\n\n${words.text(messages.sent, { sender, amount })}${notice.message ? `\n\n${words.quoted(notice.message)}\n— ${sender}` : ''}\n\n${words.text(messages.code, { code: notice.code }, { big: (inner) => inner })}\n\n${words.text(messages.viewText, { link: page })}\n\n${use}\n\n${why}`,
    shop,
    locale: notice.locale,
  });
}
