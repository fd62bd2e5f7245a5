import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { conflictOnUnique } from '../../core/db-errors.js';
import { AppError, badInput, conflict, notFound, said } from '../../core/errors.js';
import { parseInput } from '../../core/input.js';
import { fromCents } from '../../core/money.js';
import { paymentCardSchema } from '../../rules/schemas.js';
import { describeChanges, named, recordAudit } from '../audit/index.js';
import { drop, formatDay, type MailQueue } from '../mail/index.js';
import type { PaymentProvider } from '../payments/index.js';
import { CURRENT, lockShopper, type MembershipBilling } from './membership-billing.js';
import { MEMBERSHIP_REFUSALS as refusals } from './membership-refusals.js';
import { MembershipMailKind, paymentFailedEmail, renewalReminderEmail, renewedEmail, type MembershipNotice } from './membership-emails.js';
import { cleanPlanInput, periodEnd } from './membership-rules.js';
import { Membership, MembershipCharge, MembershipPlan, MembershipStatus } from './membership.entity.js';


/** What a current membership gives at checkout. */
export interface MemberBenefits {
  membershipId: number;
  planName: string;
  ecardsIncluded: boolean;
  percentOffOther: number;
}

export interface MembershipOptions {
  clock: () => Date;
  /** The provider that takes payments (null: none set up); memberships need its `subscriptions`. */
  provider: PaymentProvider | null;
  mail: MailQueue;
  baseUrl: string;
  /** MEMBERSHIP_TEST_PERIOD_SECONDS: every period this long instead of a month or a year (tests). */
  testPeriodSeconds: number | null;
  /** Memberships the provider bills and renews itself (Stripe Billing). */
  billing: MembershipBilling;
}

const TAKEN = 'A plan with this name already exists.';

/**
 * Memberships (contract section 18): the owner's plans, and a shopper's membership of one. Subscribing
 * charges the first period through the provider's subscriptions (the test provider renews on the
 * shop's own clock, see MembershipRenewals), or, when the provider bills memberships itself (Stripe
 * Billing), starts its subscription, which the browser pays and the provider's events settle (see
 * MembershipBilling and MembershipBillingEvents). Cancelling keeps the benefits to the end of the
 * period paid for, and resuming before then undoes it. A shopper has at most one current membership:
 * the subscribe runs under a lock on the shopper, and a unique index backs it up.
 */
export class MembershipService {
  constructor(private readonly options: MembershipOptions) {
    const render = (make: typeof paymentFailedEmail) => (jobs: readonly { to: string | null; payload: MembershipNotice }[], { shop }: { shop: Parameters<typeof paymentFailedEmail>[3] }) =>
      Promise.all(jobs.map((job) => (job.to ? make(job.to, job.payload, options.baseUrl, shop) : drop())));
    options.mail.register<MembershipNotice>({ kind: MembershipMailKind.PAYMENT_FAILED, render: render(paymentFailedEmail) });
    options.mail.register<MembershipNotice>({ kind: MembershipMailKind.RENEWAL_REMINDER, render: render(renewalReminderEmail) });
    options.mail.register<MembershipNotice>({ kind: MembershipMailKind.RENEWED, render: render(renewedEmail) });
  }

  /** The plans: those offered (shoppers), or every one (admins), cheapest first. */
  plans(ctx: RequestContext, all = false): Promise<MembershipPlan[]> {
    return ctx.em.find(MembershipPlan, all ? {} : { active: true }, { orderBy: { price: 'asc', id: 'asc' } });
  }

  async createPlan(ctx: RequestContext, raw: Record<string, unknown>): Promise<MembershipPlan> {
    const input = cleanPlanInput(raw);
    return ctx.em.fork().transactional(async (em) => {
      const plan = em.create(MembershipPlan, input);
      await conflictOnUnique(() => em.flush(), () => conflict(TAKEN, 'name'));
      await recordAudit(withEm(ctx, em), { entity: 'membership', id: plan.id, action: 'created', summary: `Created the plan ${named(plan.name)}: $${plan.price} a ${plan.period}` });
      return plan;
    });
  }

  async updatePlan(ctx: RequestContext, id: number, raw: Record<string, unknown>): Promise<MembershipPlan> {
    const input = cleanPlanInput(raw);
    return ctx.em.fork().transactional(async (em) => {
      const plan = await em.findOne(MembershipPlan, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!plan) throw notFound('Membership plan');
      const before = { ...plan };
      em.assign(plan, input);
      await conflictOnUnique(() => em.flush(), () => conflict(TAKEN, 'name'));
      const changes = describeChanges(before, { ...plan }, { name: 'name', price: 'price', period: 'period', ecardsIncluded: 'e-cards included', percentOffOther: 'percent off', active: 'offered' });
      await recordAudit(withEm(ctx, em), { entity: 'membership', id, action: 'updated', summary: `The plan ${named(plan.name)}: ${changes}` });
      return plan;
    });
  }

