import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { MailJobStatus } from './mail-job.entity.js';
import type { Mailer } from './mailer.js';
import { isWithheld, type MailMessage, type MailQueue, type OutgoingEntry, type QueuedMail, type RenderEnv, type RenderOutcome } from './mail-queue.js';

export interface DeliveryOptions {
  mailer: Mailer;
  /** The shop's clock: what "due" means. */
  clock: () => Date;
  log: Logger;
  /** How long a failing e-mail keeps being retried before it is shown as failed (default 3 days). */
  retryForMs?: number;
  /** Jobs claimed at once (default 100). */
  batchSize?: number;
  /** E-mails handed to the mailer at once (default 10: the SMTP pool's connections stay busy). */
  concurrency?: number;
  /** A claim's lease (default and at most 60 s); renewed while its batch is still being sent. */
  leaseMs?: number;
}

const RETRY_BASE_MS = 30_000;
/** The backoff's cap: a failing e-mail is tried at least every hour. */
export const RETRY_MAX_MS = 60 * 60_000;
export const RETRY_FOR_MS = 3 * 24 * 60 * 60_000;
/** How long a claimed job may take to send before another worker may claim it again (contract: at most 60 s). */
export const LEASE_MS = 60_000;

/** The delay before the n-th retry (n ≥ 1): 30 s, 1 min, 2 min... capped at one hour. */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.min(attempts - 1, 20), RETRY_MAX_MS);
}

interface ClaimedRow {
  id: number;
  kind: string;
  recipient: string | null;
  payload: Record<string, unknown> | string;
  order_id: string | null;
  item_id: number | null;
  ref: string | null;
  attempts: number;
  due_at: Date;
  created_at: Date;
  first_attempt_at: Date | null;
}

interface Claimed extends QueuedMail {
  firstAttemptAt: Date | null;
}

/** What became of one claimed job. */
type Outcome = { job: Claimed; sent: true } | { job: Claimed; sent: false; error: string } | { job: Claimed; withheld: string | null };

/**
 * Sends the shop's e-mail from the `mail_job` queue in batches; none of its steps holds a
 * transaction while talking to the mail server:
 * 1. claim: one statement marks up to `batchSize` due jobs `sending` under a fresh claim token and a
 *    short lease (`FOR UPDATE SKIP LOCKED`: concurrent workers take disjoint jobs). Jobs whose lease
 *    ran out (a worker died mid-batch) are claimed again, with the same Message-ID.
 * 2. render: per kind, the kind's renderer for all its jobs at once; then the filters.
 * 3. send: concurrently, through the mailer (a pooled SMTP transport); the lease is renewed while
 *    the batch is still being sent.
 * 4. settle: one transaction marks the sent jobs `sent` (only those the claim token still holds, so
 *    a job settles once even if a lease ran out) and runs the kinds' settle hooks; failures go back
 *    to `queued` with a capped backoff, or become `failed` after the retry period (shown to admins).
 * Every send of a job carries the same Message-ID (`<kind-id@domain>`), so the rare repeat after a
 * crash between sending and settling is recognisable as the same e-mail.
 */
export class DeliveryService {
  private readonly retryForMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private orm: MikroORM | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private rerun = false;
  private stopping = false;
  /** Batches in flight (stop waits for their sends, never for unsent claims: those are released). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** E-mails this process sent, and attempts that failed (for /metrics). */
  readonly stats = { sent: 0, failed: 0 };

  constructor(
    private readonly queue: MailQueue,
    private readonly options: DeliveryOptions,
  ) {
    this.retryForMs = options.retryForMs ?? RETRY_FOR_MS;
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 10;
    this.leaseMs = Math.min(options.leaseMs ?? LEASE_MS, LEASE_MS);
  }

