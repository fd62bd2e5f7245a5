import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { preparedRead, runPrepared } from '../../db/prepared.js';
import { groupByKind, type Claimed, type Claims } from './delivery-claim.js';
import { MailJobStatus } from './mail-job.entity.js';
import type { MailQueue } from './mail-queue.js';

const RETRY_BASE_MS = 30_000;
/** The backoff's cap: a failing e-mail is tried at least every hour. */
export const RETRY_MAX_MS = 60 * 60_000;
export const RETRY_FOR_MS = 3 * 24 * 60 * 60_000;
/** Outcomes are settled once this many have gathered, or this long after the first of them. */
const SETTLE_BATCH = 100;
const SETTLE_AFTER_MS = 100;

const MARK_SENT = preparedRead('mail_mark_sent', `
  update mail_job j set sent_at = $1::timestamptz from jsonb_to_recordset($2::jsonb) as r(id int, token uuid) where j.id = r.id and j.claim_token = r.token and j.status = 'sending'`);
const SETTLE_SENT = preparedRead('mail_settle_sent', `
  update mail_job j set status = 'sent', sent_at = coalesce(j.sent_at, $1::timestamptz), claimed_until = null, claim_token = null, last_error = null
    from jsonb_to_recordset($2::jsonb) as r(id int, token uuid)
   where j.id = r.id and j.claim_token = r.token and j.status = 'sending'
  returning j.id`);

/** The delay before the n-th retry (n ≥ 1): 30 s, 1 min, 2 min... capped at one hour. */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.min(attempts - 1, 20), RETRY_MAX_MS);
}

/** What became of one claimed job. */
export type Outcome =
  | { job: Claimed; type: 'sent' }
  | { job: Claimed; type: 'failed'; error: string }
  | { job: Claimed; type: 'withheld'; reason: string | null }
  /** Claimed but never handed to the mailer (the worker is stopping): back in the queue as it was. */
  | { job: Claimed; type: 'released' };

/** Writes what became of the jobs a worker claimed, only where their claim still holds them. */
export class OutcomeWriter {
  constructor(
    private readonly queue: MailQueue,
    private readonly claims: Claims,
    private readonly options: { clock: () => Date; log: Logger; retryForMs: number },
  ) {}

  /**
   * Records at once that the mail server took these e-mails, before their settling (which waits for
   * company): a worker killed in between leaves them marked, and whoever claims them next settles
   * them without sending them again. Only the moment between the server's answer and this write is
   * left in which a killed worker's e-mail would go out twice (with the same Message-ID).
   */
  async markSent(orm: MikroORM, jobs: Claimed[]): Promise<void> {
    await runPrepared(orm.em.fork(), MARK_SENT, [this.options.clock().toISOString(), JSON.stringify(jobs.map((job) => ({ id: job.id, token: job.token })))]);
  }

