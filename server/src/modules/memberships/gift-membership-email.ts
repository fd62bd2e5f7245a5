import { defineMessages } from '@formatjs/intl';
import { localeBase } from '../../rules/index.js';
import { button, DEFAULT_SHOP_IDENTITY, heading, mjml, paragraph, quote, renderEmail, wordsFor, type Locale, type MailContent, type ShopIdentity } from '../mail/index.js';

/** What a gift membership's e-mail says; `code` is erased from the queue once it is sent. */
export interface GiftMembershipNotice {
  code: string;
  planName: string;
  period: 'month' | 'year';
  recipientName: string;
  senderName: string;
  message: string | null;
  /** The language of the order that bought it (English when left out). */
  locale?: Locale;
}

/** The mail kind of a bought gift membership, sent to its recipient once the order is paid. */
export const GIFT_MEMBERSHIP_KIND = 'gift-membership';

/** Where a gift membership is redeemed: its code travels in the fragment, which browsers never send to a server. */
export const giftMembershipPage = (baseUrl: string, code: string) => `${baseUrl}/membership#gift=${code}`;

const messages = defineMessages({
  subject: { id: 'mail.giftMembership.subject', defaultMessage: '{sender} gave you {period, select, year {a year} other {a month}} of {shop} membership' },
  use: { id: 'mail.giftMembership.use', defaultMessage: 'Sign in (or create an account) and enter the code on the membership page. The membership starts when you redeem it and lasts {period, select, year {a year} other {a month}}; it never charges you anything.' },
  why: { id: 'mail.giftMembership.why', defaultMessage: 'You receive this e-mail because {sender} bought you a membership at {shop}.' },
  preview: { id: 'mail.giftMembership.preview', defaultMessage: '{period, select, year {A year} other {A month}} of the {plan} membership from {sender}, with its code.' },
  dear: { id: 'mail.card.dear', defaultMessage: 'Dear {name},' },
  gave: { id: 'mail.giftMembership.gave', defaultMessage: '{sender} gave you {period, select, year {a year} other {a month}} of the <b>{plan}</b> membership.' },
  code: { id: 'mail.gift.code', defaultMessage: 'Your code: <big>{code}</big>' },
  redeem: { id: 'mail.giftMembership.redeem', defaultMessage: 'Redeem your membership' },
  redeemText: { id: 'mail.giftMembership.redeemText', defaultMessage: 'Redeem your membership: {link}' },
});

const bigCode = (inner: string) => `<strong style="font-size:20px;letter-spacing:2px">${inner}</strong>`;

/** "Ada gave you a year of membership": the plan, the message, the code and where to redeem it, in the language of the order that bought it. */
export function giftMembershipEmail(to: string, notice: GiftMembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const words = wordsFor(notice.locale);
  const sender = notice.senderName;
  const values = { sender, period: notice.period, plan: notice.planName, shop: shop.name };
  const subject = words.text(messages.subject, values);
  const page = giftMembershipPage(baseUrl + (notice.locale ? (localeBase(notice.locale) ?? '') : ''), notice.code);
  const use = words.text(messages.use, values);
  const why = words.text(messages.why, values);
  const dear = words.text(messages.dear, { name: notice.recipientName });
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.preview, values),
    body: mjml`${heading(dear)}
${paragraph(words.html(messages.gave, values))}
${notice.message ? quote(notice.message, sender) : ''}
${paragraph(words.html(messages.code, { code: notice.code }, { big: bigCode }))}
${button(words.text(messages.redeem), page)}
${paragraph(use, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `${dear}\n\n${words.text(messages.gave, values)}${notice.message ? `\n\n${words.quoted(notice.message)}\n— ${sender}` : ''}\n\n${words.text(messages.code, { code: notice.code }, { big: (inner) => inner })}\n\n${words.text(messages.redeemText, { link: page })}\n\n${use}\n\n${why}`,
    shop,
    locale: notice.locale,
  });
}
