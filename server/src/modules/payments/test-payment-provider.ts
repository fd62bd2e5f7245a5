import crypto from 'node:crypto';
import { inEnglish } from '../../core/errors.js';
import type { ChargeRequest, ChargeResult, Declined, PaymentProvider, RefundRequest, RefundResult, SubscriptionPayments } from './payment-provider.js';
import { MemoryLedger, PostgresLedger, type ProviderLedger } from './test-provider-ledger.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  notTaken: { id: 'error.payment.notTaken', defaultMessage: 'The payment could not be taken.' },
  noCard: { id: 'error.payment.noCard', defaultMessage: 'Please enter your card details.' },
  declined: { id: 'error.payment.declined', defaultMessage: 'Your card was declined. Try another card.' },
  testCardOnly: { id: 'error.payment.testCardOnly', defaultMessage: 'Your card was declined. In this shop, pay with the test card 4242 4242 4242 4242.' },
});

export const TEST_CARD_OK = '4242424242424242';
export const TEST_CARD_DECLINED = '4000000000000002';
/** Pays a membership's first charge, and is declined at every renewal. */
export const TEST_CARD_FAILS_AT_RENEWAL = '4000000000000341';

/**
 * The built-in provider for trying the shop: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is
 * declined, and any other number is declined with a hint. Like a real provider it remembers charges
 * by idempotency key, so a repeated key never charges twice: an order's charges in this process's
 * memory (a checkout's retry comes back to a live process), a membership's charges in a ledger of
 * its own in the shop's database once the shop connects it (`useDatabase`), which a renewal retried by
 * another process, after the first died between the charge and its commit, finds as it was.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  private readonly charges = new Map<string, ChargeResult>();
  /** How many charges actually went through (what a statement would show). */
  chargeCount = 0;
  private readonly refunds = new Map<string, RefundResult>();
  /** How many refunds actually went through. */
  refundCount = 0;

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const earlier = this.charges.get(request.idempotencyKey);
    if (earlier) return earlier;
    const result = this.decide(request);
    if (result.status === 'succeeded') {
      this.chargeCount += 1;
      this.charges.set(request.idempotencyKey, result);
    }
    return result;
  }

  async refund(request: RefundRequest): Promise<RefundResult> {
    const earlier = this.refunds.get(request.idempotencyKey);
    if (earlier) return earlier;
    const result: RefundResult = { status: 'succeeded', reference: `test_re_${crypto.randomBytes(12).toString('hex')}` };
    this.refundCount += 1;
    this.refunds.set(request.idempotencyKey, result);
    return result;
  }

  /** Where the membership charges' outcomes are kept (in memory until the shop connects its database). */
  private ledger: ProviderLedger = new MemoryLedger();

  useDatabase(databaseUrl: string): () => Promise<void> {
    const ledger = new PostgresLedger(databaseUrl);
    this.ledger = ledger;
    return async () => {
      // A provider handed to another shop since keeps that one's ledger.
      if (this.ledger === ledger) this.ledger = new MemoryLedger();
      await ledger.close();
    };
  }

  /**
   * Memberships: the first charge keeps a reference to the card (never its number: only whether it
   * is the card that fails at renewal), which renewals charge by idempotency key. Both are kept in the
   * ledger under their key (a declined first charge is not, as a declined order is not: the shopper
   * tries another card).
   */
  readonly subscriptions: SubscriptionPayments = {
    start: async (request) => {
      const paysOnce = request.card?.number === TEST_CARD_FAILS_AT_RENEWAL;
      const decided = this.decide(paysOnce ? { ...request, card: { ...request.card!, number: TEST_CARD_OK } } : request);
      if (decided.status !== 'succeeded') return decided.status === 'declined' ? decided : declined(refusals.notTaken);
      const started = { status: 'succeeded', reference: decided.reference!, last4: request.card!.number.slice(-4), brand: decided.brand, paymentMethod: `test_pm_${paysOnce ? 'fails_' : ''}${crypto.randomBytes(8).toString('hex')}` } as const;
      const { outcome, first } = await this.ledger.record(request.idempotencyKey, 'subscription-start', started);
      if (first) this.chargeCount += 1;
      return outcome;
    },
    renew: async (request) => {
      const decided = request.paymentMethod.startsWith('test_pm_fails_')
        ? ({ status: 'declined', message: 'Your card was declined at renewal.' } as const)
        : ({ status: 'succeeded', reference: `test_ch_${crypto.randomBytes(12).toString('hex')}` } as const);
      const { outcome, first } = await this.ledger.record<{ status: 'succeeded'; reference: string } | { status: 'declined'; message: string }>(request.idempotencyKey, 'subscription-renew', decided);
      if (first && outcome.status === 'succeeded') this.chargeCount += 1;
      return outcome;
    },
  };

  private decide({ card }: ChargeRequest): ChargeResult {
    if (!card) return declined(refusals.noCard);
    if (card.number === TEST_CARD_DECLINED) return declined(refusals.declined);
    if (card.number !== TEST_CARD_OK) {
      return declined(refusals.testCardOnly);
    }
    return { status: 'succeeded', reference: `test_ch_${crypto.randomBytes(12).toString('hex')}`, last4: card.number.slice(-4), brand: 'Visa' };
  }
}

/** A refusal of the test provider: its words are the shop's, so the shopper reads them in their language. */
const declined = (text: { id: string; defaultMessage: string }): Declined => ({ status: 'declined', message: inEnglish(text), said: text });
