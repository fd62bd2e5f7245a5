/**
 * The group card's e-mails (the invitation to sign, and the one reminder) in the reference's way:
 * MJML with strict validation for every e-mail, values escaped by the reference's own `html`.
 */
import type { GroupCard, GroupCardInvitation } from '../../../server/src/modules/group-card/group-card.entity.js';
import type { OrderItem } from '../../../server/src/modules/orders/order-item.entity.js';
import { html } from './escape.js';
import { momentText } from './format.js';
import { button, heading, paragraph, renderEmail, type MailContent } from './layout.js';

interface Invited {
  invitation: GroupCardInvitation;
  card: GroupCard;
  item: OrderItem;
}

/** The signing page of a card, telling which invited address signs (`?invite=`). */
const signingLink = (baseUrl: string, card: GroupCard, invitation: GroupCardInvitation) => `${baseUrl}/sign/${card.signingToken}?invite=${invitation.code}`;

/** "Sign the card for {recipient}", to an invited address. */
export function invitationEmail({ invitation, card, item }: Invited, baseUrl: string): Promise<MailContent> {
  const from = item.senderName ?? 'Someone';
  const recipient = item.recipientName ?? 'someone special';
  const until = momentText(card.collectUntil, item.timeZone);
  const link = signingLink(baseUrl, card, invitation);
  const subject = `${from} invites you to sign a card for ${recipient}`;
  return renderEmail({
    to: invitation.email,
    subject,
    preview: `Add your message to the card for ${recipient} before ${until}.`,
    body: html`${heading(`Sign the card for ${recipient}`)}
${paragraph(html`${from} is collecting messages for ${recipient} on one card, <strong>${item.name}</strong>, and would like yours on it too.`)}
${paragraph(`Write your name and a few words before ${until}; everyone's messages are inside the card when ${recipient} opens it.`)}
${button('Sign the card', link)}
${paragraph(`Or paste this address into your browser: ${link}. You are getting this e-mail because ${from} invited this address; we send it once, and one reminder a day before signing closes if you have not signed.`, { quiet: true })}`,
    text: `${from} is collecting messages for ${recipient} on one card, "${item.name}", and would like yours on it too.\n\nWrite your name and a few words before ${until}; everyone's messages are inside the card when ${recipient} opens it.\n\nSign the card: ${link}\n\nYou are getting this e-mail because ${from} invited this address; we send it once, and one reminder a day before signing closes if you have not signed.`,
  });
}

/** The one reminder, a day before signing closes, to an invited address that has not signed. */
export function signingReminderEmail({ invitation, card, item }: Invited, baseUrl: string): Promise<MailContent> {
  const from = item.senderName ?? 'Someone';
  const recipient = item.recipientName ?? 'someone special';
  const until = momentText(card.collectUntil, item.timeZone);
  const link = signingLink(baseUrl, card, invitation);
  const subject = `A day left to sign the card for ${recipient}`;
  return renderEmail({
    to: invitation.email,
    subject,
    preview: `Signing closes on ${until}.`,
    body: html`${heading(subject)}
${paragraph(html`${from} invited you to sign <strong>${item.name}</strong> for ${recipient}. Signing closes on ${until}.`)}
${button('Sign the card', link)}
${paragraph(`Or paste this address into your browser: ${link}. This is the only reminder we send.`, { quiet: true })}`,
    text: `${from} invited you to sign "${item.name}" for ${recipient}. Signing closes on ${until}.\n\nSign the card: ${link}\n\nThis is the only reminder we send.`,
  });
}
