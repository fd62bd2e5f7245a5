/**
 * The shop's e-mails as they were rendered before templates were compiled once per process (commit
 * af44690: MJML with strict validation for every e-mail), kept word for word as the reference the
 * compiled templates are held equal to (tests/unit/email-templates.test.ts); since then with the
 * lines that tell each reader why the e-mail came and how to stop it (contract section 11), and with
 * the kinds added since (accounts, group cards, occasion reminders: the files next to this one), so
 * that every kind the shop registers has its reference. The escaping, the days and times, the prices
 * and the links' paths are the reference's own (./escape.ts, ./format.ts, below), not the shop's.
 */
import type { EcardReply } from '../../../server/src/modules/ecard/ecard-reply.entity.js';
import type { OrderItem } from '../../../server/src/modules/orders/order-item.entity.js';
import type { Order } from '../../../server/src/modules/orders/order.entity.js';
import { html } from './escape.js';
import { dayText, dollars, momentText } from './format.js';
import { button, heading, paragraph, quote, renderEmail, type MailContent } from './layout.js';

export { changeEmail, confirmEmail, emailChangedEmail, passwordResetEmail } from './account-emails.js';
export { invitationEmail, signingReminderEmail } from './group-card-emails.js';
export { occasionReminderEmail } from './occasion-emails.js';
export { giftCardEmail } from './gift-card-emails.js';
export { giftMembershipEmail } from './gift-membership-emails.js';
export { paymentFailedEmail, renewalReminderEmail, renewedEmail } from './membership-emails.js';

/** The number an order goes by: the first eight characters of its id, in capitals. */
const orderNumber = (orderId: string) => orderId.slice(0, 8).toUpperCase();
/** Where a card's page is. */
const ecardPath = (uuid: string) => `/ecards/${uuid}.html`;

const cardLink = (item: OrderItem, baseUrl: string) => baseUrl + ecardPath(item.itemUrlUuid!);

function recipientNote(from: string, unsubscribeUrl: string | undefined) {
  const why = `You receive this e-mail because ${from} sent you a card through Art & Song Cards.`;
  if (!unsubscribeUrl) return { html: paragraph(why, { quiet: true }), text: why };
  return {
    html: paragraph(html`${why} To get no more cards or reminders from this shop, <a href="${unsubscribeUrl}" style="color:#7a6f66">unsubscribe</a>.`, { quiet: true }),
    text: `${why} To get no more cards or reminders from this shop, unsubscribe: ${unsubscribeUrl}`,
  };
}

const RECEIPT_WHY = 'You receive this e-mail because you placed this order at Art & Song Cards with this address.';

/** The e-mail that brings a card to its recipient. */
export function cardEmail(item: OrderItem, baseUrl: string, unsubscribeUrl?: string): Promise<MailContent> {
  const link = cardLink(item, baseUrl);
  const from = item.senderName ?? 'Someone';
  const subject = `${from} sent you a card: ${item.name}`;
  const note = recipientNote(from, unsubscribeUrl);
  return renderEmail({
    to: item.recipientEmail!,
    subject,
    preview: `${from} sent you an e-greeting card with music.`,
    body: html`${heading(`Dear ${item.recipientName},`)}
${paragraph(html`${from} sent you an e-greeting card with music: <strong>${item.name}</strong>.`)}
${button('Open your card', link)}
${paragraph(`Or paste this address into your browser: ${link}`, { quiet: true })}
${note.html}`,
    text: `Dear ${item.recipientName},\n\n${from} sent you an e-greeting card with music: ${item.name}.\n\nOpen your card: ${link}\n\n${note.text}`,
  });
}