  /**
   * The signed-in shopper's membership: the current one, else the latest (one started and not paid
   * yet, cancelled or lapsed); null for none. One whose first payment was never made is not shown.
   */
  async mine(ctx: RequestContext): Promise<Membership | null> {
    const viewer = await ctx.requireViewer();
    const userId = viewer.user.id;
    return (await ctx.em.findOne(Membership, { userId, status: { $in: CURRENT } })) ?? ctx.em.findOne(Membership, { userId, status: { $ne: MembershipStatus.EXPIRED } }, { orderBy: { id: 'desc' } });
  }

  /** A membership's charges, newest first. */
  charges(ctx: RequestContext, membership: Membership): Promise<MembershipCharge[]> {
    return ctx.em.find(MembershipCharge, { membershipId: membership.id }, { orderBy: { id: 'desc' } });
  }

  /**
   * Becomes a member: charges the plan's first period and keeps the card for the renewals. CONFLICT
   * for a shopper who is a member already; PAYMENT_DECLINED, keeping nothing, when the card is refused.
   * With a provider that bills memberships itself the card goes to it from the browser: the
   * membership starts INCOMPLETE, with the client secret its first payment is confirmed with.
   */
  async subscribe(ctx: RequestContext, planId: number, payment: unknown): Promise<Membership> {
    const viewer = await ctx.requireViewer();
    const userId = viewer.user.id;
    const provider = this.options.provider;
    if (provider?.billing) {
      const started = await this.options.billing.subscribe(ctx.em, userId, planId);
      ctx.log.info({ membershipId: started.id, plan: started.plan.id, status: started.status }, 'membership started at the provider');
      return started;
    }
    const subscriptions = provider?.subscriptions;
    if (!provider || !subscriptions) throw new AppError('PAYMENTS_UNAVAILABLE', refusals.paymentsOff);
    const now = this.options.clock();
    const card = parseInput(paymentCardSchema(now), payment, 'payment');
    const membership = await ctx.em.fork().transactional(async (em) => {
      // One subscribe per shopper at a time: a double click waits, then finds the membership.
      await lockShopper(em, userId);
      const plan = await em.findOne(MembershipPlan, { id: planId, active: true });
      if (!plan) throw notFound(refusals.noPlan);
      const current = await em.findOne(Membership, { userId, status: { $in: CURRENT } });
      if (current?.status === MembershipStatus.ACTIVE && current.gift) throw conflict(said(refusals.giftLasts, { until: (locale) => formatDay(current.currentPeriodEnd, null, locale) }));
      if (current?.status === MembershipStatus.ACTIVE) throw conflict(refusals.member);
      // A membership whose renewal failed is replaced by the one paid for now (its grace period ends).
      if (current) {
        current.status = MembershipStatus.CANCELLED;
        current.endedAt = now;
        await em.flush();
      }
      const end = periodEnd(now, plan.period, this.options.testPeriodSeconds);
      const key = `membership-start-${userId}-${now.getTime()}`;
      const charged = await subscriptions.start({ amount: plan.price, currency: 'USD', card, idempotencyKey: key, description: `Art & Song Cards membership: ${plan.name}` });
      if (charged.status === 'declined') throw new AppError('PAYMENT_DECLINED', charged.said ?? charged.message);
      const membership = em.create(Membership, { userId, plan, status: MembershipStatus.ACTIVE, provider: provider.name, paymentMethod: charged.paymentMethod, cardLast4: charged.last4, currentPeriodStart: now, currentPeriodEnd: end, createdAt: now });
      await em.flush();
      em.create(MembershipCharge, { membershipId: membership.id, amount: plan.price, periodStart: now, periodEnd: end, status: 'paid', reference: charged.reference, idempotencyKey: key, createdAt: now });
      await em.flush();
      return membership;
    });
    ctx.log.info({ membershipId: membership.id, plan: membership.plan.id }, 'membership started');
    return membership;
  }

