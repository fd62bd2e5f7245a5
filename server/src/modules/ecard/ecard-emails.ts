import type { EntityManager } from '@mikro-orm/postgresql';
import { defineMessages } from '@formatjs/intl';
import { DEFAULT_LOCALE, localizedPath, orderNumber } from '../../rules/index.js';
import { DEFAULT_SHOP_IDENTITY, drop, formatDay, formatMoment, button, heading, mjml, paragraph, quote, renderEmail, type MailQueue, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity, wordsFor } from '../mail/index.js';
import { cardLink, recipientNote, senderOf, OrderItem, cardIdOf, cardRef, orderRef, OrderStatus, type DeliveredCard, type Order } from '../orders/index.js';
import { listUnsubscribeHeaders, type RecipientLinks } from '../consent/index.js';
import { EcardReply } from './ecard-reply.entity.js';

/** The kinds of e-mail the e-card loop sends. */
export const EcardMailKind = {
  /** "{recipient} opened your card" to the purchaser; at most one per card. */
  OPENED: 'opened',
  /** A recipient's thank-you reply to the purchaser; one per reply (payload: `replyId`). */
  THANK_YOU: 'thank-you',
  /** The one reminder to the recipient of a delivered card still unopened. */
  REMINDER: 'reminder',
} as const;

const messages = defineMessages({
  openedSubject: { id: 'mail.opened.subject', defaultMessage: '{recipient} opened your card' },
  openedAccountWhy: { id: 'mail.opened.whyAccount', defaultMessage: 'You receive this e-mail because you asked to be told when your card is opened (order {number}). To get no more of these notices, turn them off in your account settings: {link}' },
  openedGuestWhy: { id: 'mail.opened.whyGuest', defaultMessage: 'You receive this e-mail because you ticked "Tell me when my card is opened" when you placed order {number} with this address.' },
  openedPreview: { id: 'mail.opened.preview', defaultMessage: '{recipient} opened {card} on {when}.' },
  openedBody: { id: 'mail.opened.body', defaultMessage: 'Your card <b>{card}</b> was opened on {when}.' },
  openedBodyText: { id: 'mail.opened.bodyText', defaultMessage: 'Your card {card} was opened on {when}.' },
  openedThanks: { id: 'mail.opened.thanks', defaultMessage: 'If they send a thank-you, it comes to this address and shows under the card in your orders.' },
  openedThanksText: { id: 'mail.opened.thanksText', defaultMessage: 'If they send a thank-you, it comes to this address and shows under the card in your orders: {link}' },
  seeOrders: { id: 'mail.seeOrders', defaultMessage: 'See your orders' },
  seeOrdersText: { id: 'mail.seeOrdersText', defaultMessage: 'See your orders: {link}' },
  thankYouSubject: { id: 'mail.thankYou.subject', defaultMessage: 'A thank-you from {name}' },
  thankYouWhy: { id: 'mail.thankYou.why', defaultMessage: 'You receive this e-mail because {recipient}, to whom you sent a card from {shop} (order {number}), wrote back to you.' },
  thankYouBody: { id: 'mail.thankYou.body', defaultMessage: '{name} wrote back about your card <b>{card}</b>:' },
  thankYouBodyText: { id: 'mail.thankYou.bodyText', defaultMessage: '{name} wrote back about your card {card}:' },
  reminderSubject: { id: 'mail.reminder.subject', defaultMessage: 'Your card from {from} is waiting: {card}' },
  reminderPreview: { id: 'mail.reminder.preview', defaultMessage: '{from} sent you a card on {day}; it has not been opened yet.' },
  reminderBody: { id: 'mail.reminder.body', defaultMessage: '{from} sent you an e-greeting card with music, <b>{card}</b>, and it is still waiting for you.' },
  reminderBodyText: { id: 'mail.reminder.bodyText', defaultMessage: '{from} sent you an e-greeting card with music, {card}, and it is still waiting for you.' },
  reminderPaste: { id: 'mail.reminder.paste', defaultMessage: 'Or paste this address into your browser: {link}. This is the only reminder we send.' },
  reminderOnly: { id: 'mail.reminder.only', defaultMessage: 'This is the only reminder we send.' },
  dear: { id: 'mail.card.dear', defaultMessage: 'Dear {name},' },
  openCard: { id: 'mail.card.open', defaultMessage: 'Open your card' },
  openCardText: { id: 'mail.card.openText', defaultMessage: 'Open your card: {link}' },
});

