import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context.js';
import { conflict, notFound } from '../../core/errors.js';
import { toCents } from '../../core/money.js';
import { MailJob, MailJobStatus, MailKind } from '../mail/mail-job.entity.js';
import { OrderItem } from './order-item.entity.js';
import { Order, OrderStatus } from './order.entity.js';
import type { PaymentProvider } from '../checkout/payment/payment-provider.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reason shown in Order Details on a card e-mail a refund stopped. */
export const NOT_SENT_REFUNDED = 'Not sent: the order was refunded.';

export interface RefundOptions {
  /** Every provider the shop can talk to: an order is refunded by the provider that charged it. */
  providers: PaymentProvider[];
  clock: () => Date;
}

/**
 * Refunds: a paid or delivered order is refunded by its provider and becomes `refunded`; its cards
 * not yet sent are not sent, and its sent cards show "This card was withdrawn".
 */
export class RefundService {
  constructor(private readonly options: RefundOptions) {}

  /**
   * Refunds an order exactly once. The order row stays locked (SELECT … FOR UPDATE) from the check
   * until the status is written, so a double click or concurrent calls wait for the first one and then
   * find the order refunded (409). The provider is asked with one idempotency key per order, so even a
   * crash after its refund and before the commit never refunds twice when the admin tries again.
   */
  async refund(ctx: RequestContext, orderId: string): Promise<Order> {
    if (!UUID.test(orderId)) throw notFound('Order');
    const id = orderId.toLowerCase();
    const now = this.options.clock();
    await ctx.em.fork().transactional(async (em) => {
      const order = await em.findOne(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order || order.status === OrderStatus.PENDING) throw notFound('Order');
      if (order.status === OrderStatus.REFUNDED) throw conflict('This order was already refunded.');
      if (order.status !== OrderStatus.PAID && order.status !== OrderStatus.DELIVERED) throw conflict(`A ${order.status} order cannot be refunded.`);
      if (toCents(order.total) > 0) {
        const provider = this.options.providers.find((p) => p.name === order.paymentProvider);
        if (!provider || !order.paymentReference) throw conflict(`This order was paid through "${order.paymentProvider}", which this shop is not set up for, so it cannot refund it here.`);
        const result = await provider.refund({ reference: order.paymentReference, amount: order.total, idempotencyKey: `refund-${order.id}` });
        if (result.status === 'failed') throw conflict(`The payment provider did not refund this order: ${result.message}`);
      }
      order.status = OrderStatus.REFUNDED;
      order.refundedAt = now;
      // Cards not sent yet stay unsent; the reason shows in Order Details.
      await em.nativeUpdate(
        MailJob,
        { order: order.id, kind: { $in: [MailKind.CARD, MailKind.CARD_RESEND] }, status: { $in: [MailJobStatus.QUEUED, MailJobStatus.FAILED] } },
        { status: MailJobStatus.FAILED, lastError: NOT_SENT_REFUNDED, claimedUntil: null },
      );
      // A withdrawn card is not recommended to its recipient any more.
      await em.nativeDelete(MailJob, { order: order.id, kind: MailKind.REMINDER, status: MailJobStatus.QUEUED });
      await em.flush();
    });
    ctx.log.info({ orderId: id }, 'order refunded');
    return ctx.em.findOneOrFail(Order, id, { refresh: true });
  }

  /** Whether the e-card at this address belongs to a refunded order (its page says it was withdrawn). */
  async isWithdrawn(ctx: RequestContext, uuid: string): Promise<boolean> {
    if (!UUID.test(uuid)) return false;
    const item = await ctx.em.findOne(OrderItem, { itemUrlUuid: uuid.toLowerCase() }, { populate: ['order'] });
    return item?.order.status === OrderStatus.REFUNDED;
  }
}
