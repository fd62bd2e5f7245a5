import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { groupBy } from '../../core/loaders.js';
import { conflict, notFound } from '../../core/errors.js';
import { parseInput, singleLine } from '../../core/input.js';
import type { RateLimits } from '../limits/rate-limits.js';
import type { DeliveryService } from '../mail/delivery.service.js';
import { MailJob, MailJobStatus, MailKind } from '../mail/mail-job.entity.js';
import { OrderItem } from '../orders/order-item.entity.js';
import { MAX_PERSON_NAME, MAX_REPLIES_PER_CARD } from '../../rules/index.js';
import { replyMessageSchema } from '../../rules/schemas.js';
import { OrderStatus } from '../orders/order.entity.js';
import { EcardReply } from './ecard-reply.entity.js';

/**
 * A card whose e-mail has gone out. Before that nobody but the purchaser or an admin has its link:
 * it can be neither opened by its recipient nor thanked for.
 */
function delivered(item: OrderItem): OrderItem {
  if (!item.deliveredAt) throw conflict('This card has not been delivered yet; it can be opened and answered once it has arrived.');
  return item;
}

/** At most this many thank-you replies per card. */
export { MAX_REPLIES_PER_CARD };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EcardLoopOptions {
  limits: RateLimits;
  deliveries: DeliveryService;
  clock: () => Date;
  /** How long after its delivery an unopened card gets its one reminder; 0: no reminders. */
  reminderAfterMs: number;
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
  constructor(private readonly options: EcardLoopOptions) {}

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
      await em.nativeDelete(MailJob, { item: item.id, kind: MailKind.REMINDER, status: MailJobStatus.QUEUED });
      if (item.order.notifyOpened) {
        await em.execute(
          `insert into mail_job (kind, order_id, item_id, due_at) values ('opened', ?, ?, ?) on conflict do nothing`,
          [item.order.id, item.id, now],
        );
      }
      ctx.log.info({ itemId: item.id, orderId: item.order.id }, 'e-card opened for the first time');
      return true;
    });
    if (first) this.options.deliveries.kick();
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
      if (count >= MAX_REPLIES_PER_CARD) throw conflict(`This card already has ${MAX_REPLIES_PER_CARD} thank-yous; no more can be sent.`);
      const reply = em.create(EcardReply, { item, name, message, createdAt: this.options.clock() });
      em.create(MailJob, { kind: MailKind.THANK_YOU, order: item.order, item, reply, dueAt: this.options.clock() });
      await em.flush();
      ctx.log.info({ itemId: item.id, orderId: item.order.id, replyId: reply.id }, 'thank-you sent');
      return reply;
    });
    this.options.deliveries.kick();
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

  /**
   * Called when a card's e-mail first went out (in the transaction that records it): queues its one
   * reminder, unless reminders are off or the card was already opened.
   */
  async cardDelivered(em: EntityManager, item: OrderItem, now: Date): Promise<void> {
    if (this.options.reminderAfterMs <= 0 || item.openedAt) return;
    await em.execute(
      `insert into mail_job (kind, order_id, item_id, due_at) values ('reminder', ?, ?, ?) on conflict do nothing`,
      [item.order.id, item.id, new Date(now.getTime() + this.options.reminderAfterMs)],
    );
  }

  /** A sellable card by its address (404 otherwise: unknown, not paid, cancelled or refunded). */
  private async card(em: EntityManager, uuid: string): Promise<OrderItem> {
    const item = UUID.test(uuid) ? await em.findOne(OrderItem, { itemUrlUuid: uuid.toLowerCase() }, { populate: ['order'] }) : null;
    if (!item?.card || [OrderStatus.CANCELLED, OrderStatus.REFUNDED, OrderStatus.PENDING].includes(item.order.status) || item.refundedAt) throw notFound('Card');
    return item;
  }
}
