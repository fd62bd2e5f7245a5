import type { MikroORM } from '@mikro-orm/postgresql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { MailQueue } from '../mail/index.js';
import type { PaymentProvider } from '../payments/index.js';
import { MembershipMailKind } from './membership-emails.js';
import { GRACE_MS, periodEnd, REMINDER_MS } from './membership-rules.js';
import { Membership, MembershipCharge, MembershipPeriod, MembershipStatus } from './membership.entity.js';
import { MembershipService } from './membership.service.js';

export interface RenewalOptions {
  clock: () => Date;
  provider: PaymentProvider | null;
  mail: MailQueue;
  log: Logger;
  testPeriodSeconds: number | null;
  /** The address of a shopper (their membership's e-mails go there). */
  emailOf: (em: EntityManager, userId: number) => Promise<string | null>;
}

/** Memberships looked at per run (the next run takes the rest). */
const BATCH = 200;

/**
 * The memberships the shop renews on its own clock (the test provider's): at the end of a paid period
 * it charges the kept card with a key made of the membership and the period's end, so a renewal run
 * twice (two processes, a crash after the charge) charges once; a declined renewal makes it past due
 * with an e-mail, and 7 days later it lapses. A cancelled one ends with its period; a yearly one is
 * reminded 7 days before it renews. Each membership is changed in a transaction of its own with its
 * row locked (FOR UPDATE SKIP LOCKED: processes that run at once share the work).
 */
export class MembershipRenewals {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly options: RenewalOptions) {}

  /** Runs now and then every `everyMs` (a tenth of a test period, at most a minute). */
  start(orm: MikroORM): void {
    const everyMs = Math.min(60_000, Math.max(250, (this.options.testPeriodSeconds ?? 600) * 100));
    const run = () => {
      if (this.running) return;
      this.running = this.runDue(orm.em.fork())
        .catch((error: unknown) => {
          this.options.log.warn({ err: error }, 'the membership renewals failed; they run again later');
          return 0;
        })
        .finally(() => (this.running = null));
    };
    this.timer = setInterval(run, everyMs);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Does what is due now; returns how many memberships it changed. */
  async runDue(em: EntityManager): Promise<number> {
    const now = this.options.clock();
    const soon = new Date(now.getTime() + REMINDER_MS);
    const graceStart = new Date(now.getTime() - GRACE_MS);
    const rows = await em.execute<{ id: number }[]>(
      `select m.id from membership m join membership_plan p on p.id = m.plan_id
        where (m.status = 'active' and m.current_period_end <= ?)
           or (m.status = 'past_due' and m.past_due_since <= ?)
           or (m.status = 'active' and not m.cancel_at_period_end and p.period = 'year' and m.current_period_end <= ? and m.reminded_for is distinct from m.current_period_end)
        order by m.current_period_end limit ${BATCH}`,
      [now, graceStart, soon],
    );
    let changed = 0;
    for (const { id } of rows) if (await this.settle(em, id, now)) changed += 1;
    return changed;
  }

  /** One membership's due step, in a transaction of its own; false when another process holds it or nothing is due. */
  private async settle(parent: EntityManager, id: number, now: Date): Promise<boolean> {
    return parent.fork().transactional(async (em) => {
      const [locked] = await em.execute<{ id: number }[]>('select id from membership where id = ? for update skip locked', [id]);
      if (!locked) return false;
      const membership = await em.findOneOrFail(Membership, id, { refresh: true });
      const end = membership.currentPeriodEnd;
      if (membership.status === MembershipStatus.PAST_DUE) {
        if (!membership.pastDueSince || membership.pastDueSince.getTime() + GRACE_MS > now.getTime()) return false;
        membership.status = MembershipStatus.LAPSED;
        membership.endedAt = now;
      } else if (membership.status !== MembershipStatus.ACTIVE) {
        return false;
      } else if (end <= now && membership.cancelAtPeriodEnd) {
        membership.status = MembershipStatus.CANCELLED;
        membership.endedAt = end;
      } else if (end <= now) {
        await this.renew(em, membership, now);
      } else if (membership.plan.period === MembershipPeriod.YEAR && !membership.cancelAtPeriodEnd && end.getTime() - REMINDER_MS <= now.getTime() && membership.remindedFor?.getTime() !== end.getTime()) {
        membership.remindedFor = end;
        await this.email(em, membership, MembershipMailKind.RENEWAL_REMINDER, end, now);
      } else {
        return false;
      }
      await em.flush();
      return true;
    });
  }

  /** Charges the next period: paid, it moves on; declined, the membership is past due and its member told. */
  private async renew(em: EntityManager, membership: Membership, now: Date): Promise<void> {
    const start = membership.currentPeriodEnd;
    const end = periodEnd(start, membership.plan.period, this.options.testPeriodSeconds);
    const key = `membership-${membership.id}-${start.toISOString()}`;
    const renewals = this.options.provider?.name === membership.provider ? this.options.provider.subscriptions : undefined;
    const result = renewals && membership.paymentMethod
      ? await renewals.renew({ paymentMethod: membership.paymentMethod, amount: membership.plan.price, currency: 'USD', idempotencyKey: key, description: `Art & Song Cards membership: ${membership.plan.name}` })
      : ({ status: 'declined', message: 'The membership cannot be charged: the shop no longer takes payments through its provider.' } as const);
    const charge = { membershipId: membership.id, amount: membership.plan.price, periodStart: start, periodEnd: end, idempotencyKey: key };
    if (result.status === 'succeeded') {
      await em.insert(MembershipCharge, { ...charge, status: 'paid', reference: result.reference, createdAt: now });
      membership.currentPeriodStart = start;
      membership.currentPeriodEnd = end;
      // The receipt, queued with the renewal: it exists exactly when the renewal is committed.
      await this.email(em, membership, MembershipMailKind.RENEWED, end, now);
      return;
    }
    await em.insert(MembershipCharge, { ...charge, status: 'failed', message: result.message, createdAt: now });
    membership.status = MembershipStatus.PAST_DUE;
    membership.pastDueSince = now;
    await this.email(em, membership, MembershipMailKind.PAYMENT_FAILED, new Date(now.getTime() + GRACE_MS), now);
  }

  private async email(em: EntityManager, membership: Membership, kind: string, at: Date, now: Date): Promise<void> {
    const to = await this.options.emailOf(em, membership.userId);
    if (!to) return;
    await this.options.mail.enqueue(em, { kind, to, dueAt: now, subject: { kind: 'membership', id: membership.id }, payload: MembershipService.notice(membership, at) });
  }
}
