import type { MikroORM } from '@mikro-orm/postgresql';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { runPrepared, type PreparedRead } from '../../db/prepared.js';
import { inLanguage, type MailQueue } from '../mail/index.js';
import type { PaymentProvider } from '../payments/index.js';
import { MembershipMailKind, type EmailOf, type LocaleOf, type MembershipNotice } from './membership-emails.js';
import type { MembershipBilling } from './membership-billing.js';
import { CLAIM, DECLINED, ENDED, LAPSED, REMINDED, RENEWED, type DueMembership } from './membership-renewal-sql.js';
import { GRACE_MS, periodEnd, REMINDER_MS } from './membership-rules.js';
import { Membership, MembershipPeriod, MembershipStatus } from './membership.entity.js';

export interface RenewalOptions {
  clock: () => Date;
  provider: PaymentProvider | null;
  mail: MailQueue;
  log: Logger;
  testPeriodSeconds: number | null;
  /** The address of a shopper (their membership's e-mails go there). */
  emailOf: EmailOf;
  /** The member's language, for their e-mails (English without it). */
  localeOf?: LocaleOf;
  /** Ends a provider-renewed membership's subscription at the provider when it lapses. */
  billing: MembershipBilling;
}

/** Memberships a process changes at once, each in a transaction of its own (one's provider call overlaps the others' statements). */
const CONCURRENCY = 4;
/** The longest between two runs: memberships that fall due in one minute are all charged within the next two. */
const MAX_EVERY_MS = 10_000;

/** What can fall due: a period's end (renewed, or ended when cancelled), a grace period's end, a yearly plan's reminder. */
type Step = keyof typeof CLAIM;
const STEPS: Step[] = ['end', 'lapse', 'remind'];

/**
 * The memberships the shop renews on its own clock (the test provider's): at the end of a paid period
 * it charges the kept card with a key made of the membership and the period's end, so a renewal run
 * twice (two processes, a crash after the charge) charges once; a paid one queues its receipt, a
 * declined one makes it past due with an e-mail, and 7 days later it lapses. A cancelled one ends with
 * its period; a yearly one is reminded 7 days before it renews.
 *
 * A membership the provider renews (Stripe Billing) is never charged here: its renewals arrive as
 * the provider's events. The sweep still ends it when cancelled at the end of its period, reminds a
 * yearly one, and lapses it 7 days after a failed renewal, cancelling its subscription at the
 * provider in the same transaction (a provider that cannot be asked leaves it for the next run).
 *
 * A run goes on until nothing is due: each membership is claimed and changed in a transaction of its
 * own, the claim locking it with FOR UPDATE SKIP LOCKED, so that the processes (and the CONCURRENCY
 * transactions of each) share the work without ever doing one twice, and a process that dies
 * mid-way leaves its membership, unlocked by its rollback, to the next claim.
 */
export class MembershipRenewals {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopping = false;

  constructor(private readonly options: RenewalOptions) {}

