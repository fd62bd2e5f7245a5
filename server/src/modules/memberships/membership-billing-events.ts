import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import type { MailQueue } from '../mail/index.js';
import type { BillingEvent } from '../payments/index.js';
import { ENDED, lockShopper, type MembershipBilling } from './membership-billing.js';
import { MembershipMailKind, queueMembershipEmail, type EmailOf, type LocaleOf } from './membership-emails.js';
import { GRACE_MS } from './membership-rules.js';
import { Membership, MembershipStatus } from './membership.entity.js';

export interface MembershipBillingEventsOptions {
  clock: () => Date;
  billing: MembershipBilling;
  mail: MailQueue;
  emailOf: EmailOf;
  /** The member's language, for their e-mails (English without it). */
  localeOf?: LocaleOf;
}

type InvoiceEvent = Extract<BillingEvent, { kind: 'invoice_paid' | 'invoice_failed' }>;

/** What became of an event: applied, a repeat of one applied before, or about no membership of this shop. */
export type BillingEventOutcome = 'applied' | 'repeated' | 'unknown';

const DECLINED = 'Your card was declined at renewal.';

/**
 * The provider's events about memberships (Stripe's `invoice.paid`, `invoice.payment_failed`,
 * `customer.subscription.updated` and `customer.subscription.deleted`, verified by the webhook).
 *
 * Each is applied once: its id is written to `membership_event` in the transaction that applies it,
 * after the shopper's lock and the membership's row lock, so a repeated or concurrent delivery finds
 * it and changes nothing. Events may come in any order, so each is applied by what it says rather
 * than by when it came: a paid invoice is a charge (one per invoice) and moves the period only
 * forward; a failed renewal makes the membership past due only when no payment covers its period;
 * an update is applied as the subscription is now (asked of the provider, not read from the event,
 * which may be older than another already applied); an ended membership is never revived.
 */
export class MembershipBillingEvents {
  constructor(private readonly options: MembershipBillingEventsOptions) {}

  async handle(ctx: RequestContext, event: BillingEvent): Promise<BillingEventOutcome> {
    const now = this.options.clock();
    const outcome = await ctx.em.fork().transactional(async (em) => {
      const [found] = await em.execute<{ id: number; user_id: number }[]>('select id, user_id from membership where provider_subscription_id = ?', [event.subscriptionId]);
      if (!found) return 'unknown' as const;
      await lockShopper(em, found.user_id);
      const membership = await em.findOneOrFail(Membership, found.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      const [fresh] = await em.execute<{ event_id: string }[]>(
        'insert into membership_event (event_id, type, membership_id, received_at) values (?, ?, ?, ?) on conflict (event_id) do nothing returning event_id',
        [event.eventId, event.kind, membership.id, now],
      );
      if (!fresh) return 'repeated' as const;
      await this.apply(em, membership, event, now);
      await em.flush();
      return 'applied' as const;
    });
    ctx.log.info({ eventId: event.eventId, kind: event.kind, subscriptionId: event.subscriptionId, outcome }, 'membership billing event');
    return outcome;
  }

  private async apply(em: EntityManager, membership: Membership, event: BillingEvent, now: Date): Promise<void> {
    const billing = this.options.billing;
    switch (event.kind) {
      case 'invoice_paid':
        return this.invoicePaid(em, membership, event, now);
      case 'invoice_failed':
        return this.invoiceFailed(em, membership, event, now);
      case 'subscription_updated': {
        const provider = billing.billingOf(membership);
        if (!provider || ENDED.includes(membership.status)) return;
        return billing.sync(em, membership, await provider.retrieve(event.subscriptionId), now);
      }
      case 'subscription_deleted':
        return billing.ended(membership, now);
    }
  }

  /** A paid invoice: its charge (kept even for a membership that has ended since: the money was taken), then the membership moves on. */
  private async invoicePaid(em: EntityManager, membership: Membership, event: InvoiceEvent, now: Date): Promise<void> {
    if (!(await this.recordCharge(em, membership, event, 'paid', null, now))) return;
    if (ENDED.includes(membership.status)) return;
    if (membership.status === MembershipStatus.INCOMPLETE) {
      await this.options.billing.activate(em, membership, now);
      const provider = this.options.billing.billingOf(membership);
      membership.cardLast4 = (await provider?.retrieve(event.subscriptionId))?.cardLast4 ?? membership.cardLast4;
    }
    this.options.billing.moveForward(membership, event.periodStart, event.periodEnd);
    // Past due until a payment covers the period whose renewal failed.
    if (membership.status === MembershipStatus.PAST_DUE) {
      const [failed] = await em.execute<{ period_end: Date | null }[]>(`select max(period_end) as period_end from membership_charge where membership_id = ? and status = 'failed'`, [membership.id]);
      if (!failed?.period_end || event.periodEnd.getTime() >= new Date(failed.period_end).getTime()) {
        membership.status = MembershipStatus.ACTIVE;
        membership.pastDueSince = null;
      }
    }
  }

  /**
   * A failed invoice. The first one leaves the membership incomplete (the browser shows the decline);
   * a renewal not covered by a payment makes it past due for 7 days, with the e-mail (once per invoice).
   */
  private async invoiceFailed(em: EntityManager, membership: Membership, event: InvoiceEvent, now: Date): Promise<void> {
    if (event.firstInvoice || (membership.status !== MembershipStatus.ACTIVE && membership.status !== MembershipStatus.PAST_DUE)) return;
    const [paid] = await em.execute<{ n: number }[]>(`select count(*)::int as n from membership_charge where membership_id = ? and status = 'paid' and period_end >= ?`, [membership.id, event.periodEnd]);
    if (paid!.n > 0) return;
    if (!(await this.recordCharge(em, membership, event, 'failed', DECLINED, now))) return;
    if (membership.status === MembershipStatus.ACTIVE || !membership.pastDueSince) {
      membership.status = MembershipStatus.PAST_DUE;
      membership.pastDueSince = now;
    }
    const graceEnd = new Date(membership.pastDueSince.getTime() + GRACE_MS);
    await queueMembershipEmail(this.options.mail, this.options.emailOf, em, membership, MembershipMailKind.PAYMENT_FAILED, graceEnd, now, this.options.localeOf);
  }

  /** Writes the invoice's charge, once per invoice and outcome; false when it was written before. */
  private async recordCharge(em: EntityManager, membership: Membership, event: InvoiceEvent, status: 'paid' | 'failed', message: string | null, now: Date): Promise<boolean> {
    const rows = await em.execute<{ id: string }[]>(
      `insert into membership_charge (membership_id, amount, period_start, period_end, status, reference, message, idempotency_key, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (idempotency_key) do nothing returning id`,
      [membership.id, event.amount, event.periodStart, event.periodEnd, status, event.invoiceId, message, `${membership.provider}-${event.invoiceId}-${status}`, now],
    );
    return rows.length > 0;
  }
}
