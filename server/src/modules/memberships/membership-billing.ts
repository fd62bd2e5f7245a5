import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { AppError, conflict, notFound, type ErrorText } from '../../core/errors.js';
import { toCents } from '../../core/money.js';
import type { BillingSubscription, PaymentProvider, ProviderBilling } from '../payments/index.js';
import type { EmailOf } from './membership-emails.js';
import { Membership, MembershipPlan, MembershipStatus } from './membership.entity.js';
import { MEMBERSHIP_REFUSALS as refusals } from './membership-refusals.js';


/** Statuses that give the benefits (a failed renewal keeps them for its grace period). */
export const CURRENT = [MembershipStatus.ACTIVE, MembershipStatus.PAST_DUE];
/** Statuses nothing changes any more: a late event never revives them. */
export const ENDED = [MembershipStatus.CANCELLED, MembershipStatus.LAPSED, MembershipStatus.EXPIRED];

/**
 * The client secret of a membership's first payment, for the answer of the subscribe that started it
 * only: it is never stored and never shown on a later look-up.
 */
export const membershipClientSecrets = new WeakMap<Membership, string>();

/** One subscribe, activation or event per shopper at a time: taken first, before any membership row, so the two never wait on each other in opposite orders. */
export async function lockShopper(em: EntityManager, userId: number): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`membership:${userId}`]);
}

export interface MembershipBillingOptions {
  clock: () => Date;
  provider: PaymentProvider | null;
  emailOf: EmailOf;
  log: Logger;
}

const UNREACHABLE: ErrorText = refusals.startUnreachable;

/**
 * Memberships the provider bills and renews (Stripe Billing). Subscribing makes (once) the shopper's
 * customer and the plan's price, then a subscription whose first invoice the browser pays with the
 * card element: until then the membership is INCOMPLETE and gives nothing. Cancelling and resuming
 * set the subscription's `cancel_at_period_end` in the transaction that changes the row (a provider
 * that refuses rolls it back). `sync` applies the subscription as the provider has it now; it only
 * moves forward: an ended membership stays ended and a period never moves back.
 */
export class MembershipBilling {
  constructor(private readonly options: MembershipBillingOptions) {}

  /** The provider's billing, when the shop's provider renews memberships itself. */
  get billing(): ProviderBilling | null {
    return this.options.provider?.billing ?? null;
  }