/** "{recipient} opened your card", to the purchaser who asked for it, in the order's language. */
export function openedEmail(order: Order, item: OrderItem, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const locale = order.locale ?? DEFAULT_LOCALE;
  const words = wordsFor(locale);
  const subject = words.text(messages.openedSubject, { recipient: item.recipientName });
  const when = formatMoment(item.openedAt!, item.timeZone, locale);
  const account = `${baseUrl}${localizedPath(locale, '/account')}`;
  const number = orderNumber(order.id);
  // Why it came, and how to stop it: account settings for an account's order, the checkout's box for a guest's.
  const why = order.user ? words.text(messages.openedAccountWhy, { number, link: `${baseUrl}${localizedPath(locale, '/account/settings')}` }) : words.text(messages.openedGuestWhy, { number });
  const card = words.quoted(item.name);
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: words.text(messages.openedPreview, { recipient: item.recipientName, card, when }),
    body: mjml`${heading(subject)}
${paragraph(words.html(messages.openedBody, { card: item.name, when }))}
${paragraph(words.text(messages.openedThanks))}
${button(words.text(messages.seeOrders), account)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${words.text(messages.openedBodyText, { card, when })}\n\n${words.text(messages.openedThanksText, { link: account })}\n\n${why}`,
    shop,
    locale,
  });
}

/** A recipient's thank-you, to the purchaser, in the order's language. */
export function thankYouEmail(order: Order, item: OrderItem, reply: EcardReply, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const locale = order.locale ?? DEFAULT_LOCALE;
  const words = wordsFor(locale);
  const subject = words.text(messages.thankYouSubject, { name: reply.name });
  const account = `${baseUrl}${localizedPath(locale, '/account')}`;
  const why = words.text(messages.thankYouWhy, { recipient: item.recipientName, shop: shop.name, number: orderNumber(order.id) });
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: reply.message.slice(0, 90),
    body: mjml`${heading(subject)}
${paragraph(words.html(messages.thankYouBody, { name: reply.name, card: item.name }))}
${quote(reply.message, reply.name)}
${button(words.text(messages.seeOrders), account)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${words.text(messages.thankYouBodyText, { name: reply.name, card: words.quoted(item.name) })}\n\n${reply.message}\n\n— ${reply.name}\n\n${words.text(messages.seeOrdersText, { link: account })}\n\n${why}`,
    shop,
    locale,
  });
}

/** The one reminder to the recipient of a delivered card still unopened (with its unsubscribe link, when given), in its order's language. */
export function reminderEmail(item: OrderItem, baseUrl: string, unsubscribeUrl?: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const locale = item.order?.locale;
  const words = wordsFor(locale);
  const link = cardLink(item, baseUrl);
  const from = senderOf(item, locale);
  const note = recipientNote(from, unsubscribeUrl, shop, locale);
  const subject = words.text(messages.reminderSubject, { from, card: item.name });
  const dear = words.text(messages.dear, { name: item.recipientName });
  return renderEmail({
    to: item.recipientEmail!,
    subject,
    preview: words.text(messages.reminderPreview, { from, day: formatDay(item.deliveredAt ?? item.deliverAt ?? new Date(), item.timeZone, locale) }),
    body: mjml`${heading(dear)}
${paragraph(words.html(messages.reminderBody, { from, card: item.name }))}
${button(words.text(messages.openCard), link)}
${paragraph(words.text(messages.reminderPaste, { link }), { quiet: true })}
${note.html}`,
    text: `${dear}\n\n${words.text(messages.reminderBodyText, { from, card: words.quoted(item.name) })}\n\n${words.text(messages.openCardText, { link })}\n\n${words.text(messages.reminderOnly)}\n\n${note.text}`,
    shop,
    locale,
  });
}

/**
 * The e-card loop's e-mails: the purchaser's "opened" notice and thank-yous, and the recipient's one
 * reminder. Each renderer loads the batch's cards (with their orders) in one query, and the
 * thank-yous' replies in one more.
 */
export class EcardEmails {
  constructor(
    private readonly mail: MailQueue,
    private readonly baseUrl: string,
    /** The unsubscribe link each reminder offers its recipient (and its List-Unsubscribe headers). */
    private readonly recipients?: RecipientLinks,
  ) {
    mail.register<Record<string, unknown>>({ kind: EcardMailKind.OPENED, render: (jobs, env) => this.renderOpened(jobs, env) });
    mail.register<{ replyId?: number }>({ kind: EcardMailKind.THANK_YOU, render: (jobs, env) => this.renderThankYous(jobs, env) });
    mail.register<Record<string, unknown>>({ kind: EcardMailKind.REMINDER, render: (jobs, env) => this.renderReminders(jobs, env), settle: (em, jobs, now) => this.settleReminders(em, jobs, now) });
  }

