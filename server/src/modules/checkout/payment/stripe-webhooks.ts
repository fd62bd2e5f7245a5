import type Stripe from 'stripe';
import type { RequestContext } from '../../../core/context.js';
import { badInput, notFound } from '../../../core/errors.js';
import { toCents } from '../../../core/money.js';
import type { CheckoutService } from '../checkout.service.js';
import { Order, OrderStatus } from '../../orders/index.js';
import type { BillingEvent, StripePaymentProvider } from '../../payments/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StripeWebhookOptions {
  provider: StripePaymentProvider | null;
  checkout: CheckoutService;
  clock: () => Date;
  /** Applies an event about a membership's subscription (the memberships module's, wired by the composition root). */
  billing?: (ctx: RequestContext, event: BillingEvent) => Promise<unknown>;
}

/**
 * Stripe's signed events. Only a pending order moves: `payment_intent.succeeded` pays it (the same
 * settling as the test provider's: e-mails queued once), `payment_intent.canceled` cancels it and
 * gives its discount code's use back. A repeated or out-of-order event finds the order already
 * settled and changes nothing; `payment_intent.payment_failed` leaves it pending (the shopper may try
 * another card on the same intent). A bad signature is refused before anything is read.
 *
 * The same endpoint takes the events of memberships billed by Stripe (invoices and subscriptions):
 * they go to `billing`, which applies each once.
 */
export class StripeWebhooks {
  constructor(private readonly options: StripeWebhookOptions) {}

  async handle(ctx: RequestContext, rawBody: unknown, signature: string | undefined): Promise<void> {
    const provider = this.options.provider;
    if (!provider) throw notFound('Stripe webhook');
    if (!Buffer.isBuffer(rawBody)) throw badInput('The event must be sent as it was signed.');
    let event: Stripe.Event;
    try {
      event = provider.verifyEvent(rawBody, signature);
    } catch (error) {
      ctx.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'Stripe webhook refused: bad signature');
      throw badInput('The Stripe signature does not match this event.');
    }
    const facts = { eventId: event.id, type: event.type };
    const billing = provider.billingEvent(event);
    if (billing) {
      if (this.options.billing) await this.options.billing(ctx, billing);
      else ctx.log.info(facts, 'Stripe membership event ignored: memberships are not billed here');
      return;
    }
    if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.canceled' && event.type !== 'payment_intent.payment_failed') {
      ctx.log.info(facts, 'Stripe event ignored');
      return;
    }
    const intent = event.data.object;
    const orderId = intent.metadata?.order_id;
    const order = orderId && UUID.test(orderId) ? await ctx.em.fork().findOne(Order, { id: orderId.toLowerCase() }) : null;
    if (!order || order.paymentProvider !== 'stripe') {
      // A membership's invoice is paid through an intent of its own, without an order: its invoice's events settle it.
      ctx.log.info({ ...facts, intentId: intent.id }, 'Stripe payment event for no order of this shop');
      return;
    }
    if (order.paymentReference && order.paymentReference !== intent.id) {
      ctx.log.warn({ ...facts, intentId: intent.id, orderId: order.id }, 'Stripe event for another payment of this order; ignored');
      return;
    }
    if (order.status !== OrderStatus.PENDING) {
      ctx.log.info({ ...facts, orderId: order.id, status: order.status }, 'Stripe event for a settled order; nothing changes');
      return;
    }
    if (event.type === 'payment_intent.payment_failed') {
      ctx.log.info({ ...facts, orderId: order.id, reason: intent.last_payment_error?.message }, 'Stripe payment failed; the order stays pending');
      return;
    }
    if (event.type === 'payment_intent.canceled') {
      await this.options.checkout.dropPending(ctx, order.id, OrderStatus.CANCELLED);
      ctx.log.info({ ...facts, orderId: order.id }, 'Stripe payment cancelled; order cancelled');
      return;
    }
    if (intent.amount !== toCents(order.total) || intent.currency !== 'usd') {
      ctx.log.error({ ...facts, orderId: order.id, amount: intent.amount, currency: intent.currency, total: order.total }, 'Stripe payment does not match the order; not marked paid');
      return;
    }
    const card = await provider.cardOf(typeof intent.payment_method === 'string' ? intent.payment_method : (intent.payment_method?.id ?? null));
    await this.options.checkout.settle(ctx, order.id, { status: 'succeeded', reference: intent.id, ...card }, this.options.clock());
  }
}
