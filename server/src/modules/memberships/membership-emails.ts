import type { EntityManager } from '@mikro-orm/postgresql';
import { button, DEFAULT_SHOP_IDENTITY, formatDay, heading, mjml, paragraph, renderEmail, type MailContent, type MailQueue, type ShopIdentity } from '../mail/index.js';
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
}

/** The address of a shopper (their membership's e-mails go there; the accounts are another module's). */
export type EmailOf = (em: EntityManager, userId: number) => Promise<string | null>;

/** A notice of a membership for its e-mails. */
export function membershipNotice(membership: Membership, at: Date): MembershipNotice {
  return { planName: membership.plan.name, amount: membership.plan.price, at: at.toISOString(), cardLast4: membership.cardLast4 };
}

/** Queues one of a membership's e-mails to its member, in the transaction `em` belongs to (none for an account without an address). */
export async function queueMembershipEmail(mail: MailQueue, emailOf: EmailOf, em: EntityManager, membership: Membership, kind: string, at: Date, now: Date): Promise<void> {
  const to = await emailOf(em, membership.userId);
  if (!to) return;
  await mail.enqueue(em, { kind, to, dueAt: now, subject: { kind: 'membership', id: membership.id }, payload: membershipNotice(membership, at) });
}

const why = (shop: ShopIdentity) => `You receive this e-mail because you are a member of ${shop.name}.`;

/** A renewal that could not be charged: the benefits last 7 more days; paying again keeps them. */
export function paymentFailedEmail(to: string, notice: MembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const subject = `We could not renew your ${notice.planName} membership`;
  const until = formatDay(new Date(notice.at), null);
  const card = notice.cardLast4 ? `the card ending ${notice.cardLast4}` : 'your card';
  const body = `We tried to charge $${notice.amount} to ${card} for your ${notice.planName} membership, and the payment was declined. Your membership and its benefits continue until ${until}; after that it ends.`;
  const link = `${baseUrl}/membership`;
  return renderEmail({
    to,
    subject,
    preview: `Your membership continues until ${until}.`,
    body: mjml`${heading(subject)}
${paragraph(body)}
${paragraph('To keep it, become a member again with another card on the membership page.')}
${button('Your membership', link)}
${paragraph(why(shop), { quiet: true })}`,
    text: `${subject}\n\n${body}\n\nTo keep it, become a member again with another card on the membership page: ${link}\n\n${why(shop)}`,
    shop,
  });
}

/** A yearly plan's reminder, 7 days before it renews. */
export function renewalReminderEmail(to: string, notice: MembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const on = formatDay(new Date(notice.at), null);
  const subject = `Your ${notice.planName} membership renews on ${on}`;
  const card = notice.cardLast4 ? `the card ending ${notice.cardLast4}` : 'your card';
  const body = `On ${on} we will charge $${notice.amount} to ${card} for another year of your ${notice.planName} membership. Nothing needs doing to keep it; to stop it, cancel before then on the membership page.`;
  const link = `${baseUrl}/membership`;
  return renderEmail({
    to,
    subject,
    preview: `$${notice.amount} on ${on}.`,
    body: mjml`${heading(subject)}
${paragraph(body)}
${button('Your membership', link)}
${paragraph(why(shop), { quiet: true })}`,
    text: `${subject}\n\n${body}\n\nYour membership: ${link}\n\n${why(shop)}`,
    shop,
  });
}

/** A renewal's receipt: what was charged to which card, and when the next renewal comes. */
export function renewedEmail(to: string, notice: MembershipNotice, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const next = formatDay(new Date(notice.at), null);
  const subject = `Your ${notice.planName} membership renewed`;
  const card = notice.cardLast4 ? `the card ending ${notice.cardLast4}` : 'your card';
  const body = `Your ${notice.planName} membership renewed: $${notice.amount} charged to ${card}, next renewal on ${next}.`;
  const link = `${baseUrl}/membership`;
  return renderEmail({
    to,
    subject,
    preview: `$${notice.amount} charged; next renewal on ${next}.`,
    body: mjml`${heading(subject)}
${paragraph(body)}
${paragraph('Your membership page shows its payments; to stop the renewals, cancel there before the next one.')}
${button('Your membership', link)}
${paragraph(why(shop), { quiet: true })}`,
    text: `${subject}\n\n${body}\n\nYour membership page shows its payments; to stop the renewals, cancel there before the next one: ${link}\n\n${why(shop)}`,
    shop,
  });
}