  /** The "opened" notice of a card, in the transaction that records its first opening (at most one per card). */
  async queueOpened(em: EntityManager, item: OrderItem, now: Date): Promise<void> {
    await this.mail.enqueue(em, { kind: EcardMailKind.OPENED, to: item.order.purchaserEmail, dueAt: now, subject: orderRef(item.order.id), ref: cardRef(item.id), dedupeKey: `${EcardMailKind.OPENED}:${item.id}` });
  }

  async queueThankYou(em: EntityManager, item: OrderItem, reply: EcardReply, now: Date): Promise<void> {
    // A purchaser who deleted their account left no address (the reply stays on the card).
    if (!item.order.purchaserEmail) return;
    await this.mail.enqueue(em, { kind: EcardMailKind.THANK_YOU, to: item.order.purchaserEmail, dueAt: now, subject: orderRef(item.order.id), ref: cardRef(item.id), payload: { replyId: reply.id } });
  }

  /** The reminders of cards that just went out (at most one per card), due `after` ms later. */
  async queueReminders(em: EntityManager, cards: readonly DeliveredCard[], now: Date, after: number): Promise<void> {
    await this.mail.enqueueMany(em, cards.map((card) => ({ kind: EcardMailKind.REMINDER, to: card.recipientEmail, dueAt: new Date(now.getTime() + after), subject: orderRef(card.orderId), ref: cardRef(card.id), dedupeKey: `${EcardMailKind.REMINDER}:${card.id}` })));
  }

  /** The cards of a batch, with their orders: one query. */
  private async cards(em: EntityManager, jobs: readonly QueuedMail<unknown>[]): Promise<Map<number, OrderItem>> {
    const ids = [...new Set(jobs.map((job) => cardIdOf(job)!))];
    return new Map((await em.find(OrderItem, { id: { $in: ids } }, { populate: ['order'] })).map((item) => [item.id, item]));
  }

  private async renderOpened(jobs: readonly QueuedMail[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
    const cards = await this.cards(em, jobs);
    return Promise.all(jobs.map(async (job) => {
      const item = cards.get(cardIdOf(job)!);
      return item?.openedAt ? openedEmail(item.order, item, this.baseUrl, shop) : drop();
    }));
  }

  private async renderThankYous(jobs: readonly QueuedMail<{ replyId?: number }>[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
    const cards = await this.cards(em, jobs);
    const replyIds = jobs.map((job) => Number(job.payload.replyId)).filter(Number.isInteger);
    const replies = new Map((replyIds.length ? await em.find(EcardReply, { id: { $in: replyIds } }) : []).map((reply) => [reply.id, reply]));
    return Promise.all(jobs.map(async (job) => {
      const item = cards.get(cardIdOf(job)!);
      const reply = replies.get(Number(job.payload.replyId));
      return item && reply ? thankYouEmail(item.order, item, reply, this.baseUrl, shop) : drop();
    }));
  }

  private async renderReminders(jobs: readonly QueuedMail[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
    const cards = await this.cards(em, jobs);
    return Promise.all(jobs.map(async (job) => {
      const item = cards.get(cardIdOf(job)!);
      // A reminder of a card opened in the meantime (or of an order cancelled or refunded) is no longer wanted.
      if (!item || item.openedAt || item.refundedAt || item.order.status === OrderStatus.CANCELLED || item.order.status === OrderStatus.REFUNDED) return drop();
      const unsubscribe = await this.recipients?.unsubscribeUrl(em, item.recipientEmail!);
      return { ...(await reminderEmail(item, this.baseUrl, unsubscribe, shop)), headers: unsubscribe ? { ...listUnsubscribeHeaders(unsubscribe) } : undefined };
    }));
  }

  private async settleReminders(em: EntityManager, jobs: readonly QueuedMail[], now: Date): Promise<void> {
    await em.execute(`update order_item set reminded_at = ? where id in (select (jsonb_array_elements_text(?::jsonb))::int) and reminded_at is null`, [now, JSON.stringify(jobs.map((job) => cardIdOf(job)))]);
  }
}
