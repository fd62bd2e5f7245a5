import type { EntityManager } from '@mikro-orm/postgresql';
import { orderNumber } from '../../rules/index.js';
import { DEFAULT_SHOP_IDENTITY, drop, formatDay, formatMoment, button, heading, mjml, paragraph, quote, renderEmail, type MailQueue, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity } from '../mail/index.js';
import { cardLink, recipientNote, OrderItem, cardIdOf, cardRef, orderRef, OrderStatus, type DeliveredCard, type Order } from '../orders/index.js';
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

/** "{recipient} opened your card", to the purchaser who asked for it. */
export function openedEmail(order: Order, item: OrderItem, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const subject = `${item.recipientName} opened your card`;
  const when = formatMoment(item.openedAt!, item.timeZone);
  const account = `${baseUrl}/account`;
  // Why it came, and how to stop it: account settings for an account's order, the checkout's box for a guest's.
  const why = order.user
    ? `You receive this e-mail because you asked to be told when your card is opened (order ${orderNumber(order.id)}). To get no more of these notices, turn them off in your account settings: ${baseUrl}/account/settings`
    : `You receive this e-mail because you ticked "Tell me when my card is opened" when you placed order ${orderNumber(order.id)} with this address.`;
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: `${item.recipientName} opened "${item.name}" on ${when}.`,
    body: mjml`${heading(subject)}
${paragraph(mjml`Your card <strong>${item.name}</strong> was opened on ${when}.`)}
${paragraph('If they send a thank-you, it comes to this address and shows under the card in your orders.')}
${button('See your orders', account)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\nYour card "${item.name}" was opened on ${when}.\n\nIf they send a thank-you, it comes to this address and shows under the card in your orders: ${account}\n\n${why}`,
    shop,
  });
}

/** A recipient's thank-you, to the purchaser. */
export function thankYouEmail(order: Order, item: OrderItem, reply: EcardReply, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const subject = `A thank-you from ${reply.name}`;
  const account = `${baseUrl}/account`;
  const why = `You receive this e-mail because ${item.recipientName}, to whom you sent a card from ${shop.name} (order ${orderNumber(order.id)}), wrote back to you.`;
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: reply.message.slice(0, 90),
    body: mjml`${heading(subject)}
${paragraph(mjml`${reply.name} wrote back about your card <strong>${item.name}</strong>:`)}
${quote(reply.message, reply.name)}
${button('See your orders', account)}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${reply.name} wrote back about your card "${item.name}":\n\n${reply.message}\n\n— ${reply.name}\n\nSee your orders: ${account}\n\n${why}`,
    shop,
  });
}

/** The one reminder to the recipient of a delivered card still unopened (with its unsubscribe link, when given). */
export function reminderEmail(item: OrderItem, baseUrl: string, unsubscribeUrl?: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const link = cardLink(item, baseUrl);
  const from = item.senderName ?? 'Someone';
  const note = recipientNote(from, unsubscribeUrl, shop);
  const subject = `Your card from ${from} is waiting: ${item.name}`;
  return renderEmail({
    to: item.recipientEmail!,
    subject,
    preview: `${from} sent you a card on ${formatDay(item.deliveredAt ?? item.deliverAt ?? new Date(), item.timeZone)}; it has not been opened yet.`,
    body: mjml`${heading(`Dear ${item.recipientName},`)}
${paragraph(mjml`${from} sent you an e-greeting card with music, <strong>${item.name}</strong>, and it is still waiting for you.`)}
${button('Open your card', link)}
${paragraph(`Or paste this address into your browser: ${link}. This is the only reminder we send.`, { quiet: true })}
${note.html}`,
    text: `Dear ${item.recipientName},\n\n${from} sent you an e-greeting card with music, "${item.name}", and it is still waiting for you.\n\nOpen your card: ${link}\n\nThis is the only reminder we send.\n\n${note.text}`,
    shop,
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
