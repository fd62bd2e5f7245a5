import crypto from 'node:crypto';
import type { Locale } from '../../rules/locales.js';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { createSystemContext, type RequestContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { dayIn } from '../../rules/delivery.js';
import { nextOccasionDay, nextReminder, type OccasionDate } from '../../rules/occasions.js';
import { ContactOccasion } from './contact.entity.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  badLink: { id: 'error.reminders.badLink', defaultMessage: 'This link is not valid: turn the reminder off in your address book instead.' },
  gone: { id: 'error.reminders.gone', defaultMessage: 'This reminder no longer exists: its contact or occasion was deleted.' },
});

/**
 * Occasion reminders (contract section 12): "{name}'s {occasion} is on {date}" to the shopper,
 * `remindDaysBefore` days before, every year, at 09:00 in their time zone.
 *
 * Each occasion keeps the time of its next reminder (`next_remind_at`, null when off), set whenever
 * the occasion or the shopper's zone changes. The processes that run jobs sweep the due ones every
 * SWEEP_EVERY_MS: each is claimed (`FOR UPDATE SKIP LOCKED`: several workers never queue one twice),
 * its e-mail queued in the same transaction, and its time moved to next year's. So nothing sits in
 * the mail queue for a year, and an occasion changed or deleted meanwhile never sends a stale one.
 */

export interface DueReminder {
  occasionId: number;
  userId: number;
  /** The shopper's address. */
  to: string;
  contactName: string;
  label: string;
  /** The day of the occasion, YYYY-MM-DD. */
  occasionDay: string;
  timeZone: string;
  /** The shopper's language (see User.locale): the reminder speaks it. */
  locale: Locale;
  /** When it goes out: the reminder's own time (the sweep may find it a little later). */
  dueAt: Date;
}

export interface OccasionRemindersOptions {
  clock: () => Date;
  log: Logger;
  /** Signs the links that turn a reminder off (derived from the shop's signing secret). */
  secret: string;
}

/** How often the processes that run jobs look for reminders that are due: a reminder goes out within a minute of 09:00. */
export const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 500;

export class OccasionReminders {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private readonly key: Buffer;
  /** Queues due reminders' e-mails in the sweep's transaction (through the mail queue: see reminder-emails.ts). */
  queue: ((tx: RequestContext, reminders: readonly DueReminder[]) => Promise<void>) | null = null;

  constructor(private readonly options: OccasionRemindersOptions) {
    this.key = crypto.createHmac('sha256', options.secret).update('occasion-reminders').digest();
  }

  /** Sets an occasion's next reminder time from now (null when its reminders are off). */
  schedule(occasion: ContactOccasion, timeZone: string): void {
    occasion.nextRemindAt = occasion.remind ? nextReminder(occasion, occasion.remindDaysBefore, this.options.clock(), timeZone).at : null;
  }

  /** Sets the next reminder times of many occasions in one statement. */
  async setTimes(em: EntityManager, occasions: (OccasionDate & { id: number; remind: boolean; remindDaysBefore: number })[], timeZone: string): Promise<void> {
    if (!occasions.length) return;
    const now = this.options.clock();
    const at = occasions.map((o) => (o.remind ? nextReminder(o, o.remindDaysBefore, now, timeZone).at : null));
    await em.execute(
      `update contact_occasion o set next_remind_at = t.at from jsonb_to_recordset(?::jsonb) as t(id int, at timestamptz) where o.id = t.id`,
      [JSON.stringify(occasions.map((o, i) => ({ id: o.id, at: at[i] })))],
    );
  }

  /** Moves every reminder of an account to its (new) time zone. */
  async reschedule(tx: RequestContext, { userId }: { userId: number }, timeZone: string): Promise<void> {
    const rows = await tx.em.execute<{ id: number; month: number; day: number; remind_days_before: number }[]>(
      `select o.id, o.month, o.day, o.remind_days_before from contact_occasion o join contact c on c.id = o.contact_id where c.user_id = ? and o.remind`,
      [userId],
    );
    await this.setTimes(tx.em, rows.map((r) => ({ id: Number(r.id), month: r.month, day: r.day, remind: true, remindDaysBefore: r.remind_days_before })), timeZone);
  }

  // ---- turning a reminder off from its e-mail ----

  /** The token of the link in a reminder that turns that occasion's reminders off. */
  stopToken(occasionId: number): string {
    return `${occasionId}.${this.signature(occasionId)}`;
  }

