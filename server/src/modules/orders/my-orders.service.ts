import type { RequestContext } from '../../core/context.js';
import { conflict, notFound, said } from '../../core/errors.js';
import { pageSize, type ConnectionResult } from '../../core/pagination.js';
import { MailJobStatus, type MailQueue } from '../mail/index.js';
import { cardRef } from './order-email.types.js';
import { deliveryInstant } from './delivery-rules.js';
import { OrderMailKind, type OrderEmails } from './order-emails.js';
import { OrderItem } from './order-item.entity.js';
import { Order, OrderStatus } from './order.entity.js';
import { ordersNewestFirst } from './order.service.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MAX_OWNER_RESENDS } from '../../rules/index.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  sentAlready: { id: 'error.myOrders.sentAlready', defaultMessage: 'This card has already been sent; its date can no longer change.' },
  notSent: { id: 'error.myOrders.notSent', defaultMessage: 'This card has not been sent yet; it goes out on its day.' },
  resentEnough: { id: 'error.myOrders.resentEnough', defaultMessage: 'This card was already sent again {max} times.' },
  none: { id: 'error.myOrders.noCard', defaultMessage: 'Card not found' },
});

/** How often a purchaser may send one card again from their account. */
export { MAX_OWNER_RESENDS };

export interface MyOrdersOptions {
  mail: MailQueue;
  orderEmails: OrderEmails;
  clock: () => Date;
  /** Says which orders were looked up by someone who may only see their confirmation page. */
  orders: { isRedacted(order: Order): boolean };
  /** Keeps a group card's signing deadline no later than its card's new day. */
  groupCards?: { deliveryMoved(em: EntityManager, itemId: number, deliverAt: Date): Promise<void> };
}

/**
 * A signed-in shopper's own orders ("My orders"): the list, moving a scheduled card to another day
 * and sending a sent card again. Every call works on the caller's own orders only: another user's
 * card is simply not found.
 */
export class MyOrdersService {
  constructor(private readonly options: MyOrdersOptions) {}

  /** Whether this order was looked up by someone who may only see its confirmation page. */
  isRedacted(order: Order): boolean {
    return this.options.orders.isRedacted(order);
  }

  /** The caller's placed orders, newest first (pending checkouts are left out). */
  async myOrders(ctx: RequestContext, args: { first?: number | null; after?: string | null }): Promise<ConnectionResult<Order>> {
    const viewer = await ctx.requireViewer();
    const size = pageSize(args.first);
    return ordersNewestFirst(ctx, { user: viewer.user.id, status: { $ne: OrderStatus.PENDING } }, size, args.after);
  }

  /**
   * Moves a card that has not gone out yet to now or another allowed moment (a day from today up to a
   * year ahead and an hour, 09:00 unless given, in the zone it was ordered in): its one queued e-mail
   * is moved, so it still goes out exactly once.
   */
  async changeDate(ctx: RequestContext, itemId: number, deliveryDate: string | null, deliveryTime: string | null = null): Promise<OrderItem> {
    const viewer = await ctx.requireViewer();
    const now = this.options.clock();
    await ctx.em.fork().transactional(async (em) => {
      const item = await this.ownCard(em, itemId, viewer.user.id);
      const zone = item.timeZone ?? 'UTC';
      const at = deliveryInstant(deliveryDate, zone, now, deliveryTime);
      // Moved only while still queued: a card the queue has claimed or sent keeps its moment.
      const moved = item.deliveredAt ? 0 : await this.options.mail.move(em, { refs: [cardRef(item.id)], kinds: [OrderMailKind.CARD] }, at);
      if (!moved) throw conflict(refusals.sentAlready, 'itemId');
      item.deliverAt = at;
      await this.options.groupCards?.deliveryMoved(em, item.id, at);
      await em.flush();
      ctx.log.info({ itemId, orderId: item.order.id, deliverAt: at.toISOString() }, 'card moved to another moment');
    });
    return ctx.em.findOneOrFail(OrderItem, itemId, { populate: ['order'], refresh: true });
  }

  /** Sends a card that already went out to its recipient again (at most three times by its purchaser). */
  async resend(ctx: RequestContext, itemId: number): Promise<OrderItem> {
    const viewer = await ctx.requireViewer();
    await ctx.em.fork().transactional(async (em) => {
      const item = await this.ownCard(em, itemId, viewer.user.id);
      await em.execute('select 1 from order_item where id = ? for update', [item.id]);
      if (!item.deliveredAt) throw conflict(refusals.notSent, 'itemId');
      // The purchaser's own resends only: an admin sending the card again takes none of their three.
      if (item.ownerResends >= MAX_OWNER_RESENDS) throw conflict(said(refusals.resentEnough, { max: MAX_OWNER_RESENDS }), 'itemId');
      const waiting = await this.options.mail.count(em, { refs: [cardRef(item.id)], kinds: [OrderMailKind.CARD_RESEND], statuses: [MailJobStatus.QUEUED, MailJobStatus.SENDING] });
      if (!waiting) {
        await this.options.orderEmails.queueResend(em, item);
        item.ownerResends += 1;
      }
      await em.flush();
      ctx.log.info({ itemId, orderId: item.order.id }, 'card resent by its purchaser');
    });
    return ctx.em.findOneOrFail(OrderItem, itemId, { populate: ['order'], refresh: true });
  }

  /** How many more times the purchaser may send a card again (null for what is no e-card). */
  resendsLeft(item: OrderItem): number | null {
    return item.itemUrlUuid ? Math.max(0, MAX_OWNER_RESENDS - item.ownerResends) : null;
  }

  /** One of the caller's e-cards (not found when it is anyone else's). */
  private async ownCard(em: EntityManager, itemId: number, userId: number): Promise<OrderItem> {
    const item = await em.findOne(OrderItem, { id: itemId, order: { user: userId } }, { populate: ['order'] });
    if (!item?.itemUrlUuid || [OrderStatus.PENDING, OrderStatus.CANCELLED, OrderStatus.REFUNDED].includes(item.order.status) || item.refundedAt) throw notFound(refusals.none);
    return item;
  }
}