  /**
   * Cancels at the end of the period paid for (the benefits last until then); a past-due membership
   * ends now. A provider-billed one is changed at the provider in the same transaction.
   */
  async cancel(ctx: RequestContext): Promise<Membership> {
    return this.change(ctx, async (membership) => {
      if (membership.gift) throw conflict(said(refusals.giftEnds, { until: (locale) => formatDay(membership.currentPeriodEnd, null, locale) }));
      const billed = membership.providerSubscriptionId !== null;
      if (membership.status === MembershipStatus.PAST_DUE) {
        membership.status = MembershipStatus.CANCELLED;
        membership.endedAt = this.options.clock();
        if (billed) await this.atProvider(() => this.options.billing.endAtProvider(membership, 'cancelled'));
      } else if (membership.cancelAtPeriodEnd) throw conflict(refusals.cancelled);
      else if (billed) await this.options.billing.setCancelAtPeriodEnd(membership, true);
      else membership.cancelAtPeriodEnd = true;
    });
  }

  /** Undoes a cancellation before the period paid for ends: it renews again. */
  async resume(ctx: RequestContext): Promise<Membership> {
    return this.change(ctx, async (membership) => {
      if (membership.gift) throw conflict(refusals.giftNoRenew);
      if (membership.status !== MembershipStatus.ACTIVE || !membership.cancelAtPeriodEnd) throw conflict(refusals.notCancelled);
      if (membership.providerSubscriptionId) await this.options.billing.setCancelAtPeriodEnd(membership, false);
      else membership.cancelAtPeriodEnd = false;
    });
  }

  private async change(ctx: RequestContext, apply: (membership: Membership) => Promise<void>): Promise<Membership> {
    const viewer = await ctx.requireViewer();
    return ctx.em.fork().transactional(async (em) => {
      const membership = await em.findOne(Membership, { userId: viewer.user.id, status: { $in: CURRENT } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!membership) throw notFound(refusals.none);
      await apply(membership);
      await em.flush();
      return membership;
    });
  }

  /** A change at the provider on the shopper's behalf; one the provider does not take rolls the change back. */
  private async atProvider(call: () => Promise<void>): Promise<void> {
    try {
      await call();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('PAYMENT_FAILED', refusals.changeUnreachable);
    }
  }

  /** What a shopper's current membership gives at checkout (null: none). */
  async benefitsFor(em: EntityManager, userId: number): Promise<MemberBenefits | null> {
    const membership = await em.findOne(Membership, { userId, status: { $in: CURRENT } });
    if (!membership) return null;
    return { membershipId: membership.id, planName: membership.plan.name, ecardsIncluded: membership.plan.ecardsIncluded, percentOffOther: membership.plan.percentOffOther };
  }

  /** The plan of a shopper's current membership (null: not a member), batched across a request's rows. */
  currentPlanOf(ctx: RequestContext, userId: number): Promise<string | null> {
    return ctx
      .loader<number, string>('membership:current-plan', async (userIds) => {
        const rows = await ctx.em.execute<{ user_id: number; name: string }[]>(
          `select m.user_id, p.name from membership m join membership_plan p on p.id = m.plan_id where m.user_id = any(?::int[]) and m.status in ('active', 'past_due')`,
          [`{${userIds.join(',')}}`],
        );
        return new Map(rows.map((row) => [Number(row.user_id), row.name]));
      })
      .load(userId);
  }

  /**
   * Sales's figures of memberships for [from, to): members now (active or past due), those who
   * joined and those whose membership ended in the period, and the monthly recurring revenue (a
   * yearly plan counts a twelfth of its price).
   */
  async figures(ctx: RequestContext, from: Date, to: Date): Promise<{ activeMembers: number; newMembers: number; endedMembers: number; monthlyRecurringRevenue: string }> {
    const [row] = await ctx.em.execute<{ active: string; joined: string; ended: string; mrr_cents: string | null }[]>(
      `select (select count(*) from membership where status in ('active', 'past_due')) as active,
              (select count(*) from membership where created_at >= ? and created_at < ? and status not in ('incomplete', 'expired')) as joined,
              (select count(*) from membership where ended_at >= ? and ended_at < ? and status in ('cancelled', 'lapsed')) as ended,
              (select sum(round(p.price * 100 / case when p.period = 'year' then 12 else 1 end)) from membership m join membership_plan p on p.id = m.plan_id where m.status in ('active', 'past_due') and not m.cancel_at_period_end) as mrr_cents`,
      [from, to, from, to],
    );
    return { activeMembers: Number(row!.active), newMembers: Number(row!.joined), endedMembers: Number(row!.ended), monthlyRecurringRevenue: fromCents(Number(row!.mrr_cents ?? 0)) };
  }
}

/** A plan id from a client (GraphQL gives an Int, REST anything). */
export function planId(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw badInput(refusals.choosePlan, 'planId');
  return value;
}