/** The purchaser's receipt, with a link to each card, the discount (if any) and the total. */
/** The receipt's sentence on paying: the card alone, a gift card alone, or each with its share. */
function payment(order: Order): string {
  const gift = Number(order.giftCardAmount ?? 0);
  if (!gift) return `Paid with card ending ${order.cardLast4 ?? '—'}`;
  const card = Math.round((Number(order.total) - gift) * 100) / 100;
  if (card === 0) return `Paid with gift card ending ${order.giftCardLast4}`;
  return `Paid ${dollars(gift.toFixed(2))} with gift card ending ${order.giftCardLast4} and ${dollars(card.toFixed(2))} with card ending ${order.cardLast4 ?? '—'}`;
}

export function receiptEmail(order: Order, items: OrderItem[], baseUrl: string): Promise<MailContent> {
  const subject = `Your Art & Song Cards order ${orderNumber(order.id)}`;
  // The delivery day as the shopper chose it: in their time zone.
  const when = (item: OrderItem) => (item.deliverAt && item.deliverAt > order.createdAt ? `on ${momentText(item.deliverAt, item.timeZone)} (${item.timeZone ?? 'UTC'} time)` : 'now');
  const discounted = Boolean(order.discountCode && order.discountAmount && order.discountAmount !== '0.00');
  const preview = (item: OrderItem) => `${baseUrl}${ecardPath(item.itemUrlUuid!)}?preview=1`;
  const details = `${baseUrl}/order-confirmation/${order.id}`;
  const lines = items.map((item) => {
    const card = item.itemUrlUuid ? ` — to ${item.recipientName} <${item.recipientEmail}>, sent ${when(item)}: ${preview(item)}` : '';
    return `${item.quantity} × ${item.name}  ${dollars(item.lineTotal)}${card}`;
  });
  const rows = items.map(
    (item) => html`<tr><td style="padding:10px 0;border-bottom:1px solid #eee">${item.quantity} × ${item.name}${
      item.itemUrlUuid ? html`<br><span style="font-size:13px;color:#7a6f66">to ${item.recipientName}, sent ${when(item)} · <a href="${preview(item)}" style="color:#b0413e">view the card</a></span>` : ''
    }</td><td style="padding:10px 0;border-bottom:1px solid #eee;text-align:right;vertical-align:top">${dollars(item.lineTotal)}</td></tr>`,
  );
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: `Thank you for your order: ${dollars(order.total)}.`,
    body: html`${heading('Thank you for your order')}
${paragraph(html`Order number: <strong>${orderNumber(order.id)}</strong>`)}
<mj-table font-size="15px" line-height="1.45" color="#2b2b2b" padding="12px 25px">${rows}${
      discounted ? html`
<tr><td style="padding:10px 0;border-bottom:1px solid #eee">Discount <code>${order.discountCode}</code></td><td style="padding:10px 0;border-bottom:1px solid #eee;text-align:right">-${dollars(order.discountAmount)}</td></tr>` : ''}
<tr><td style="padding:10px 0"><strong>Total</strong></td><td style="padding:10px 0;text-align:right"><strong>${dollars(order.total)}</strong></td></tr></mj-table>
${paragraph(`${payment(order)}.`)}
${button('Order details', details)}
${paragraph(RECEIPT_WHY, { quiet: true })}`,
    text: `Thank you for your order.\n\nOrder number: ${orderNumber(order.id)}\n\n${lines.join('\n')}${discounted ? `\nDiscount ${order.discountCode}  -${dollars(order.discountAmount)}` : ''}\n\nTotal: ${dollars(order.total)}\n${payment(order)}\n\nOrder details: ${details}\n\n${RECEIPT_WHY}`,
  });
}

