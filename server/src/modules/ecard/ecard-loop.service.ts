import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { groupBy } from '../../core/loaders.js';
import { conflict, notFound, said } from '../../core/errors.js';
import { parseInput, singleLine } from '../../core/input.js';
import type { RateLimits } from '../limits/index.js';
import type { MailQueue } from '../mail/index.js';
import type { RecipientLinks } from '../consent/index.js';
import { OrderItem, cardRef, OrderStatus, type DeliveredCard, type Order } from '../orders/index.js';
import { EcardEmails, EcardMailKind } from './ecard-emails.js';
import { MAX_PERSON_NAME, MAX_REPLIES_PER_CARD } from '../../rules/index.js';
import { replyMessageSchema } from '../../rules/schemas.js';
import { EcardReply } from './ecard-reply.entity.js';
import { cardEventData } from './card-events.js';
import type { WebhookEvents } from '../webhooks/index.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  notDelivered: { id: 'error.ecard.notDelivered', defaultMessage: 'This card has not been delivered yet; it can be opened and answered once it has arrived.' },
  enough: { id: 'error.ecard.enoughThanks', defaultMessage: 'This card already has {max} thank-yous; no more can be sent.' },
  none: { id: 'error.ecard.none', defaultMessage: 'Card not found' },
});

/**
 * A card whose e-mail has gone out. Before that nobody but the purchaser or an admin has its link:
 * it can be neither opened by its recipient nor thanked for.
 */
function delivered(item: OrderItem): OrderItem {
  if (!item.deliveredAt) throw conflict(refusals.notDelivered);
  return item;
}

/** At most this many thank-you replies per card. */
export { MAX_REPLIES_PER_CARD };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EcardLoopOptions {
  limits: RateLimits;
  mail: MailQueue;
  /** The shop's public address, for links in e-mails. */
  baseUrl: string;
  clock: () => Date;
  /** How long after its delivery an unopened card gets its one reminder; 0: no reminders. */
  reminderAfterMs: number;
  /** The unsubscribe link each reminder offers its recipient. */
  recipients?: RecipientLinks;
  /** Whether the purchaser of an order still wants its "opened" notices (their account may have turned them off). */
  wantsOpenedNotices?: (em: EntityManager, order: Order) => Promise<boolean>;
  /** Where first openings and thank-yous are told to the webhook endpoints, in their transactions. */
  webhooks: WebhookEvents;
}

export interface ThankYouInput {
  name?: unknown;
  message?: unknown;
}

/** A thank-you's message: plain text of 1 to 500 characters, line breaks kept, control characters removed. */
export function cleanReplyMessage(value: unknown, field = 'message'): string {
  return parseInput(replyMessageSchema, value, field);
}

/**
 * What happens around a card after it is sent: its first real opening (recorded by the page's beacon
 * once the card has rendered in a browser; fetching the HTML records nothing), the purchaser's
 * "opened" notice, the recipient's thank-you replies and the one reminder of a card left unopened.
 */
export class EcardLoopService {
  private readonly emails: EcardEmails;

  constructor(private readonly options: EcardLoopOptions) {
    this.emails = new EcardEmails(options.mail, options.baseUrl, options.recipients);
  }

  /**
   * The beacon of the e-card page: records the card's first opening (once, also when two arrive at
   * once), e-mails the purchaser when they asked for it, and drops the reminder that is no longer due.
   * A card whose e-mail has not gone out yet is not opened by anyone who counts (CONFLICT).
   * Returns whether this call was the first opening.
   */
  async recordOpening(ctx: RequestContext, uuid: string): Promise<boolean> {
    const now = this.options.clock();
    const first = await ctx.em.fork().transactional(async (em) => {
      const item = delivered(await this.card(em, uuid));
      // Conditional, so that two first views at once record one time.
      const updated = await em.nativeUpdate(OrderItem, { id: item.id, openedAt: null }, { openedAt: now });
      if (!updated) return false;
      await this.options.mail.drop(em, { refs: [cardRef(item.id)], kinds: [EcardMailKind.REMINDER] });
      if (item.order.notifyOpened && (await (this.options.wantsOpenedNotices?.(em, item.order) ?? true))) await this.emails.queueOpened(em, item, now);
      await this.options.webhooks.emit(em, 'card.opened', () => [{ card: cardEventData(item, now) }]);
      ctx.log.info({ itemId: item.id, orderId: item.order.id }, 'e-card opened for the first time');
      return true;
    });
    return first;
  }

