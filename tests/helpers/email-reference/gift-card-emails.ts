/**
 * A bought gift card's e-mail in the reference's way: MJML with strict validation, values escaped by
 * the reference's own `html`.
 */
import { html } from './escape.js';
import { button, heading, paragraph, quote, renderEmail, type MailContent } from './layout.js';

export interface GiftCardNotice {
  code: string;
  amount: string;
  recipientName: string;
  senderName: string;
  message: string | null;
}

export function giftCardEmail(to: string, notice: GiftCardNotice, baseUrl: string): Promise<MailContent> {
  const subject = `${notice.senderName} sent you a $${notice.amount} Art & Song Cards gift card`;
  const page = `${baseUrl}/gift-card#${notice.code}`;
  const use = 'Enter the code at checkout: it pays for cards, albums and collections at Art & Song Cards until its balance is spent, and it does not expire.';
  const why = `You receive this e-mail because ${notice.senderName} bought you a gift card at Art & Song Cards.`;
  return renderEmail({
    to,
    subject,
    preview: `A gift card of $${notice.amount} from ${notice.senderName}, with its code.`,
    body: html`${heading(`Dear ${notice.recipientName},`)}
${paragraph(html`${notice.senderName} sent you a gift card of <strong>$${notice.amount}</strong>.`)}
${notice.message ? quote(notice.message, notice.senderName) : ''}
${paragraph(html`Your code: <strong style="font-size:20px;letter-spacing:2px">${notice.code}</strong>`)}
${button('View your gift card', page)}
${paragraph(use, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Dear ${notice.recipientName},\n\n${notice.senderName} sent you a gift card of $${notice.amount}.${notice.message ? `\n\n"${notice.message}"\n— ${notice.senderName}` : ''}\n\nYour code: ${notice.code}\n\nView your gift card: ${page}\n\n${use}\n\n${why}`,
  });
}
