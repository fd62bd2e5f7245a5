import Stripe from 'stripe';
import type { StripeConfig } from '../../config.js';
import { toCents } from '../../core/money.js';
import type { BillingEvent, CancelResult, ChargeRequest, ChargeResult, PaymentProvider, RefundRequest, RefundResult } from './payment-provider.js';
import { billingEventOf, StripeBilling } from './stripe-billing.js';

/**
 * Stripe through its official client: a checkout creates a PaymentIntent (the checkout's idempotency
 * key is passed through, so a retry gets the same intent and never a second charge), the browser
 * confirms it with Stripe's card element, and the signed `payment_intent.succeeded` webhook marks the
 * order paid (see StripeWebhooks). Refunds go through Stripe's refunds with one key per order.
 * Memberships are Stripe Billing subscriptions (see StripeBilling).
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly collectsCardInBrowser = true;
  readonly publishableKey: string;
  readonly billing: StripeBilling;
  private readonly client: Stripe;

  constructor(private readonly config: StripeConfig) {
    this.publishableKey = config.publishableKey;
    this.client = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Art & Song Cards' },
      ...(config.apiBase ?? {}),
    });
    this.billing = new StripeBilling(this.client);
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: toCents(request.amount),
          currency: request.currency.toLowerCase(),
          allowed_payment_method_types: ['card'],
          description: request.description,
          metadata: request.orderId ? { order_id: request.orderId } : {},
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status === 'canceled') return { status: 'declined', message: 'This payment was cancelled; please try again.' };
      if (intent.status === 'succeeded') return { status: 'succeeded', reference: intent.id, last4: null, brand: null };
      if (!intent.client_secret) throw new Error(`Stripe gave no client secret for ${intent.id}`);
      return { status: 'pending', reference: intent.id, clientSecret: intent.client_secret };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) return { status: 'declined', message: error.message };
      throw error;
    }
  }

  /** Cancels an intent nobody finished paying; one that is no longer cancellable answers with what it became. */
  async cancel(reference: string): Promise<CancelResult> {
    try {
      await this.client.paymentIntents.cancel(reference, { cancellation_reason: 'abandoned' });
      return { status: 'cancelled' };
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      // No such intent: nothing can ever be charged through it.
      if (error.statusCode === 404) return { status: 'cancelled' };
    }
    // Not cancellable in the state it is in: already cancelled, paid, or being paid.
    const intent = await this.client.paymentIntents.retrieve(reference);
    if (intent.status === 'canceled') return { status: 'cancelled' };
    if (intent.status === 'succeeded') return { status: 'succeeded', ...(await this.cardOf(typeof intent.payment_method === 'string' ? intent.payment_method : (intent.payment_method?.id ?? null))) };
    return { status: 'processing' };
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    try {
      const refund = await this.client.refunds.create({ payment_intent: request.reference, amount: toCents(request.amount) }, { idempotencyKey: request.idempotencyKey });
      if (refund.status === 'failed' || refund.status === 'canceled') return { status: 'failed', message: `Stripe answered ${refund.status}.` };
      return { status: 'succeeded', reference: refund.id };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError) return { status: 'failed', message: error.message };
      throw error;
    }
  }

  /** The event of a webhook call, verified against its Stripe-Signature header; throws when the signature does not match. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new Error('No Stripe-Signature header');
    return this.client.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret);
  }

  /** A verified event about a membership's subscription, in the shop's terms; null for any other event. */
  billingEvent(event: Stripe.Event): BillingEvent | null {
    return billingEventOf(event);
  }

  /** The last four digits and brand of the card that paid, when Stripe tells them. */
  async cardOf(paymentMethodId: string | null): Promise<{ last4: string | null; brand: string | null }> {
    if (!paymentMethodId) return { last4: null, brand: null };
    try {
      const method = await this.client.paymentMethods.retrieve(paymentMethodId);
      return { last4: method.card?.last4 ?? null, brand: method.card?.brand ? method.card.brand[0]!.toUpperCase() + method.card.brand.slice(1) : null };
    } catch {
      return { last4: null, brand: null };
    }
  }
}