  /** A recipient's thank-you from the e-card page: rate-limited per address, at most three per card, e-mailed to the purchaser. */
  async reply(ctx: RequestContext, uuid: string, input: ThankYouInput): Promise<EcardReply> {
    const name = singleLine(input.name, 'name', 'Your name', MAX_PERSON_NAME);
    const message = cleanReplyMessage(input.message);
    // The card must exist (and have arrived) before a point is taken, so that guessing addresses costs nothing here.
    delivered(await this.card(ctx.em, uuid));
    await this.options.limits.take([this.options.limits.rules.thankYou, ctx.ip]);
    const reply = await ctx.em.fork().transactional(async (em) => {
      const item = delivered(await this.card(em, uuid));
      // The card's row is locked so that parallel replies count each other.
      await em.execute('select 1 from order_item where id = ? for update', [item.id]);
      const count = await em.count(EcardReply, { item: item.id });
      if (count >= MAX_REPLIES_PER_CARD) throw conflict(said(refusals.enough, { max: MAX_REPLIES_PER_CARD }));
      const reply = em.create(EcardReply, { item, name, message, createdAt: this.options.clock() });
      await em.flush();
      await this.emails.queueThankYou(em, item, reply, this.options.clock());
      await this.options.webhooks.emit(em, 'card.replied', () => [
        { card: cardEventData(item, item.openedAt), reply: { id: reply.id, name: reply.name, message: reply.message, created_at: reply.createdAt.toISOString() } },
      ]);
      ctx.log.info({ itemId: item.id, orderId: item.order.id, replyId: reply.id }, 'thank-you sent');
      return reply;
    });
    return reply;
  }

  /** How many thank-yous a card can still take. */
  async repliesLeft(ctx: RequestContext, item: OrderItem): Promise<number> {
    return Math.max(0, MAX_REPLIES_PER_CARD - (await ctx.em.count(EcardReply, { item: item.id })));
  }

  /** The replies of cards, oldest first, by card id. */
  async repliesOf(ctx: RequestContext, itemIds: readonly number[]): Promise<Map<number, EcardReply[]>> {
    if (!itemIds.length) return new Map();
    const rows = await ctx.em.find(EcardReply, { item: { $in: [...itemIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return groupBy(rows, (row) => row.item.id);
  }

  /** The thank-yous of cards as "Download my data" shows them, for every card asked (an empty list for one without). */
  /** The thank-yous of these cards, oldest first (an order's timeline). */
  async cardReplies(em: EntityManager, itemIds: readonly number[]): Promise<{ itemId: number; name: string; message: string; at: Date }[]> {
    const rows = await em.execute<{ item_id: number; name: string; message: string; created_at: Date }[]>(
      `select "item_id", "name", "message", "created_at" from "ecard_reply" where "item_id" in (?) order by "created_at", "id"`,
      [[...itemIds]],
    );
    return rows.map((row) => ({ itemId: Number(row.item_id), name: row.name, message: row.message, at: new Date(row.created_at) }));
  }

  async exportReplies(em: EntityManager, itemIds: readonly number[]): Promise<Map<number, { replies: { name: string; message: string; created_at: string }[] }>> {
    const byCard = groupBy(await this.cardReplies(em, itemIds), (reply) => reply.itemId);
    return new Map(itemIds.map((id) => [id, { replies: (byCard.get(id) ?? []).map((r) => ({ name: r.name, message: r.message, created_at: r.at.toISOString() })) }]));
  }

  /**
   * Called when cards' e-mails first went out (in the transaction that records it): queues each one's
   * reminder, unless reminders are off or the card was already opened.
   */
  async cardsDelivered(em: EntityManager, cards: readonly DeliveredCard[], now: Date): Promise<void> {
    if (this.options.reminderAfterMs <= 0) return;
    await this.emails.queueReminders(em, cards.filter((card) => !card.openedAt), now, this.options.reminderAfterMs);
  }

  /** Cards a refund withdrew: they are not recommended to their recipients any more. */
  async cardsWithdrawn(em: EntityManager, itemIds: readonly number[]): Promise<void> {
    await this.options.mail.drop(em, { refs: itemIds.map(cardRef), kinds: [EcardMailKind.REMINDER] });
  }

  /** A sellable card by its address (404 otherwise: unknown, not paid, cancelled or refunded). */
  private async card(em: EntityManager, uuid: string): Promise<OrderItem> {
    const item = UUID.test(uuid) ? await em.findOne(OrderItem, { itemUrlUuid: uuid.toLowerCase() }, { populate: ['order'] }) : null;
    if (!item?.card || [OrderStatus.CANCELLED, OrderStatus.REFUNDED, OrderStatus.PENDING].includes(item.order.status) || item.refundedAt) throw notFound(refusals.none);
    return item;
  }
}
