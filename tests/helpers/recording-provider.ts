import { toCents } from '../../server/src/core/money.js';
import type { ChargeRequest, ChargeResult, RefundRequest, RefundResult } from '../../server/src/modules/payments/payment-provider.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';

/** One movement of money the provider made: once per idempotency key, as a real provider would. */
export interface Movement {
  key: string;
  orderId: string;
  amount: string;
}

/**
 * The test provider, keeping what it charged and refunded and for which order: tests compare what
 * came in and what went back with what the shop recorded.
 */
export class RecordingProvider extends TestPaymentProvider {
  readonly paid: Movement[] = [];
  readonly givenBack: Movement[] = [];

  override async charge(request: ChargeRequest): Promise<ChargeResult> {
    const result = await super.charge(request);
    if (result.status === 'succeeded' && !this.paid.some((c) => c.key === request.idempotencyKey)) {
      this.paid.push({ key: request.idempotencyKey, orderId: request.orderId ?? request.description.split(' ').at(-1)!, amount: request.amount });
    }
    return result;
  }

  override async refund(request: RefundRequest): Promise<RefundResult> {
    const result = await super.refund(request);
    if (!this.givenBack.some((r) => r.key === request.idempotencyKey)) this.givenBack.push({ key: request.idempotencyKey, orderId: /^refund-([0-9a-f-]{36})/.exec(request.idempotencyKey)![1]!, amount: request.amount });
    return result;
  }

  /** What was charged (or refunded) for an order, in cents. */
  charged = (orderId: string): number => sumOf(this.paid, orderId);
  refunded = (orderId: string): number => sumOf(this.givenBack, orderId);
}

const sumOf = (movements: readonly Movement[], orderId: string) => movements.filter((m) => m.orderId === orderId).reduce((cents, m) => cents + toCents(m.amount), 0);