  /** Runs now and then every `everyMs` (a tenth of a test period, at most MAX_EVERY_MS). */
  start(orm: MikroORM): void {
    this.stopping = false;
    const everyMs = Math.min(MAX_EVERY_MS, Math.max(250, (this.options.testPeriodSeconds ?? 600) * 100));
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

  /** Stops the timer; a run under way ends after the memberships it is changing. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    this.stopping = false;
  }

  /** Does everything due now; returns how many memberships it changed. */
  async runDue(em: EntityManager): Promise<number> {
    const now = this.options.clock();
    // A membership whose step failed (its transaction rolled back), or had nothing to do after all, is left to the next run.
    const skipped: number[] = [];
    let changed = 0;
    const drain = async (step: Step) => {
      while (!this.stopping) {
        const outcome = await this.settleNext(em, step, now, skipped);
        if (outcome === 'none') return;
        if (outcome === 'changed') changed += 1;
      }
    };
    for (const step of STEPS) {
      // One claim looks first; the others join once something is due (a run with nothing to do is a claim per step).
      const first = await this.settleNext(em, step, now, skipped);
      if (first === 'none') continue;
      if (first === 'changed') changed += 1;
      await Promise.all(Array.from({ length: CONCURRENCY }, () => drain(step)));
    }
    return changed;
  }

  /** Claims the next membership due for `step` and changes it, in a transaction of its own. */
  private async settleNext(parent: EntityManager, step: Step, now: Date, skipped: number[]): Promise<'none' | 'changed' | 'unchanged'> {
    let claimed: number | null = null;
    try {
      const changed = await parent.fork().transactional(async (em) => {
        const bound = step === 'end' ? now : step === 'lapse' ? new Date(now.getTime() - GRACE_MS) : new Date(now.getTime() + REMINDER_MS);
        const [due] = await runPrepared<DueMembership>(em, CLAIM[step], [bound.toISOString(), `{${skipped.join(',')}}`]);
        if (!due) return null;
        claimed = due.id;
        return this.settle(em, due, now);
      });
      if (changed === null) return 'none';
      if (!changed) skipped.push(claimed!);
      return changed ? 'changed' : 'unchanged';
    } catch (error) {
      if (claimed === null) throw error;
      skipped.push(claimed);
      this.options.log.warn({ err: error, membershipId: claimed }, 'a membership could not be changed; it is tried again at the next run');
      return 'unchanged';
    }
  }

  /** A claimed membership's due step, in the claiming transaction; false when nothing is due after all. */
  private async settle(em: EntityManager, due: DueMembership, now: Date): Promise<boolean> {
    const end = new Date(due.current_period_end);
    const at = now.toISOString();
    if (due.status === MembershipStatus.PAST_DUE) {
      if (!due.past_due_since || new Date(due.past_due_since).getTime() + GRACE_MS > now.getTime()) return false;
      // Its subscription at the provider ends first: a provider that cannot be asked rolls the lapse back.
      if (due.provider_subscription_id) await this.options.billing.endAtProvider(await em.findOneOrFail(Membership, due.id), 'lapsed');
      await runPrepared(em, LAPSED, [due.id, at]);
    } else if (due.status !== MembershipStatus.ACTIVE) {
      return false;
    } else if (end <= now && due.cancel_at_period_end) {
      await runPrepared(em, ENDED, [due.id, at]);
    } else if (end <= now && !due.provider_subscription_id) {
      await this.renew(em, due, end, now);
    } else if (due.period === MembershipPeriod.YEAR && !due.cancel_at_period_end && end.getTime() - REMINDER_MS <= now.getTime() && (!due.reminded_for || new Date(due.reminded_for).getTime() !== end.getTime())) {
      const mail = await this.mail(em, due, MembershipMailKind.RENEWAL_REMINDER, end, now);
      await runPrepared(em, REMINDED, [due.id, at, mail.json, mail.wake]);
    } else {
      return false;
    }
    return true;
  }

  /**
   * Charges the next period: paid, it moves on and its receipt is queued; declined, the membership is
   * past due and its member told. Charge, membership and e-mail are written in one statement.
   */
  private async renew(em: EntityManager, due: DueMembership, start: Date, now: Date): Promise<void> {
    const end = periodEnd(start, due.period, this.options.testPeriodSeconds);
    const key = `membership-${due.id}-${start.toISOString()}`;
    const renewals = this.options.provider?.name === due.provider ? this.options.provider.subscriptions : undefined;
    const result = renewals && due.payment_method
      ? await renewals.renew({ paymentMethod: due.payment_method, amount: due.price, currency: 'USD', idempotencyKey: key, description: `Art & Song Cards membership: ${due.plan_name}` })
      : ({ status: 'declined', message: 'The membership cannot be charged: the shop no longer takes payments through its provider.' } as const);
    const paid = result.status === 'succeeded';
    // The receipt tells the next renewal; a declined renewal's e-mail, the end of the grace period.
    const mail = paid
      ? await this.mail(em, due, MembershipMailKind.RENEWED, end, now)
      : await this.mail(em, due, MembershipMailKind.PAYMENT_FAILED, new Date(now.getTime() + GRACE_MS), now);
    const statement: PreparedRead = paid ? RENEWED : DECLINED;
    await runPrepared(em, statement, [due.id, due.price, start.toISOString(), end.toISOString(), paid ? result.reference : null, paid ? null : result.message, key, now.toISOString(), mail.json, mail.wake]);
  }

  /** A membership's e-mail made ready for its statement (none when its member has no address). */
  private async mail(em: EntityManager, due: DueMembership, kind: string, at: Date, now: Date): Promise<{ json: string; wake: boolean }> {
    const to = await this.options.emailOf(em, due.user_id);
    if (!to) return { json: '[]', wake: false };
    const locale = this.options.localeOf ? await this.options.localeOf(em, due.user_id) : undefined;
    const payload: MembershipNotice = { planName: due.plan_name, amount: due.price, at: at.toISOString(), cardLast4: due.card_last4, ...inLanguage(locale) };
    return this.options.mail.batch([{ kind, to, dueAt: now, subject: { kind: 'membership', id: due.id }, payload }]);
  }
}
