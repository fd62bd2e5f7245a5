import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, conflict, notFound } from '../../core/errors.js';
import { fromCents, toCents } from '../../core/money.js';
import { refundAmount } from '../../rules/order.js';
import type { Locale } from '../../rules/index.js';
import { recordAudit } from '../audit/index.js';
import { drop, inLanguage, type MailQueue } from '../mail/index.js';
import { NOT_SENT_REFUNDED, OrderMailKind } from './order-emails.js';
import { cardRef, orderRef } from './order-email.types.js';
import { refundEmail, refundLine, type RefundNotice } from './refund-email.js';
import { OrderItem } from './order-item.entity.js';
import { Order, OrderStatus } from './order.entity.js';
import type { PaymentProvider } from '../payments/index.js';
import type { WebhookEvents } from '../webhooks/index.js';
import { orderEventData } from './order-events.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reason shown in Order Details on a card e-mail a refund stopped. */
export { NOT_SENT_REFUNDED };

/** Orders that can (still) be refunded. */
const REFUNDABLE = new Set([OrderStatus.PAID, OrderStatus.DELIVERED, OrderStatus.PARTIALLY_REFUNDED]);

/** The e-mail that tells a customer of a refund ("Tell the customer"). */
export const REFUND_NOTICE_KIND = 'refund-notice';

/** The longest reason kept with a refund. */
export const MAX_REFUND_REASON = 500;

export interface RefundOptions {
  /** Every provider the shop can talk to: an order is refunded by the provider that charged it. */
  providers: PaymentProvider[];
  /** Withholds the refunded cards' e-mails, and sends the customer's notice. */
  mail: MailQueue;
  clock: () => Date;
  /** The shop's address, for the notice's link to the order. */
  baseUrl?: string;
  /** Told, in the refund's transaction, of the cards it withdrew (what follows a card up stops). */
  cardsWithdrawn?: (em: EntityManager, itemIds: readonly number[]) => Promise<void>;
  /**
   * Puts (part of) a refund back on the gift card that paid the order, in the refund's transaction, and
   * answers how much went there; the payment provider refunds the rest.
   */
  toGiftCard?: (em: EntityManager, orderId: string, amount: string) => Promise<string>;
  /** Voids the gift cards refunded lines bought (CONFLICT for one spent in part), in the refund's transaction. */
  giftCardsRefunded?: (em: EntityManager, itemIds: readonly number[]) => Promise<void>;
  /** Voids the gift memberships refunded lines bought (CONFLICT for one redeemed), in the refund's transaction. */
  giftMembershipsRefunded?: (em: EntityManager, itemIds: readonly number[]) => Promise<void>;
  /** Where refunds are told to the webhook endpoints (order.refunded), in the refund's transaction. */
  webhooks: WebhookEvents;
}

/**
 * Refunds, whole or of some lines (cards): the provider that charged the order gives back their share;
 * refunded cards not yet sent are never sent and sent ones show "This card was withdrawn". An order with
 * some lines refunded is `partially_refunded`; with every line, `refunded`.
 */
export class RefundService {
  constructor(private readonly options: RefundOptions) {
    options.mail.register<RefundNotice>({ kind: REFUND_NOTICE_KIND, render: (jobs, { shop }) => Promise.all(jobs.map((job) => (job.to ? refundEmail(job.to, job.payload, options.baseUrl ?? '', shop) : drop()))) });
  }

