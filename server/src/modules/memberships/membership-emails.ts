import type { EntityManager } from '@mikro-orm/postgresql';
import { defineMessages } from '@formatjs/intl';
import { DEFAULT_LOCALE, localizedPath, type Locale } from '../../rules/locales.js';
import { button, DEFAULT_SHOP_IDENTITY, formatDay, heading, mjml, paragraph, renderEmail, type MailContent, type MailQueue, type ShopIdentity, inLanguage, wordsFor } from '../mail/index.js';
import type { Membership } from './membership.entity.js';

/** The mail kinds of memberships. */
export const MembershipMailKind = {
  PAYMENT_FAILED: 'membership-payment-failed',
  RENEWAL_REMINDER: 'membership-renewal-reminder',
  RENEWED: 'membership-renewed',
} as const;

/** What a membership's e-mails say. */
export interface MembershipNotice {
  planName: string;
  amount: string;
  /** The renewal (a reminder), the next renewal (a renewal's receipt), or the end of the grace period (a failed payment), ISO 8601. */
  at: string;
  cardLast4: string | null;
  /** The member's language (see User.locale; English when left out). */
  locale?: Locale;
}

/** The address of a shopper (their membership's e-mails go there; the accounts are another module's). */
export type EmailOf = (em: EntityManager, userId: number) => Promise<string | null>;
/** The language of a shopper (see User.locale): their membership's e-mails speak it. */
export type LocaleOf = (em: EntityManager, userId: number) => Promise<Locale>;

/** A notice of a membership for its e-mails. */
export function membershipNotice(membership: Membership, at: Date, locale?: Locale): MembershipNotice {
  return { planName: membership.plan.name, amount: membership.plan.price, at: at.toISOString(), cardLast4: membership.cardLast4, ...inLanguage(locale) };
}

/** Queues one of a membership's e-mails to its member, in the transaction `em` belongs to (none for an account without an address). */
export async function queueMembershipEmail(mail: MailQueue, emailOf: EmailOf, em: EntityManager, membership: Membership, kind: string, at: Date, now: Date, localeOf?: LocaleOf): Promise<void> {
  const to = await emailOf(em, membership.userId);
  if (!to) return;
  const locale = localeOf ? await localeOf(em, membership.userId) : undefined;
  await mail.enqueue(em, { kind, to, dueAt: now, subject: { kind: 'membership', id: membership.id }, payload: membershipNotice(membership, at, locale) });
}

const messages = defineMessages({
  why: { id: 'mail.membership.why', defaultMessage: 'You receive this e-mail because you are a member of {shop}.' },
  button: { id: 'mail.membership.button', defaultMessage: 'Your membership' },
  buttonText: { id: 'mail.membership.buttonText', defaultMessage: 'Your membership: {link}' },
  failedSubject: { id: 'mail.membership.failed.subject', defaultMessage: 'We could not renew your {plan} membership' },
  failedBody: { id: 'mail.membership.failed.body', defaultMessage: 'We tried to charge {amount} to {card, select, none {your card} other {the card ending {card}}} for your {plan} membership, and the payment was declined. Your membership and its benefits continue until {until}; after that it ends.' },
  failedPreview: { id: 'mail.membership.failed.preview', defaultMessage: 'Your membership continues until {until}.' },
  failedAgain: { id: 'mail.membership.failed.again', defaultMessage: 'To keep it, become a member again with another card on the membership page.' },
  failedAgainText: { id: 'mail.membership.failed.againText', defaultMessage: 'To keep it, become a member again with another card on the membership page: {link}' },
  reminderSubject: { id: 'mail.membership.reminder.subject', defaultMessage: 'Your {plan} membership renews on {on}' },
  reminderBody: { id: 'mail.membership.reminder.body', defaultMessage: 'On {on} we will charge {amount} to {card, select, none {your card} other {the card ending {card}}} for another year of your {plan} membership. Nothing needs doing to keep it; to stop it, cancel before then on the membership page.' },
  reminderPreview: { id: 'mail.membership.reminder.preview', defaultMessage: '{amount} on {on}.' },
  renewedSubject: { id: 'mail.membership.renewed.subject', defaultMessage: 'Your {plan} membership renewed' },
  renewedBody: { id: 'mail.membership.renewed.body', defaultMessage: 'Your {plan} membership renewed: {amount} charged to {card, select, none {your card} other {the card ending {card}}}, next renewal on {next}.' },
  renewedPreview: { id: 'mail.membership.renewed.preview', defaultMessage: '{amount} charged; next renewal on {next}.' },
  renewedPayments: { id: 'mail.membership.renewed.payments', defaultMessage: 'Your membership page shows its payments; to stop the renewals, cancel there before the next one.' },
  renewedPaymentsText: { id: 'mail.membership.renewed.paymentsText', defaultMessage: 'Your membership page shows its payments; to stop the renewals, cancel there before the next one: {link}' },
});

/** What the e-mails of a notice say of it, in its language. */
function noticeWords(notice: MembershipNotice, baseUrl: string, shop: ShopIdentity) {
  const words = wordsFor(notice.locale);
  const day = formatDay(new Date(notice.at), null, notice.locale);
  return {
    words,
    day,
    values: { plan: notice.planName, amount: words.price(notice.amount), card: notice.cardLast4 ?? 'none', until: day, on: day, next: day },
    link: `${baseUrl}${localizedPath(notice.locale ?? DEFAULT_LOCALE, '/membership')}`,
    why: words.text(messages.why, { shop: shop.name }),
  };
}

/** A renewal that could not be charged: the benefits last 7 more days; paying again keeps them. */
export function paymentFailedEmail(to: string, notice: MembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const { words, values, link, why } = noticeWords(notice, baseUrl, shop);
  const subject = words.text(messages.failedSubject, values);
  const body = words.text(messages.failedBody, values);
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.failedPreview, values),
    body: mjml`${heading(subject)}
${paragraph(body)}
${paragraph(words.text(messages.failedAgain))}
${button(words.text(messages.button), link)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${body}\n\n${words.text(messages.failedAgainText, { link })}\n\n${why}`,
    shop,
    locale: notice.locale,
  });
}

/** A yearly plan's reminder, 7 days before it renews. */
export function renewalReminderEmail(to: string, notice: MembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const { words, values, link, why } = noticeWords(notice, baseUrl, shop);
  const subject = words.text(messages.reminderSubject, values);
  const body = words.text(messages.reminderBody, values);
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.reminderPreview, values),
    body: mjml`${heading(subject)}
${paragraph(body)}
${button(words.text(messages.button), link)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${body}\n\n${words.text(messages.buttonText, { link })}\n\n${why}`,
    shop,
    locale: notice.locale,
  });
}

/** A renewal's receipt: what was charged to which card, and when the next renewal comes. */
export function renewedEmail(to: string, notice: MembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const { words, values, link, why } = noticeWords(notice, baseUrl, shop);
  const subject = words.text(messages.renewedSubject, values);
  const body = words.text(messages.renewedBody, values);
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.renewedPreview, values),
    body: mjml`${heading(subject)}
${paragraph(body)}
${paragraph(words.text(messages.renewedPayments))}
${button(words.text(messages.button), link)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${body}\n\n${words.text(messages.renewedPaymentsText, { link })}\n\n${why}`,
    shop,
    locale: notice.locale,
  });
}