  /** Starts sending: at once, whenever woken, and at every poll (a safety net). */
  start(orm: MikroORM, pollSeconds: number): void {
    this.orm = orm;
    this.stopping = false;
    this.timer = setInterval(() => this.kick(), pollSeconds * 1000);
    this.timer.unref();
    this.kick();
  }

  /** Runs the queue soon (a job became due), without waiting for the next poll. */
  kick(): void {
    if (!this.orm || this.stopping) return;
    void this.runDue().catch((error) => this.options.log.error({ err: error }, 'mail delivery run failed'));
  }

  /** Sends every job that is due now; returns how many were sent. Concurrent calls share one run. */
  async runDue(): Promise<number> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      let sent = 0;
      do {
        this.rerun = false;
        while (!this.stopping && this.orm) {
          const batch = await this.claim(this.options.clock());
          if (!batch) break;
          const work = this.deliver(batch);
          this.inFlight.add(work);
          try {
            sent += await work;
          } finally {
            this.inFlight.delete(work);
          }
        }
      } while (this.rerun && !this.stopping);
      return sent;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops claiming and waits only for the sends in flight; claimed jobs not yet handed to the mailer go back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
    await this.running?.catch(() => undefined);
    this.orm = null;
    this.options.mailer.close();
  }

  /** Claims up to a batch of due jobs under a fresh token; null when nothing is due. */
  private async claim(now: Date): Promise<{ token: string; jobs: Claimed[]; now: Date } | null> {
    const token = crypto.randomUUID();
    const em = this.orm!.em.fork();
    // Two index scans (expired leases, then due jobs), each skipping rows another worker has locked.
    const rows = await em.execute<ClaimedRow[]>(
      `with expired as (
         select id from mail_job where status = 'sending' and claimed_until <= ? order by claimed_until limit ? for update skip locked),
       due as (
         select id from mail_job where status = 'queued' and due_at <= ? order by due_at, id limit ? for update skip locked),
       picked as (
         (select id from expired) union all (select id from due) limit ?)
       update mail_job j set status = 'sending', claimed_until = ?, claim_token = ?, attempts = j.attempts + 1, first_attempt_at = coalesce(j.first_attempt_at, ?)
         from picked where j.id = picked.id
       returning j.id, j.kind, j.recipient, j.payload, j.order_id, j.item_id, j.ref, j.attempts, j.due_at, j.created_at, j.first_attempt_at`,
      [now, this.batchSize, now, this.batchSize, this.batchSize, new Date(now.getTime() + this.leaseMs), token, now],
    );
    if (!rows.length) return null;
    const jobs = rows
      .map((row): Claimed => ({
        id: Number(row.id),
        kind: row.kind,
        to: row.recipient,
        payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : (row.payload ?? {}),
        orderId: row.order_id,
        itemId: row.item_id === null ? null : Number(row.item_id),
        ref: row.ref,
        attempts: Number(row.attempts),
        dueAt: new Date(row.due_at),
        createdAt: new Date(row.created_at),
        firstAttemptAt: row.first_attempt_at ? new Date(row.first_attempt_at) : null,
      }))
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.id - b.id);
    return { token, jobs, now };
  }

  /** Renders, sends and settles one claimed batch; answers how many were sent. */
  private async deliver({ token, jobs, now }: { token: string; jobs: Claimed[]; now: Date }): Promise<number> {
    const env: RenderEnv = { em: this.orm!.em.fork(), now };
    const outcomes: Outcome[] = [];
    const ready: { job: Claimed; mail: MailMessage & { to: string; headers: Record<string, string> } }[] = [];

    // Render, kind by kind.
    for (const [kind, group] of groupByKind(jobs)) {
      const definition = this.queue.definition(kind);
      let rendered: RenderOutcome[];
      try {
        if (!definition) throw new Error(`No renderer for the e-mail kind "${kind}" in this process`);
        rendered = await definition.render(group, env);
        if (rendered.length !== group.length) throw new Error(`The renderer of "${kind}" answered ${rendered.length} e-mails for ${group.length} jobs`);
      } catch (error) {
        this.options.log.error({ err: error, kind, jobs: group.length }, 'e-mails could not be rendered');
        for (const job of group) outcomes.push({ job, sent: false, error: reasonOf(error) });
        continue;
      }
      group.forEach((job, index) => {
        const outcome = rendered[index]!;
        if (isWithheld(outcome)) outcomes.push({ job, withheld: outcome.reason });
        else if (!(outcome.to ?? job.to)) outcomes.push({ job, sent: false, error: 'No recipient address' });
        else ready.push({ job, mail: { ...outcome, to: (outcome.to ?? job.to)!, headers: { ...outcome.headers } } });
      });
    }

    // Filters: headers, or a last word against sending.
    let sendable = ready;
    if (this.queue.filters.length && ready.length) {
      const verdicts = new Map<number, string | null>();
      const entries: OutgoingEntry[] = ready.map(({ job, mail }) => ({
        job,
        mail,
        withhold: (reason: string) => void verdicts.set(job.id, reason),
        drop: () => void verdicts.set(job.id, null),
      }));
      try {
        for (const filter of this.queue.filters) await filter(entries, env);
        sendable = ready.filter(({ job }) => !verdicts.has(job.id));
        for (const { job } of ready) if (verdicts.has(job.id)) outcomes.push({ job, withheld: verdicts.get(job.id)! });
      } catch (error) {
        this.options.log.error({ err: error }, 'an e-mail filter failed');
        for (const { job } of ready) outcomes.push({ job, sent: false, error: reasonOf(error) });
        sendable = [];
      }
    }

    // Send, concurrently; the lease is renewed while sends are still under way.
    const renew = setInterval(() => void this.renew(token).catch((error: unknown) => this.options.log.warn({ err: error }, 'could not renew the claim of a batch')), Math.max(1000, this.leaseMs / 3));
    renew.unref();
    try {
      await forEachLimit(sendable, this.concurrency, async ({ job, mail }) => {
        if (this.stopping) return; // released below
        try {
          await this.options.mailer.send({ id: `${job.kind}-${job.id}`, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers });
          this.stats.sent++;
          outcomes.push({ job, sent: true });
        } catch (error) {
          this.stats.failed++;
          outcomes.push({ job, sent: false, error: reasonOf(error) });
        }
      });
    } finally {
      clearInterval(renew);
    }
    const decided = new Set(outcomes.map((o) => o.job.id));
    const unsent = jobs.filter((job) => !decided.has(job.id));
    await this.settle(token, outcomes, unsent, now);
    return outcomes.filter((o) => 'sent' in o && o.sent).length;
  }

  /** Extends the lease of the batch's jobs still being sent. */
  private async renew(token: string): Promise<void> {
    if (!this.orm) return;
    await this.orm.em.fork().execute(`update mail_job set claimed_until = ? where claim_token = ? and status = 'sending'`, [new Date(this.options.clock().getTime() + this.leaseMs), token]);
  }

  /** Records a batch's outcomes in one transaction: only jobs this claim still holds change. */
  private async settle(token: string, outcomes: Outcome[], released: Claimed[], now: Date): Promise<void> {
    const sent = outcomes.filter((o): o is { job: Claimed; sent: true } => 'sent' in o && o.sent).map((o) => o.job);
    const failed = outcomes.filter((o): o is { job: Claimed; sent: false; error: string } => 'sent' in o && !o.sent);
    const withheld = outcomes.filter((o): o is { job: Claimed; withheld: string | null } => 'withheld' in o);
    await this.orm!.em.fork().transactional(async (em) => {
      if (sent.length) {
        const rows = await em.execute<{ id: number }[]>(
          `update mail_job set status = 'sent', sent_at = ?, claimed_until = null, claim_token = null, last_error = null
            where id in (select (jsonb_array_elements_text(?::jsonb))::int) and claim_token = ? and status = 'sending'
            returning id`,
          [now, JSON.stringify(sent.map((job) => job.id)), token],
        );
        const settled = new Set(rows.map((row) => Number(row.id)));
        for (const [kind, group] of groupByKind(sent.filter((job) => settled.has(job.id)))) {
          const definition = this.queue.definition(kind);
          if (definition?.eraseWhenSent?.length) {
            await em.execute(`update mail_job set payload = payload - ?::text[] where id in (select (jsonb_array_elements_text(?::jsonb))::int)`, [`{${definition.eraseWhenSent.join(',')}}`, JSON.stringify(group.map((job) => job.id))]);
          }
          await definition?.settle?.(em, group, now);
        }
      }
      if (failed.length) {
        const rows = failed.map(({ job, error }) => {
          const since = job.firstAttemptAt ?? now;
          const giveUp = now.getTime() - since.getTime() >= this.retryForMs;
          return { id: job.id, status: giveUp ? MailJobStatus.FAILED : MailJobStatus.QUEUED, error, due_at: giveUp ? null : new Date(now.getTime() + retryDelay(job.attempts)).toISOString() };
        });
        await em.execute(
          `update mail_job j set status = r.status, last_error = r.error, due_at = coalesce(r.due_at, j.due_at), claimed_until = null, claim_token = null
             from jsonb_to_recordset(?::jsonb) as r(id int, status text, error text, due_at timestamptz)
            where j.id = r.id and j.claim_token = ? and j.status = 'sending'`,
          [JSON.stringify(rows), token],
        );
        for (const [index, { job, error }] of failed.entries()) {
          const facts = { jobId: job.id, kind: job.kind, attempts: job.attempts, reason: error };
          if (rows[index]!.status === MailJobStatus.FAILED) this.options.log.error(facts, 'e-mail not sent after retrying for the whole retry period; shown as failed to admins, who can retry it');
          else this.options.log.warn({ ...facts, retryAt: rows[index]!.due_at }, 'e-mail not sent; will retry');
        }
      }
      const kept = withheld.filter((o) => o.withheld !== null);
      if (kept.length) {
        await em.execute(
          `update mail_job j set status = 'withheld', last_error = r.reason, claimed_until = null, claim_token = null
             from jsonb_to_recordset(?::jsonb) as r(id int, reason text)
            where j.id = r.id and j.claim_token = ? and j.status = 'sending'`,
          [JSON.stringify(kept.map((o) => ({ id: o.job.id, reason: o.withheld }))), token],
        );
      }
      const dropped = withheld.filter((o) => o.withheld === null);
      if (dropped.length) {
        await em.execute(`delete from mail_job where id in (select (jsonb_array_elements_text(?::jsonb))::int) and claim_token = ? and status = 'sending'`, [JSON.stringify(dropped.map((o) => o.job.id)), token]);
      }
      if (released.length) {
        // Claimed but never handed to the mailer (the process is stopping): back in the queue as they were.
        await em.execute(
          `update mail_job set status = 'queued', claimed_until = null, claim_token = null, attempts = greatest(attempts - 1, 0)
            where id in (select (jsonb_array_elements_text(?::jsonb))::int) and claim_token = ? and status = 'sending'`,
          [JSON.stringify(released.map((job) => job.id)), token],
        );
      }
    });
    if (sent.length) this.options.log.info({ sent: sent.length, jobs: sent.length <= 20 ? sent.map((job) => `${job.kind}-${job.id}`) : undefined }, 'e-mails sent');
  }
}

function groupByKind(jobs: readonly Claimed[]): Map<string, Claimed[]> {
  const groups = new Map<string, Claimed[]>();
  for (const job of jobs) {
    const group = groups.get(job.kind);
    if (group) group.push(job);
    else groups.set(job.kind, [job]);
  }
  return groups;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** Runs `work` over `items` with at most `limit` at once. */
async function forEachLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