  /**
   * Starts a membership of `planId` for the shopper: INCOMPLETE, with its first payment's client
   * secret for the browser (membershipClientSecrets). A membership started before and not paid yet
   * is offered again when it is of the same plan (Stripe keeps its invoice open) and given up
   * otherwise. A past-due membership keeps its grace period until the new one is paid.
   */
  async subscribe(parent: EntityManager, userId: number, planId: number): Promise<Membership> {
    const billing = this.require();
    const now = this.options.clock();
    return parent.fork().transactional(async (em) => {
      await lockShopper(em, userId);
      const plan = await em.findOne(MembershipPlan, { id: planId, active: true });
      if (!plan) throw notFound(refusals.noPlan);
      const current = await em.findOne(Membership, { userId, status: { $in: CURRENT } });
      if (current?.status === MembershipStatus.ACTIVE) throw conflict(refusals.member);
      const started = await em.findOne(Membership, { userId, status: MembershipStatus.INCOMPLETE }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (started) {
        const again = await this.startedAgain(em, started, plan, now);
        if (again) return again;
      }
      const customerId = await this.customerOf(em, billing, userId);
      const priceId = await this.priceOf(em, billing, plan);
      const membership = em.create(Membership, { userId, plan, status: MembershipStatus.INCOMPLETE, provider: this.options.provider!.name, currentPeriodStart: now, currentPeriodEnd: now, createdAt: now });
      await em.flush();
      const subscription = await this.ask(() => billing.subscribe({ customerId, priceId, membershipId: membership.id, userId, idempotencyKey: `membership-${membership.id}-subscription` }));
      membership.providerSubscriptionId = subscription.id;
      membership.currentPeriodStart = subscription.periodStart;
      membership.currentPeriodEnd = subscription.periodEnd;
      await em.flush();
      await this.ask(() => this.sync(em, membership, subscription, now));
      if (membership.status === MembershipStatus.INCOMPLETE && !subscription.clientSecret) throw new AppError('PAYMENT_FAILED', UNREACHABLE);
      if (subscription.clientSecret) membershipClientSecrets.set(membership, subscription.clientSecret);
      await em.flush();
      return membership;
    });
  }

  /** The membership started and not paid yet, offered again (same plan, still payable), or given up (null). */
  private async startedAgain(em: EntityManager, started: Membership, plan: MembershipPlan, now: Date): Promise<Membership | null> {
    const billing = this.require();
    if (started.plan.id === plan.id && started.providerSubscriptionId && started.plan.providerPriceKey === priceKey(plan)) {
      const subscription = await this.ask(() => billing.retrieve(started.providerSubscriptionId!));
      await this.ask(() => this.sync(em, started, subscription, now));
      if (started.status === MembershipStatus.ACTIVE) return started;
      if (started.status === MembershipStatus.INCOMPLETE && subscription.clientSecret) {
        membershipClientSecrets.set(started, subscription.clientSecret);
        return started;
      }
    }
    if (started.status === MembershipStatus.INCOMPLETE) {
      await this.ask(() => this.endAtProvider(started, 'replaced'));
      started.status = MembershipStatus.EXPIRED;
    }
    await em.flush();
    return null;
  }

  /** The shopper's customer at the provider, made once and kept. */
  private async customerOf(em: EntityManager, billing: ProviderBilling, userId: number): Promise<string> {
    const provider = this.options.provider!.name;
    const [kept] = await em.execute<{ customer_id: string }[]>('select customer_id from membership_customer where user_id = ? and provider = ?', [userId, provider]);
    if (kept) return kept.customer_id;
    const email = await this.options.emailOf(em, userId);
    const customerId = await this.ask(() => billing.createCustomer({ userId, email, idempotencyKey: `membership-customer-${userId}` }));
    await em.execute('insert into membership_customer (user_id, provider, customer_id) values (?, ?, ?)', [userId, provider, customerId]);
    return customerId;
  }

  /** The plan's recurring price at the provider for its price and period now, made when the plan has none for them. */
  private async priceOf(em: EntityManager, billing: ProviderBilling, plan: MembershipPlan): Promise<string> {
    const key = priceKey(plan);
    if (plan.providerPriceId && plan.providerPriceKey === key) return plan.providerPriceId;
    const made = await this.ask(() =>
      billing.createPrice({ planId: plan.id, planName: plan.name, productId: plan.providerProductId, amount: plan.price, currency: 'USD', period: plan.period, idempotencyKey: `membership-plan-${key}` }),
    );
    plan.providerProductId = made.productId;
    plan.providerPriceId = made.priceId;
    plan.providerPriceKey = key;
    await em.flush();
    return made.priceId;
  }

  /** Cancels at the end of the period (true) or undoes it (false) at the provider; the caller changes the row in the same transaction. */
  async setCancelAtPeriodEnd(membership: Membership, cancel: boolean): Promise<void> {
    const billing = this.billingOf(membership);
    if (!billing) throw new AppError('PAYMENTS_UNAVAILABLE', refusals.providerGone);
    // One key per change of this row: a retried request asks once, a later change asks again.
    const key = `membership-${membership.id}-cancel-at-period-end-${cancel}-${membership.updatedAt.getTime()}`;
    const subscription = await this.ask(() => billing.setCancelAtPeriodEnd(membership.providerSubscriptionId!, cancel, key), refusals.changeUnreachable);
    membership.cancelAtPeriodEnd = subscription.cancelAtPeriodEnd;
  }

  /** Ends the membership's subscription at the provider now (it lapsed, was cancelled while past due, or was replaced). */
  async endAtProvider(membership: Membership, why: 'lapsed' | 'cancelled' | 'replaced'): Promise<void> {
    if (!membership.providerSubscriptionId) return;
    const billing = this.billingOf(membership);
    if (!billing) {
      this.options.log.warn({ membershipId: membership.id, why }, "a membership ended whose provider the shop no longer uses: its subscription there was not cancelled");
      return;
    }
    await billing.cancelNow(membership.providerSubscriptionId, `membership-${membership.id}-end`);
  }

  /**
   * Before an account is deleted, in its transaction: the subscriptions of its memberships that have
   * not ended are cancelled at the provider now (nothing may be charged for an account that is gone).
   * A provider that cannot be asked refuses the deletion, which the shopper may try again.
   */
  async endAllOf(em: EntityManager, userId: number): Promise<void> {
    const open = await em.find(Membership, { userId, status: { $nin: ENDED }, providerSubscriptionId: { $ne: null } });
    for (const membership of open) {
      await this.ask(() => this.endAtProvider(membership, 'cancelled'), refusals.deleteUnreachable);
    }
  }

  /**
   * Applies the subscription as the provider has it now. A membership that has ended stays ended;
   * a first payment made activates it; a renewal the provider could not charge makes it past due
   * (the e-mail comes with the failed invoice's event); the period moves forward only.
   */
  async sync(em: EntityManager, membership: Membership, subscription: BillingSubscription, now: Date): Promise<void> {
    if (ENDED.includes(membership.status)) return;
    if (subscription.status === 'expired' || subscription.status === 'ended') {
      this.ended(membership, now);
      return;
    }
    if (subscription.status === 'active' && membership.status === MembershipStatus.INCOMPLETE) await this.activate(em, membership, now);
    else if (subscription.status === 'active' && membership.status === MembershipStatus.PAST_DUE) {
      membership.status = MembershipStatus.ACTIVE;
      membership.pastDueSince = null;
    } else if (subscription.status === 'past_due' && membership.status === MembershipStatus.ACTIVE) {
      membership.status = MembershipStatus.PAST_DUE;
      membership.pastDueSince = now;
    }
    if (subscription.cardLast4) membership.cardLast4 = subscription.cardLast4;
    if (membership.status === MembershipStatus.INCOMPLETE) return;
    membership.cancelAtPeriodEnd = subscription.cancelAtPeriodEnd;
    this.moveForward(membership, subscription.periodStart, subscription.periodEnd);
  }

  /** Its subscription ended at the provider: never paid, it expires; past due, it lapses; otherwise it is cancelled. */
  ended(membership: Membership, now: Date): void {
    if (ENDED.includes(membership.status)) return;
    if (membership.status === MembershipStatus.INCOMPLETE) {
      membership.status = MembershipStatus.EXPIRED;
      return;
    }
    membership.status = membership.status === MembershipStatus.PAST_DUE ? MembershipStatus.LAPSED : MembershipStatus.CANCELLED;
    membership.endedAt = membership.currentPeriodEnd < now ? membership.currentPeriodEnd : now;
  }

  /**
   * The first payment made: the membership becomes the shopper's current one. A past-due membership
   * it replaces ends now (and its subscription at the provider), first, since a shopper has one
   * current membership.
   */
  async activate(em: EntityManager, membership: Membership, now: Date): Promise<void> {
    const replaced = await em.find(Membership, { userId: membership.userId, status: { $in: CURRENT }, id: { $ne: membership.id } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    for (const old of replaced) {
      old.status = MembershipStatus.CANCELLED;
      old.endedAt = now;
      await this.endAtProvider(old, 'replaced');
    }
    await em.flush();
    membership.status = MembershipStatus.ACTIVE;
    membership.pastDueSince = null;
  }

  /** Moves the period paid for to [start, end) when it ends later than the one the membership has. */
  moveForward(membership: Membership, start: Date, end: Date): void {
    if (end.getTime() <= membership.currentPeriodEnd.getTime()) return;
    membership.currentPeriodStart = start;
    membership.currentPeriodEnd = end;
  }

  /** The billing of the provider that started this membership, when the shop still uses it. */
  billingOf(membership: Membership): ProviderBilling | null {
    return this.options.provider?.name === membership.provider ? this.billing : null;
  }

  private require(): ProviderBilling {
    const billing = this.billing;
    if (!billing) throw new AppError('PAYMENTS_UNAVAILABLE', refusals.paymentsOff);
    return billing;
  }

  /** A call to the provider; one that fails is PAYMENT_FAILED (the transaction around it rolls back). */
  private async ask<T>(call: () => Promise<T>, message = UNREACHABLE): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.options.log.error({ err: error }, 'the payment provider did not take a membership request');
      throw new AppError('PAYMENT_FAILED', message);
    }
  }
}

/** What a plan's provider price is made for: the plan, its price and its period (a change of either needs a new price). */
export const priceKey = (plan: MembershipPlan) => `${plan.id}-${toCents(plan.price)}-${plan.period}`;