  /** Records outcomes in one transaction: only jobs their claim still holds change; the kinds' settle hooks run in it. */
  async settle(orm: MikroORM, outcomes: Outcome[]): Promise<void> {
    const now = this.options.clock();
    const ids = (list: Outcome[]) => JSON.stringify(list.map((o) => ({ id: o.job.id, token: o.job.token })));
    const sent = outcomes.filter((o) => o.type === 'sent');
    const failed = outcomes.filter((o): o is Extract<Outcome, { type: 'failed' }> => o.type === 'failed');
    const withheld = outcomes.filter((o): o is Extract<Outcome, { type: 'withheld' }> => o.type === 'withheld');
    const released = outcomes.filter((o) => o.type === 'released');
    const failures = failed.map(({ job, error }) => {
      const since = job.firstAttemptAt ?? job.claimedAt;
      const giveUp = job.claimedAt.getTime() - since.getTime() >= this.options.retryForMs;
      return { id: job.id, token: job.token, status: giveUp ? MailJobStatus.FAILED : MailJobStatus.QUEUED, error, due_at: giveUp ? null : new Date(job.claimedAt.getTime() + retryDelay(job.attempts)).toISOString() };
    });
    await orm.em.fork().transactional(async (em) => {
      if (sent.length) {
        const rows = await runPrepared<{ id: number }>(em, SETTLE_SENT, [now.toISOString(), ids(sent)]);
        const settled = new Set(rows.map((row) => Number(row.id)));
        for (const [kind, group] of groupByKind(sent.map((o) => o.job).filter((job) => settled.has(job.id)))) {
          const definition = this.queue.definition(kind);
          if (definition?.eraseWhenSent?.length) {
            await em.execute(`update mail_job set payload = payload - ?::text[] where id in (select (jsonb_array_elements_text(?::jsonb))::int)`, [`{${definition.eraseWhenSent.join(',')}}`, JSON.stringify(group.map((job) => job.id))]);
          }
          await definition?.settle?.(em, group, now);
        }
      }
      if (failures.length) {
        await em.execute(
          `update mail_job j set status = r.status, last_error = r.error, due_at = coalesce(r.due_at, j.due_at), claimed_until = null, claim_token = null
             from jsonb_to_recordset(?::jsonb) as r(id int, token uuid, status text, error text, due_at timestamptz)
            where j.id = r.id and j.claim_token = r.token and j.status = 'sending'`,
          [JSON.stringify(failures)],
        );
      }
      const kept = withheld.filter((o) => o.reason !== null);
      if (kept.length) {
        await em.execute(
          `update mail_job j set status = 'withheld', last_error = r.reason, claimed_until = null, claim_token = null
             from jsonb_to_recordset(?::jsonb) as r(id int, token uuid, reason text)
            where j.id = r.id and j.claim_token = r.token and j.status = 'sending'`,
          [JSON.stringify(kept.map((o) => ({ id: o.job.id, token: o.job.token, reason: o.reason })))],
        );
      }
      const dropped = withheld.filter((o) => o.reason === null);
      if (dropped.length) {
        await em.execute(`delete from mail_job j using jsonb_to_recordset(?::jsonb) as r(id int, token uuid) where j.id = r.id and j.claim_token = r.token and j.status = 'sending'`, [ids(dropped)]);
      }
      if (released.length) {
        await em.execute(
          `update mail_job j set status = 'queued', claimed_until = null, claim_token = null, attempts = greatest(j.attempts - 1, 0)
             from jsonb_to_recordset(?::jsonb) as r(id int, token uuid)
            where j.id = r.id and j.claim_token = r.token and j.status = 'sending'`,
          [ids(released)],
        );
      }
    });
    this.claims.letGo(outcomes.map((outcome) => outcome.job));
    for (const [index, { job, error }] of failed.entries()) {
      const facts = { jobId: job.id, kind: job.kind, attempts: job.attempts, reason: error };
      if (failures[index]!.status === MailJobStatus.FAILED) this.options.log.error(facts, 'e-mail not sent after retrying for the whole retry period; shown as failed to admins, who can retry it');
      else this.options.log.warn({ ...facts, retryAt: failures[index]!.due_at }, 'e-mail not sent; will retry');
    }
    if (sent.length) this.options.log.debug({ sent: sent.length }, 'e-mails sent');
  }
}

/**
 * Gathers outcomes and writes them a few dozen at a time, one transaction after another. A write
 * that fails (the database is out of reach) is tried again a few times; after that its jobs stay
 * claimed until their leases end and are sent again by whoever claims them (same Message-ID).
 */
export class Settler {
  private pending: Outcome[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (outcomes: Outcome[]) => Promise<void>,
    private readonly log: Logger,
  ) {}

  add(outcome: Outcome): void {
    this.pending.push(outcome);
    if (this.pending.length >= SETTLE_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), SETTLE_AFTER_MS);
  }

  /** Writes what is pending and waits for every write. */
  async close(): Promise<void> {
    this.flush();
    await this.chain;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.length) return;
    const outcomes = this.pending;
    this.pending = [];
    this.chain = this.chain.then(() => this.writeWithRetries(outcomes));
  }

  private async writeWithRetries(outcomes: Outcome[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.write(outcomes);
        return;
      } catch (error) {
        if (attempt >= 5) {
          this.log.error({ err: error, jobs: outcomes.length }, 'could not record what became of e-mails; they are sent again after their leases end');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }
}

/**
 * Writes "the server took it" marks at once, one statement at a time, each with every mark that came
 * while the last was written. The time from the server's answer to the mark is the window in which a
 * killed worker's e-mail goes out twice (the same Message-ID): it is kept to one write (gathering the
 * marks for 10 ms saved a little CPU and sent five e-mails twice when a worker was killed at 460 a second).
 */
export class SentMarker {
  private pending: Claimed[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly write: (jobs: Claimed[]) => Promise<void>) {}

  add(job: Claimed): void {
    this.pending.push(job);
    this.running ??= this.drain();
  }

  async close(): Promise<void> {
    await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending.length) {
      const jobs = this.pending;
      this.pending = [];
      // A mark that cannot be written only widens the window; the settling still follows.
      await this.write(jobs).catch(() => undefined);
    }
    this.running = null;
  }
}

export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);