  /** Turns an occasion's reminders off by the token of its e-mail; says what was turned off. */
  async stop(ctx: RequestContext, token: unknown): Promise<{ contactName: string; label: string }> {
    const match = typeof token === 'string' ? /^(\d{1,10})\.([\w-]{32})$/.exec(token) : null;
    const id = match ? Number(match[1]) : NaN;
    if (!match || !crypto.timingSafeEqual(Buffer.from(match[2]!), Buffer.from(this.signature(id)))) {
      throw new AppError('TOKEN_INVALID', refusals.badLink);
    }
    const [row] = await ctx.em.execute<{ name: string; label: string }[]>(
      `update contact_occasion o set remind = false, next_remind_at = null from contact c where c.id = o.contact_id and o.id = ? returning c.name, o.label`,
      [id],
    );
    // A deleted contact or occasion has no reminders left to stop.
    if (!row) throw new AppError('TOKEN_INVALID', refusals.gone);
    ctx.log.info({ occasionId: id }, 'occasion reminders turned off from their e-mail');
    return { contactName: row.name, label: row.label };
  }

  private signature(occasionId: number): string {
    return crypto.createHmac('sha256', this.key).update(`stop:${occasionId}`).digest('base64url').slice(0, 32);
  }

  // ---- the sweep ----

  /** Sweeps now and every SWEEP_EVERY_MS from now on (in the processes that run jobs). */
  start(orm: MikroORM): void {
    const run = () => {
      if (this.running) return;
      this.running = this.sweep(orm)
        .catch((error: unknown) => this.options.log.warn({ err: error }, 'the sweep of occasion reminders failed; it runs again later'))
        .finally(() => (this.running = null));
    };
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
    run();
  }

  async stopSweeping(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /**
   * Queues every reminder that is due (in batches, each in one transaction) and moves each occasion
   * to its next year's reminder; returns how many e-mails were queued. A reminder found due only
   * after its occasion has passed (the jobs were stopped for that long) is not sent, only moved on.
   */
  async sweep(orm: MikroORM): Promise<number> {
    let queued = 0;
    for (;;) {
      const { claimed, sent } = await orm.em.fork().transactional(async (em) => {
        const ctx = createSystemContext({ em, log: this.options.log, task: 'occasion-reminders' });
        const now = this.options.clock();
        const due = await em.execute<{ id: number; month: number; day: number; remind_days_before: number; next_remind_at: Date; label: string; name: string; user_id: number; email: string; time_zone: string | null; locale: Locale }[]>(
          `select o.id, o.month, o.day, o.remind_days_before, o.next_remind_at, o.label, c.name, c.user_id, u.email, u.time_zone, u.locale
             from contact_occasion o join contact c on c.id = o.contact_id join app_user u on u.id = c.user_id
            where o.next_remind_at <= ? order by o.next_remind_at limit ? for update of o skip locked`,
          [now, SWEEP_BATCH],
        );
        const queued: DueReminder[] = [];
        const moved: { id: number; at: Date; sent: boolean }[] = [];
        for (const row of due) {
          const zone = row.time_zone ?? 'UTC';
          const occasion = { month: row.month, day: row.day };
          const remindAt = new Date(row.next_remind_at);
          const occasionDay = nextOccasionDay(occasion, dayIn(remindAt, zone));
          const wanted = dayIn(now, zone) <= occasionDay && this.queue !== null;
          if (wanted) queued.push({ occasionId: Number(row.id), userId: Number(row.user_id), to: row.email, contactName: row.name, label: row.label, occasionDay, timeZone: zone, locale: row.locale, dueAt: remindAt });
          const after = remindAt.getTime() > now.getTime() ? remindAt : now;
          moved.push({ id: Number(row.id), at: nextReminder(occasion, row.remind_days_before, after, zone).at, sent: wanted });
        }
        if (queued.length) await this.queue!(ctx, queued);
        const sent = queued.length;
        if (moved.length) {
          await em.execute(
            `update contact_occasion o set next_remind_at = t.at, reminded_at = case when t.sent then ?::timestamptz else o.reminded_at end
               from jsonb_to_recordset(?::jsonb) as t(id int, at timestamptz, sent boolean) where o.id = t.id`,
            [now, JSON.stringify(moved)],
          );
        }
        return { claimed: due.length, sent };
      });
      queued += sent;
      if (claimed < SWEEP_BATCH) break;
    }
    if (queued) this.options.log.info({ reminders: queued }, 'occasion reminders queued');
    return queued;
  }
}