  /**
   * Refunds the chosen lines (`itemIds`), or every line still standing when none are named. The order
   * row stays locked (SELECT … FOR UPDATE) from the check until the refund is written, so a double click
   * or concurrent calls wait for the first one and then find the lines refunded (409). The provider is
   * asked with one idempotency key per set of lines (`refund-{order}` for the whole order at once), so
   * even a crash after its refund and before the commit never refunds twice when the admin tries again.
   */
  async refund(ctx: RequestContext, orderId: string, itemIds?: readonly number[] | null, tell: { reason?: unknown; notify?: unknown } = {}): Promise<Order> {
    const reason = cleanReason(tell.reason);
    if (!UUID.test(orderId)) throw notFound('Order');
    const id = orderId.toLowerCase();
    const now = this.options.clock();
    await ctx.em.fork().transactional(async (em) => {
      const order = await em.findOne(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!order || order.status === OrderStatus.PENDING) throw notFound('Order');
      if (order.status === OrderStatus.REFUNDED) throw conflict('This order was already refunded.');
      if (!REFUNDABLE.has(order.status)) throw conflict(`A ${order.status} order cannot be refunded.`);
      const items = await em.find(OrderItem, { order: order.id }, { orderBy: { position: 'asc' } });
      const chosen = chosenItems(items, itemIds);
      const whole = chosen.size === items.length;
      const amount = refundAmount(order, items, chosen);
      // Gift cards it bought are voided first: one already spent in part refuses the refund before any money moves.
      const giftCardLines = items.filter((item) => item.giftCard && chosen.has(item.id)).map((item) => item.id);
      if (giftCardLines.length) await this.options.giftCardsRefunded?.(em, giftCardLines);
      const giftMembershipLines = items.filter((item) => item.giftMembershipPlanId !== null && chosen.has(item.id)).map((item) => item.id);
      if (giftMembershipLines.length) await this.options.giftMembershipsRefunded?.(em, giftMembershipLines);
      // What a gift card paid goes back to it first; the provider gives back the rest of what it charged.
      const toGiftCard = toCents(order.giftCardAmount) > 0 && this.options.toGiftCard ? await this.options.toGiftCard(em, order.id, amount) : '0.00';
      const toCard = fromCents(toCents(amount) - toCents(toGiftCard));
      if (toCents(toCard) > 0) {
        const provider = this.options.providers.find((p) => p.name === order.paymentProvider);
        if (!provider || !order.paymentReference) throw conflict(`This order was paid through "${order.paymentProvider}", which this shop is not set up for, so it cannot refund it here.`);
        const idempotencyKey = whole ? `refund-${order.id}` : `refund-${order.id}-${[...chosen].sort((a, b) => a - b).join('-')}`;
        const result = await provider.refund({ reference: order.paymentReference, amount: toCard, idempotencyKey });
        if (result.status === 'failed') throw conflict(`The payment provider did not refund this order: ${result.message}`);
      }
      for (const item of items) if (chosen.has(item.id)) item.refundedAt = now;
      const everything = items.every((item) => item.refundedAt);
      order.refundedAmount = fromCents(toCents(order.refundedAmount) + toCents(amount));
      order.status = everything ? OrderStatus.REFUNDED : OrderStatus.PARTIALLY_REFUNDED;
      order.refundedAt = now;
      if (reason) order.refundReason = order.refundReason ? `${order.refundReason}; ${reason}` : reason;
      const refundedIds = [...chosen];
      // Refunded cards not sent yet stay unsent; the reason shows in Order Details.
      await this.options.mail.withhold(em, { refs: refundedIds.map(cardRef), kinds: [OrderMailKind.CARD, OrderMailKind.CARD_RESEND] }, NOT_SENT_REFUNDED);
      await this.options.cardsWithdrawn?.(em, refundedIds);
      await em.flush();
      const what = everything && whole ? 'the whole order' : items.filter((item) => chosen.has(item.id)).map((item) => (item.recipientName ? `${item.name} to ${item.recipientName}` : item.name)).join(', ');
      const refund = { amount, to_gift_card: toGiftCard, line_ids: refundedIds, at: now.toISOString() };
      await this.options.webhooks.emit(em, 'order.refunded', async () => (await orderEventData(em, [order.id])).map((data) => ({ ...data, refund })));
      await recordAudit(withEm(ctx, em), { entity: 'order', id: order.id, action: 'refunded', summary: `Refunded $${amount}${toCents(toGiftCard) > 0 ? ` ($${toGiftCard} to gift card ····${order.giftCardLast4})` : ''} (${what}); the order is now ${order.status.replace('_', ' ')}${reason ? `. Reason: ${reason}` : ''}${tell.notify === true ? '. The customer was told.' : ''}` });
      if (tell.notify === true && order.purchaserEmail) {
        const lines = items.filter((item) => chosen.has(item.id)).map((item) => refundLine(item, order.locale));
        await this.options.mail.enqueue(em, { kind: REFUND_NOTICE_KIND, to: order.purchaserEmail, dueAt: now, subject: orderRef(order.id), payload: { orderId: order.id, amount, lines, ...inLanguage(order.locale), ...(toCents(toGiftCard) > 0 ? { toGiftCard, giftCardLast4: order.giftCardLast4 } : {}) } satisfies RefundNotice });
      }
    });
    ctx.log.info({ orderId: id, items: itemIds ?? 'all' }, 'order refunded');
    return ctx.em.findOneOrFail(Order, id, { refresh: true });
  }

  /** The language of the e-card at this address when it was refunded (its page says, in it, that it was withdrawn); null when it was not. */
  async withdrawnIn(ctx: RequestContext, uuid: string): Promise<Locale | null> {
    if (!UUID.test(uuid)) return null;
    const item = await ctx.em.findOne(OrderItem, { itemUrlUuid: uuid.toLowerCase() }, { populate: ['order'] });
    return item && (item.refundedAt || item.order.status === OrderStatus.REFUNDED) ? item.order.locale : null;
  }
}

/** The lines a refund takes: those named (each of this order, none refunded yet), or every one still standing. */
function chosenItems(items: OrderItem[], itemIds: readonly number[] | null | undefined): Set<number> {
  if (!itemIds || itemIds.length === 0) return new Set(items.filter((item) => !item.refundedAt).map((item) => item.id));
  const byId = new Map(items.map((item) => [item.id, item]));
  for (const itemId of itemIds) {
    if (!Number.isInteger(itemId) || !byId.has(itemId)) throw badInput(`Item ${itemId} is not a line of this order.`, 'itemIds');
    if (byId.get(itemId)!.refundedAt) throw conflict(`${byId.get(itemId)!.name} was already refunded.`, 'itemIds');
  }
  return new Set(itemIds);
}

/** A refund's reason: optional, one paragraph of at most 500 characters. */
function cleanReason(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badInput('The reason is text.', 'reason');
  const text = value.trim();
  if (text.length > MAX_REFUND_REASON) throw badInput(`The reason is at most ${MAX_REFUND_REASON} characters.`, 'reason');
  return text || null;
}
