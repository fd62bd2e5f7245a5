import { LockMode } from '@mikro-orm/core';
import { withEm, type RequestContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { emitOrders, giftCardItems, giftMembershipItems, payOrder, payOrderQueueing, Order, OrderStatus } from '../orders/index.js';
import type { CheckoutOptions } from './checkout.service.js';
import type { ChargeResult } from '../payments/index.js';
import { clientSecrets } from './payment/client-secrets.js';
import type { WrittenOrder } from './pending-order-writer.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  cancelled: { id: 'error.checkout.cancelled', defaultMessage: 'This checkout was cancelled; reload the page and try again.' },
});

/** What becomes of a pending order once its payment provider has answered: paid, waiting for the browser, or dropped. */
export class OrderSettlement {
  constructor(private readonly options: Pick<CheckoutOptions, 'orderEmails' | 'discounts' | 'giftCards' | 'giftMemberships' | 'webhooks'>) {}

  /**
   * Records the provider's outcome: a paid order gets its e-mails queued (once, whoever settles
   * first); a declined one is removed again, and the decline is the answer. `written`: the order as
   * this checkout has just written it, whose e-mails are then queued by the statement that pays it.
   */
  async settle(ctx: RequestContext, orderId: string, charge: ChargeResult, now: Date, written?: WrittenOrder): Promise<Order> {
    if (charge.status === 'declined') {
      await this.dropPending(ctx, orderId);
      throw new AppError('PAYMENT_DECLINED', charge.said ?? charge.message);
    }
    if (charge.status === 'pending') {
      // The browser confirms the payment; the provider's signed event settles the order later.
      await ctx.em.fork().nativeUpdate(Order, { id: orderId, status: OrderStatus.PENDING }, { paymentReference: charge.reference });
      const order = await ctx.em.findOneOrFail(Order, orderId, { refresh: true });
      if (order.status === OrderStatus.PENDING) clientSecrets.set(order, charge.clientSecret);
      return order;
    }
    // With an endpoint taking order.paid, the event is written in the transaction of the general way.
    if (written && !written.gifts && !(await this.options.webhooks.wants(ctx.em, 'order.paid'))) {
      // One statement marks it paid (only while pending) and queues its e-mails; when another
      // settling came first, the general way below answers the order as that one left it.
      const row = await payOrderQueueing(ctx.em, orderId, charge, this.options.orderEmails.batchForOrder(written, written.cards, now));
      if (row) {
        const order = ctx.em.map(Order, row);
        ctx.log.info({ orderId: order.id, total: order.total, items: written.items }, 'order placed');
        return order;
      }
    }
    const order = await ctx.em.fork().transactional(async (em) => {
      // One statement marks it paid (only while pending) and reads its lines for their e-mails.
      const paid = await payOrder(em, orderId, charge);
      if (!paid) {
        const order = await em.findOne(Order, orderId);
        if (!order) throw new AppError('CONFLICT', refusals.cancelled);
        return order;
      }
      const order = em.map(Order, paid.row);
      await this.options.orderEmails.queueForOrder(em, order, paid.cards, now);
      // The gift cards and memberships it bought, issued with the payment that pays for them (or not at all).
      const giftCards = await giftCardItems(em, order.id);
      if (giftCards.length) await this.options.giftCards.issuePurchased(em, order.id, giftCards, now, order.locale);
      const giftMemberships = this.options.giftMemberships ? await giftMembershipItems(em, order.id) : [];
      if (giftMemberships.length) await this.options.giftMemberships!.issuePurchased(em, order.id, giftMemberships, now, order.locale);
      await emitOrders(this.options.webhooks, em, 'order.paid', [order.id]);
      ctx.log.info({ orderId: order.id, total: order.total, items: paid.lines }, 'order placed');
      return order;
    });
    // The order as this settling wrote it (paid), not a stale pending copy; not read again either:
    // its e-mails, queued due now, may already be going out and make it delivered.
    return order;
  }

  /** Removes an order whose payment failed (it was never paid), giving its discount code's use and its gift card's balance back. */
  async dropPending(ctx: RequestContext, orderId: string, status: OrderStatus.CANCELLED | null = null): Promise<void> {
    await ctx.em.fork().transactional(async (em) => {
      const order = await em.findOne(Order, { id: orderId, status: OrderStatus.PENDING }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order) return;
      await this.options.discounts.release(withEm(ctx, em), order);
      await this.options.giftCards.release(em, order.id);
      if (status) order.status = status;
      else em.remove(order);
      await em.flush();
    });
  }
}
