/**
 * A bought gift membership's e-mail in the reference's way: MJML with strict validation, values
 * escaped by the reference's own `html`.
 */
import { html } from './escape.js';
import { button, heading, paragraph, quote, renderEmail, type MailContent } from './layout.js';

export interface GiftMembershipNotice {
  code: string;
  planName: string;
  period: 'month' | 'year';
  recipientName: string;
  senderName: string;
  message: string | null;
}

export function giftMembershipEmail(to: string, notice: GiftMembershipNotice, baseUrl: string): Promise<MailContent> {
  const length = notice.period === 'year' ? 'a year' : 'a month';
  const subject = `${notice.senderName} gave you ${length} of Art & Song Cards membership`;
  const page = `${baseUrl}/membership#gift=${notice.code}`;
  const use = `Sign in (or create an account) and enter the code on the membership page. The membership starts when you redeem it and lasts ${length}; it never charges you anything.`;
  const why = `You receive this e-mail because ${notice.senderName} bought you a membership at Art & Song Cards.`;
  const Length = length === 'a year' ? 'A year' : 'A month';
  return renderEmail({
    to,
    subject,
    preview: `${Length} of the ${notice.planName} membership from ${notice.senderName}, with its code.`,
    body: html`${heading(`Dear ${notice.recipientName},`)}
${paragraph(html`${notice.senderName} gave you ${length} of the <strong>${notice.planName}</strong> membership.`)}
${notice.message ? quote(notice.message, notice.senderName) : ''}
${paragraph(html`Your code: <strong style="font-size:20px;letter-spacing:2px">${notice.code}</strong>`)}
${button('Redeem your membership', page)}
${paragraph(use, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Dear ${notice.recipientName},\n\n${notice.senderName} gave you ${length} of the ${notice.planName} membership.${notice.message ? `\n\n"${notice.message}"\n— ${notice.senderName}` : ''}\n\nYour code: ${notice.code}\n\nRedeem your membership: ${page}\n\n${use}\n\n${why}`,
  });
}
