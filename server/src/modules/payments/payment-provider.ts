/** What a checkout asks a payment provider to do. */
import type { ErrorText } from '../../core/errors.js';
export interface ChargeRequest {
  /** Exact amount, two decimals ("12.34"). */
  amount: string;
  currency: 'USD';
  /** The card typed into the shop's own form; null when the provider collects it in the browser. */
  card: CardDetails | null;
  /**
   * The checkout's idempotency key: a provider must answer a repeated key with the first outcome and
   * never charge twice (real providers offer exactly this).
   */
  idempotencyKey: string;
  description: string;
  /** The order being paid (Stripe keeps it in the intent's metadata). */
  orderId?: string;
}

export interface CardDetails {
  /** Digits only. */
  number: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
  cvc: string;
  holderName: string | null;
}

/** A payment the provider refused: why, in English, and as the shop's catalogue says it when the shop wrote the words. */
export type Declined = { status: 'declined'; message: string; said?: ErrorText };

export type ChargeResult =
  /** Paid; `reference` is the provider's charge, null when nothing was charged (an order of 0.00). */
  | { status: 'succeeded'; reference: string | null; last4: string | null; brand: string | null }
  | Declined
  /** The browser still has to confirm the payment (Stripe's card element); the order stays pending until the provider says it is paid. */
  | { status: 'pending'; reference: string; clientSecret: string };

export interface RefundRequest {
  /** The provider's reference of the charge (the order's paymentReference). */
  reference: string;
  amount: string;
  /** One key per order: a repeated refund never refunds twice. */
  idempotencyKey: string;
}

export type RefundResult = { status: 'succeeded'; reference: string } | { status: 'failed'; message: string };

/** What became of a payment the shop asked the provider to cancel (an abandoned checkout). */
export type CancelResult =
  | { status: 'cancelled' }
  /** It was paid after all (the provider's event has not settled it yet). */
  | { status: 'succeeded'; last4: string | null; brand: string | null }
  /** The provider is still taking it: ask again later. */
  | { status: 'processing' };

export interface PaymentProvider {
  readonly name: string;
  /** True when the card is collected by the provider's own element in the browser (no card details reach the shop). */
  readonly collectsCardInBrowser?: boolean;
  /** The key the browser's card element uses (Stripe). */
  readonly publishableKey?: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Cancels a payment that was started and never finished (providers whose payments stay open: Stripe's intents). */
  cancel?(reference: string): Promise<CancelResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Memberships the shop renews on its own clock (the test provider). */
  readonly subscriptions?: SubscriptionPayments;
  /** Memberships the provider renews itself (Stripe Billing); a provider with neither cannot take memberships. */
  readonly billing?: ProviderBilling;
  /**
   * A provider that stands for an outside service and keeps its own records in the shop's database
   * (the test provider's ledger of idempotency keys) is connected to it here; answers how to let go.
   */
  useDatabase?(databaseUrl: string): () => Promise<void>;
}

/** A membership's charges: the first keeps the card for the renewals, which charge it without the shopper. */
export interface SubscriptionPayments {
  start(request: ChargeRequest): Promise<{ status: 'succeeded'; reference: string; last4: string | null; brand: string | null; paymentMethod: string } | Declined>;
  renew(request: { paymentMethod: string; amount: string; currency: 'USD'; idempotencyKey: string; description: string }): Promise<{ status: 'succeeded'; reference: string } | Declined>;
}

/** A subscription as the provider has it now (Stripe Billing). */
export interface BillingSubscription {
  id: string;
  /** `ended`: cancelled at the provider; `expired`: its first payment was never made. */
  status: 'incomplete' | 'active' | 'past_due' | 'ended' | 'expired';
  cancelAtPeriodEnd: boolean;
  /** The period the provider is in (it moves at a renewal, before the renewal is paid). */
  periodStart: Date;
  periodEnd: Date;
  /** The card its renewals charge, once the first payment saved one. */
  cardLast4: string | null;
  /** The first payment's secret for the browser, while it is still to be confirmed. */
  clientSecret: string | null;
}

/**
 * Memberships billed by the provider (Stripe Billing): a customer per shopper, a recurring price per
 * plan, price and period, and a subscription whose first payment the browser confirms; the provider
 * renews it and tells the shop through its signed events (see `BillingEvent`). Every create carries
 * an idempotency key, so a retried request never makes a second object.
 */
export interface ProviderBilling {
  createCustomer(request: { userId: number; email: string | null; idempotencyKey: string }): Promise<string>;
  /** A product for the plan (when it has none yet) and a recurring price for its price and period. */
  createPrice(request: { planId: number; planName: string; productId: string | null; amount: string; currency: 'USD'; period: 'month' | 'year'; idempotencyKey: string }): Promise<{ productId: string; priceId: string }>;
  /** Starts a subscription whose first invoice waits for the browser's confirmation. */
  subscribe(request: { customerId: string; priceId: string; membershipId: number; userId: number; idempotencyKey: string }): Promise<BillingSubscription>;
  retrieve(subscriptionId: string): Promise<BillingSubscription>;
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean, idempotencyKey: string): Promise<BillingSubscription>;
  /** Ends a subscription now; one that has ended already (or that the provider does not know) counts as ended. */
  cancelNow(subscriptionId: string, idempotencyKey: string): Promise<void>;
}

/** A provider's event about a subscription, verified, in the shop's terms. */
export type BillingEvent =
  | { kind: 'invoice_paid' | 'invoice_failed'; eventId: string; subscriptionId: string; invoiceId: string; amount: string; periodStart: Date; periodEnd: Date; firstInvoice: boolean }
  | { kind: 'subscription_updated' | 'subscription_deleted'; eventId: string; subscriptionId: string };
