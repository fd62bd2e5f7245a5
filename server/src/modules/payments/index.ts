/** The payments module's front door: the providers that charge and refund, as other modules see them. Everything else in this folder is its own. */
export { type BillingEvent, type BillingSubscription, type CardDetails, type ChargeRequest, type ChargeResult, type PaymentProvider, type ProviderBilling, type RefundRequest, type RefundResult, type SubscriptionPayments } from './payment-provider.js';
export type { StripePaymentProvider } from './stripe-payment-provider.js';
