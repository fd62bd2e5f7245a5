/**
 * A membership's e-mails in the reference's way: MJML with strict validation, values escaped by the
 * reference's own `html`, days written by the reference's own `dayText`.
 */
import { html } from './escape.js';
import { dayText } from './format.js';
import { button, heading, paragraph, renderEmail, type MailContent } from './layout.js';

export interface MembershipNotice {
  planName: string;
  amount: string;
  at: string;
  cardLast4: string | null;
}

const WHY = 'You receive this e-mail because you are a member of Art & Song Cards.';

export function paymentFailedEmail(to: string, notice: MembershipNotice, baseUrl: string): Promise<MailContent> {
  const subject = `We could not renew your ${notice.planName} membership`;
  const until = dayText(new Date(notice.at), null);
  const card = notice.cardLast4 ? `the card ending ${notice.cardLast4}` : 'your card';
  const body = `We tried to charge $${notice.amount} to ${card} for your ${notice.planName} membership, and the payment was declined. Your membership and its benefits continue until ${until}; after that it ends.`;
  const link = `${baseUrl}/membership`;
  return renderEmail({
    to,
    subject,
    preview: `Your membership continues until ${until}.`,
    body: html`${heading(subject)}
${paragraph(body)}
${paragraph('To keep it, become a member again with another card on the membership page.')}
${button('Your membership', link)}
${paragraph(WHY, { quiet: true })}`,
    text: `${subject}\n\n${body}\n\nTo keep it, become a member again with another card on the membership page: ${link}\n\n${WHY}`,
  });
}

export function renewalReminderEmail(to: string, notice: MembershipNotice, baseUrl: string): Promise<MailContent> {
  const on = dayText(new Date(notice.at), null);
  const subject = `Your ${notice.planName} membership renews on ${on}`;
  const card = notice.cardLast4 ? `the card ending ${notice.cardLast4}` : 'your card';
  const body = `On ${on} we will charge $${notice.amount} to ${card} for another year of your ${notice.planName} membership. Nothing needs doing to keep it; to stop it, cancel before then on the membership page.`;
  const link = `${baseUrl}/membership`;
  return renderEmail({
    to,
    subject,
    preview: `$${notice.amount} on ${on}.`,
    body: html`${heading(subject)}
${paragraph(body)}
${button('Your membership', link)}
${paragraph(WHY, { quiet: true })}`,
    text: `${subject}\n\n${body}\n\nYour membership: ${link}\n\n${WHY}`,
  });
}

export function renewedEmail(to: string, notice: MembershipNotice, baseUrl: string): Promise<MailContent> {
  const next = dayText(new Date(notice.at), null);
  const subject = `Your ${notice.planName} membership renewed`;
  const card = notice.cardLast4 ? `the card ending ${notice.cardLast4}` : 'your card';
  const body = `Your ${notice.planName} membership renewed: $${notice.amount} charged to ${card}, next renewal on ${next}.`;
  const link = `${baseUrl}/membership`;
  return renderEmail({
    to,
    subject,
    preview: `$${notice.amount} charged; next renewal on ${next}.`,
    body: html`${heading(subject)}
${paragraph(body)}
${paragraph('Your membership page shows its payments; to stop the renewals, cancel there before the next one.')}
${button('Your membership', link)}
${paragraph(WHY, { quiet: true })}`,
    text: `${subject}\n\n${body}\n\nYour membership page shows its payments; to stop the renewals, cancel there before the next one: ${link}\n\n${WHY}`,
  });
}