/** "{recipient} opened your card", to the purchaser who asked for it. */
export function openedEmail(order: Order, item: OrderItem, baseUrl: string): Promise<MailContent> {
  const subject = `${item.recipientName} opened your card`;
  const when = momentText(item.openedAt!, item.timeZone);
  const account = `${baseUrl}/account`;
  const why = order.user
    ? `You receive this e-mail because you asked to be told when your card is opened (order ${orderNumber(order.id)}). To get no more of these notices, turn them off in your account settings: ${baseUrl}/account/settings`
    : `You receive this e-mail because you ticked "Tell me when my card is opened" when you placed order ${orderNumber(order.id)} with this address.`;
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: `${item.recipientName} opened "${item.name}" on ${when}.`,
    body: html`${heading(subject)}
${paragraph(html`Your card <strong>${item.name}</strong> was opened on ${when}.`)}
${paragraph('If they send a thank-you, it comes to this address and shows under the card in your orders.')}
${button('See your orders', account)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\nYour card "${item.name}" was opened on ${when}.\n\nIf they send a thank-you, it comes to this address and shows under the card in your orders: ${account}\n\n${why}`,
  });
}

/** A recipient's thank-you, to the purchaser. */
export function thankYouEmail(order: Order, item: OrderItem, reply: EcardReply, baseUrl: string): Promise<MailContent> {
  const subject = `A thank-you from ${reply.name}`;
  const account = `${baseUrl}/account`;
  const why = `You receive this e-mail because ${item.recipientName}, to whom you sent a card from Art & Song Cards (order ${orderNumber(order.id)}), wrote back to you.`;
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: reply.message.slice(0, 90),
    body: html`${heading(subject)}
${paragraph(html`${reply.name} wrote back about your card <strong>${item.name}</strong>:`)}
${quote(reply.message, reply.name)}
${button('See your orders', account)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${reply.name} wrote back about your card "${item.name}":\n\n${reply.message}\n\n— ${reply.name}\n\nSee your orders: ${account}\n\n${why}`,
  });
}

/** The one reminder to the recipient of a delivered card still unopened. */
export function reminderEmail(item: OrderItem, baseUrl: string, unsubscribeUrl?: string): Promise<MailContent> {
  const link = cardLink(item, baseUrl);
  const from = item.senderName ?? 'Someone';
  const note = recipientNote(from, unsubscribeUrl);
  const subject = `Your card from ${from} is waiting: ${item.name}`;
  return renderEmail({
    to: item.recipientEmail!,
    subject,
    preview: `${from} sent you a card on ${dayText(item.deliveredAt ?? item.deliverAt ?? new Date(), item.timeZone)}; it has not been opened yet.`,
    body: html`${heading(`Dear ${item.recipientName},`)}
${paragraph(html`${from} sent you an e-greeting card with music, <strong>${item.name}</strong>, and it is still waiting for you.`)}
${button('Open your card', link)}
${paragraph(`Or paste this address into your browser: ${link}. This is the only reminder we send.`, { quiet: true })}
${note.html}`,
    text: `Dear ${item.recipientName},\n\n${from} sent you an e-greeting card with music, "${item.name}", and it is still waiting for you.\n\nOpen your card: ${link}\n\nThis is the only reminder we send.\n\n${note.text}`,
  });
}

/** The invitation to join the shop's staff, with its single-use link. */
export function staffInvitationEmail(input: { to: string; role: string; link: string; invitedBy: string | null; expiresAt: Date }): Promise<MailContent> {
  const what = input.role === 'admin' ? 'an admin' : 'a member of staff';
  const by = input.invitedBy ? `${input.invitedBy} invited you` : 'You are invited';
  const until = dayText(input.expiresAt, 'UTC');
  return renderEmail({
    to: input.to,
    subject: 'You are invited to help run Art & Song Cards',
    preview: `${by} to join Art & Song Cards as ${what}.`,
    body: html`${heading('Join the Art & Song Cards team')}
${paragraph(`${by} to join Art & Song Cards as ${what}. Choose a username and a password to create your account.`)}
${button('Accept the invitation', input.link)}
${paragraph(`The link works once, until ${until}. Or paste this address into your browser: ${input.link}`, { quiet: true })}`,
    text: `${by} to join Art & Song Cards as ${what}.\n\nAccept the invitation (the link works once, until ${until}):\n${input.link}`,
  });
}
