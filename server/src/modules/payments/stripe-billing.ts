import Stripe from 'stripe';
import { fromCents, toCents } from '../../core/money.js';
import type { BillingEvent, BillingSubscription, ProviderBilling } from './payment-provider.js';

/** What a retrieve or an update asks Stripe to include: the card renewals charge and the first payment's secret. */
const EXPAND = ['default_payment_method', 'latest_invoice.confirmation_secret'];

/**
 * Memberships through Stripe Billing: a Customer per shopper, a Product per plan with a recurring
 * Price per price and period, and a Subscription created `default_incomplete`, whose first invoice's
 * confirmation secret the browser confirms with Stripe's card element (as an order's PaymentIntent).
 * The card is kept as the subscription's default payment method, which Stripe charges at each renewal.
 */
export class StripeBilling implements ProviderBilling {
  constructor(private readonly client: Stripe) {}

  async createCustomer({ userId, email, idempotencyKey }: { userId: number; email: string | null; idempotencyKey: string }): Promise<string> {
    const customer = await this.client.customers.create({ ...(email ? { email } : {}), metadata: { user_id: String(userId) } }, { idempotencyKey });
    return customer.id;
  }

  async createPrice(request: { planId: number; planName: string; productId: string | null; amount: string; currency: 'USD'; period: 'month' | 'year'; idempotencyKey: string }): Promise<{ productId: string; priceId: string }> {
    const productId =
      request.productId ??
      (await this.client.products.create({ name: `Art & Song Cards membership: ${request.planName}`, metadata: { plan_id: String(request.planId) } }, { idempotencyKey: `${request.idempotencyKey}-product` })).id;
    const price = await this.client.prices.create(
      { product: productId, unit_amount: toCents(request.amount), currency: request.currency.toLowerCase(), recurring: { interval: request.period }, metadata: { plan_id: String(request.planId) } },
      { idempotencyKey: request.idempotencyKey },
    );
    return { productId, priceId: price.id };
  }

  async subscribe(request: { customerId: string; priceId: string; membershipId: number; userId: number; idempotencyKey: string }): Promise<BillingSubscription> {
    const subscription = await this.client.subscriptions.create(
      {
        customer: request.customerId,
        items: [{ price: request.priceId }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription', payment_method_types: ['card'] },
        metadata: { membership_id: String(request.membershipId), user_id: String(request.userId) },
        expand: EXPAND,
      },
      { idempotencyKey: request.idempotencyKey },
    );
    return billingSubscription(subscription);
  }

  async retrieve(subscriptionId: string): Promise<BillingSubscription> {
    return billingSubscription(await this.client.subscriptions.retrieve(subscriptionId, { expand: EXPAND }));
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean, idempotencyKey: string): Promise<BillingSubscription> {
    return billingSubscription(await this.client.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel, expand: EXPAND }, { idempotencyKey }));
  }

  async cancelNow(subscriptionId: string, idempotencyKey: string): Promise<void> {
    try {
      await this.client.subscriptions.cancel(subscriptionId, {}, { idempotencyKey });
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      // Unknown to Stripe: nothing can be charged through it.
      if (error.statusCode === 404) return;
      // Refused in the state it is in: fine when it has ended already.
      const now = await this.retrieve(subscriptionId);
      if (now.status !== 'ended' && now.status !== 'expired') throw error;
    }
  }
}

/** Stripe's subscription in the shop's terms (its period is its item's: Stripe moved it there). */
export function billingSubscription(subscription: Stripe.Subscription): BillingSubscription {
  const item = subscription.items.data[0];
  const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
  const method = typeof subscription.default_payment_method === 'object' ? subscription.default_payment_method : null;
  return {
    id: subscription.id,
    status: STATUS[subscription.status] ?? 'past_due',
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    periodStart: new Date((item?.current_period_start ?? subscription.start_date) * 1000),
    periodEnd: new Date((item?.current_period_end ?? subscription.start_date) * 1000),
    cardLast4: method?.card?.last4 ?? null,
    clientSecret: subscription.status === 'incomplete' ? (invoice?.confirmation_secret?.client_secret ?? null) : null,
  };
}

const STATUS: Record<string, BillingSubscription['status']> = {
  incomplete: 'incomplete',
  incomplete_expired: 'expired',
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'past_due',
  canceled: 'ended',
};

/**
 * A verified Stripe event about a membership, or null for any other. An invoice's subscription is
 * under `parent.subscription_details`; the period it pays is its subscription line's (the invoice's
 * own `period_start`/`period_end` are the previous period's, for renewals).
 */
export function billingEventOf(event: Stripe.Event): BillingEvent | null {
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const invoice = event.data.object;
    const parent = invoice.parent?.subscription_details?.subscription;
    const subscriptionId = typeof parent === 'string' ? parent : parent?.id;
    if (!subscriptionId || !invoice.id) return null;
    const line = invoice.lines.data.find((l) => l.parent?.subscription_item_details) ?? invoice.lines.data[0];
    const period = line?.period ?? { start: invoice.period_start, end: invoice.period_end };
    return {
      kind: event.type === 'invoice.paid' ? 'invoice_paid' : 'invoice_failed',
      eventId: event.id,
      subscriptionId,
      invoiceId: invoice.id,
      amount: fromCents(event.type === 'invoice.paid' ? invoice.amount_paid : invoice.amount_due),
      periodStart: new Date(period.start * 1000),
      periodEnd: new Date(period.end * 1000),
      firstInvoice: invoice.billing_reason === 'subscription_create',
    };
  }
  if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    return { kind: event.type === 'customer.subscription.updated' ? 'subscription_updated' : 'subscription_deleted', eventId: event.id, subscriptionId: event.data.object.id };
  }
  return null;
}
