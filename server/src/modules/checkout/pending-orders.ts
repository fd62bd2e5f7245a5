import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { createSystemContext, type RequestContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { toCents } from '../../core/money.js';
import { Order, OrderStatus } from '../orders/index.js';
import type { CheckoutService } from './checkout.service.js';
import type { ChargeRequest, ChargeResult, PaymentProvider } from '../payments/index.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  unreachable: { id: 'error.checkout.paymentUnreachable', defaultMessage: 'The payment could not be started: the payment service did not answer as expected. Nothing was charged; please try again in a moment.' },
});

/** A checkout still pending this long after it was written was abandoned (its discount use comes back). */
export const ABANDONED_AFTER_MS = 30 * 60_000;
/** How often the processes that run the background jobs look for abandoned checkouts. */
const SWEEP_EVERY_MS = 5 * 60_000;
/** Abandoned checkouts settled per sweep (the next sweep takes the rest). */
const SWEEP_BATCH = 100;

/**
 * Asks the provider to charge a pending order. An order with nothing to pay (a discount took it all)
 * is paid without asking anyone. A request the provider could not answer (unreachable, an outage, a
 * request it refused) drops the pending order, giving its discount use back, and is PAYMENT_FAILED:
 * nothing was charged and the shopper may simply try again.
 */
export async function chargePending(ctx: RequestContext, checkout: Pick<CheckoutService, 'dropPending'>, provider: PaymentProvider, request: ChargeRequest & { orderId: string }): Promise<ChargeResult> {
  if (toCents(request.amount) === 0) return { status: 'succeeded', reference: null, last4: null, brand: null };
  try {
    return await provider.charge(request);
  } catch (error) {
    ctx.log.error({ err: error, orderId: request.orderId, provider: provider.name }, 'the payment provider did not take the charge request; the pending order is dropped');
    await checkout.dropPending(ctx, request.orderId);
    throw new AppError('PAYMENT_FAILED', refusals.unreachable);
  }
}

export interface PendingOrderSweepOptions {
  /** Every provider the shop can talk to: an abandoned payment is cancelled by the provider that started it. */
  providers: PaymentProvider[];
  checkout: Pick<CheckoutService, 'dropPending' | 'settle'>;
  clock: () => Date;
  log: Logger;
}

/**
 * Abandoned checkouts: an order still pending 30 minutes after it was written (the shopper left the
 * payment page, or the process died between writing and charging) holds a discount use and, with
 * Stripe, an open PaymentIntent. The sweep cancels the intent, and then drops the order and gives the
 * use back (an order whose intent was cancelled stays as `cancelled`, as Stripe's own cancel event
 * leaves it; one never charged is removed). A payment found paid after all is settled instead; one
 * the provider is still taking, or that cannot be cancelled now, is left for the next sweep. Runs in
 * the processes that run the background jobs; several may sweep at once (dropping and settling lock
 * the order and look at its status again).
 */
export class PendingOrderSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly options: PendingOrderSweepOptions) {}

  /** Sweeps now and every few minutes from now on. */
  start(orm: MikroORM): void {
    const run = () => {
      if (this.running) return;
      this.running = this.sweep(orm)
        .catch((error: unknown) => {
          this.options.log.warn({ err: error }, 'the sweep of abandoned checkouts failed; it runs again later');
          return 0;
        })
        .finally(() => (this.running = null));
    };
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Settles every checkout abandoned for longer than ABANDONED_AFTER_MS; returns how many were dropped. */
  async sweep(orm: MikroORM): Promise<number> {
    const ctx = createSystemContext({ em: orm.em.fork(), log: this.options.log, task: 'abandoned-checkouts' });
    const cutoff = new Date(this.options.clock().getTime() - ABANDONED_AFTER_MS);
    const stale = await ctx.em.find(Order, { status: OrderStatus.PENDING, createdAt: { $lt: cutoff } }, { orderBy: { createdAt: 'asc' }, limit: SWEEP_BATCH });
    let dropped = 0;
    for (const order of stale) {
      if (await this.abandon(ctx, order)) dropped += 1;
    }
    if (dropped) this.options.log.info({ orders: dropped }, 'abandoned checkouts dropped');
    return dropped;
  }

  /** Cancels one abandoned checkout's payment and drops it; false when it stays (paid after all, or to be tried again). */
  private async abandon(ctx: RequestContext, order: Order): Promise<boolean> {
    const facts = { orderId: order.id, provider: order.paymentProvider, reference: order.paymentReference };
    if (!order.paymentReference) {
      // Never charged: nothing to cancel anywhere.
      await this.options.checkout.dropPending(ctx, order.id);
      return true;
    }
    const provider = this.options.providers.find((p) => p.name === order.paymentProvider);
    if (provider?.cancel) {
      let outcome;
      try {
        outcome = await provider.cancel(order.paymentReference);
      } catch (error) {
        ctx.log.warn({ ...facts, err: error }, 'could not cancel the payment of an abandoned checkout; trying again later');
        return false;
      }
      if (outcome.status === 'processing') return false;
      if (outcome.status === 'succeeded') {
        await this.options.checkout.settle(ctx, order.id, { status: 'succeeded', reference: order.paymentReference, last4: outcome.last4, brand: outcome.brand }, this.options.clock());
        ctx.log.warn(facts, 'a checkout thought abandoned was paid: settled as paid (its payment event never came)');
        return false;
      }
    } else {
      ctx.log.warn(facts, 'the provider of an abandoned checkout cannot cancel its payment here; the order is cancelled all the same');
    }
    await this.options.checkout.dropPending(ctx, order.id, OrderStatus.CANCELLED);
    return true;
  }
}
