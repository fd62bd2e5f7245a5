/** What a checkout asks a payment provider to do. */
export interface ChargeRequest {
  /** Exact amount, two decimals ("12.34"). */
  amount: string;
  currency: 'USD';
  card: CardDetails;
  /**
   * The checkout's idempotency key: a provider must answer a repeated key with the first outcome and
   * never charge twice (real providers offer exactly this).
   */
  idempotencyKey: string;
  description: string;
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

export type ChargeResult =
  | { status: 'succeeded'; reference: string; last4: string; brand: string }
  | { status: 'declined'; message: string };

export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
}
