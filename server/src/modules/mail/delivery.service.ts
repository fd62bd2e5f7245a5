import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { jsonColumn } from '../../db/json-column.js';
import { preparedRead, runPrepared, type PreparedRead } from '../../db/prepared.js';
import type { Foreground } from '../../core/foreground.js';
import { MailJobStatus } from './mail-job.entity.js';
import type { Mailer } from './mailer.js';
import { isWithheld, type MailMessage, type MailQueue, type OutgoingEntry, type QueuedMail, type RenderEnv, type RenderOutcome } from './mail-queue.js';
import { SendPacer } from './send-pacer.js';

export interface DeliveryOptions {
  mailer: Mailer;
  /** The shop's clock: what "due" means. */
  clock: () => Date;
  log: Logger;
  /** How long a failing e-mail keeps being retried before it is shown as failed (default 3 days). */
  retryForMs?: number;
  /** Jobs claimed at once (default 100). */
  batchSize?: number;
  /** E-mails handed to the mailer at once: the SMTP pool's size (SMTP_POOL_SIZE, default 5). */
  concurrency?: number;
  /** A claim's lease (default 30 s, at most 60 s); renewed while its jobs are still being sent. */
  leaseMs?: number;
  /** MAIL_MAX_PER_SECOND: sends per second across every process; null: no cap. */
  maxPerSecond?: number | null;
  /**
   * The requests this process is answering (core/foreground.ts). While there are any, e-mails wait,
   * so that a shopper waiting for a page or a checkout gets the process first: the whole pool is back
   * the moment they are answered. When the process has been answering requests without a pause for
   * `busyGraceMs`, e-mails go out over one connection, at most 20 a second, however long that lasts.
   */
  yieldTo?: Pick<Foreground, 'busy' | 'busySince' | 'whenIdle'>;
  /** See `yieldTo` (default 10 s). */
  busyGraceMs?: number;
}

const RETRY_BASE_MS = 30_000;
/** The backoff's cap: a failing e-mail is tried at least every hour. */
export const RETRY_MAX_MS = 60 * 60_000;
export const RETRY_FOR_MS = 3 * 24 * 60 * 60_000;
/** The longest lease the contract allows: a dead worker's e-mails go out within about a minute. */
export const MAX_LEASE_MS = 60_000;
const DEFAULT_LEASE_MS = 30_000;
/** Outcomes are settled once this many have gathered, or this long after the first of them. */
const SETTLE_BATCH = 100;
const SETTLE_AFTER_MS = 100;
/** Once the process has answered requests for BUSY_GRACE_MS straight, its first lane sends at most one e-mail this often (20 a second). */
const BUSY_PACE_MS = 50;
/**
 * How long e-mails wait for requests being answered before the first lane sends again. A rush of
 * checkouts is served first (its cards leave seconds later at the pool's full speed), while under
 * load that does not let up e-mails still go out.
 */
export const BUSY_GRACE_MS = 10_000;

/**
 * Claims up to `size` jobs due at $1 until $2 under the token $3. The batch's hot statements are
 * prepared (planned once per connection); the batch's size is written in, so that the plan knows
 * it. Two index scans (leases that ran out, then due jobs), each skipping rows another worker has
 * locked.
 */
const claimStatement = (size: number) =>
  preparedRead(`mail_claim_${size}`, `
    with expired as (
      select id from mail_job where status = 'sending' and claimed_until <= $1::timestamptz order by claimed_until limit ${size} for update skip locked),
    due as (
      select id from mail_job where status = 'queued' and due_at <= $1::timestamptz order by due_at, id limit ${size} for update skip locked),
    picked as (
      (select id from expired) union all (select id from due) limit ${size})
    update mail_job j set status = 'sending', claimed_until = $2::timestamptz, claim_token = $3::uuid, attempts = j.attempts + 1, first_attempt_at = coalesce(j.first_attempt_at, $1::timestamptz)
      from picked where j.id = picked.id
    returning j.id, j.kind, j.recipient, j.payload, j.order_id, j.item_id, j.ref, j.attempts, j.due_at, j.created_at, j.first_attempt_at, j.sent_at`);
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
  sent_at: Date | null;
}

interface Claimed extends QueuedMail {
  /** Set when a worker recorded that the mail server took it but died before settling it: it is not sent again. */
  sentAt: Date | null;
  firstAttemptAt: Date | null;
  /** The claim that holds it: only this claim may settle it. */
  token: string;
  /** When it was claimed (the shop's clock): what a failure's backoff starts from. */
  claimedAt: Date;
}

/** An e-mail rendered and waiting for a lane. */
interface Ready {
  job: Claimed;
  mail: MailMessage & { to: string; headers: Record<string, string> };
}

/** What became of one claimed job. */
type Outcome =
  | { job: Claimed; type: 'sent' }
  | { job: Claimed; type: 'failed'; error: string }
  | { job: Claimed; type: 'withheld'; reason: string | null }
  /** Claimed but never handed to the mailer (the worker is stopping): back in the queue as it was. */
  | { job: Claimed; type: 'released' };

/**
 * Sends the shop's e-mail from the `mail_job` queue. No transaction is held while talking to the
 * mail server (contract sections 8 and 10):
 * 1. claim: one statement marks up to `batchSize` due jobs `sending` under a fresh claim token and a
 *    short lease (`FOR UPDATE SKIP LOCKED`: concurrent workers take disjoint jobs). Jobs whose lease
 *    ran out (their worker died) are claimed again and sent with the same Message-ID.
 * 2. render: the kinds' renderers, one call per kind for the batch, then the filters.
 * 3. send: `concurrency` lanes (one per SMTP connection of the pool) take rendered e-mails and send
 *    them, each first taking a send slot when MAIL_MAX_PER_SECOND is set. The next batch is claimed
 *    and rendered while the lanes still send the last one; the leases of the jobs in hand are renewed.
 * 4. settle: outcomes are written a few dozen at a time as they come (so a worker killed mid-batch
 *    leaves few e-mails sent but unsettled), in one transaction each with the kinds' settle hooks,
 *    and only for jobs their claim token still holds (a job settles once, even after its lease ran
 *    out and another worker took it). Failures go back to `queued` with a capped backoff, or become
 *    `failed` after the retry period (shown to admins, who can retry them).
 * It runs when woken (a job due now was committed: NOTIFY), when the next known job falls due, and
 * at every poll (a safety net).
 */
export class DeliveryService {
  private readonly retryForMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly busyGraceMs: number;
  private readonly claimStatement: PreparedRead;
  private orm: MikroORM | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private nextDueTimer: NodeJS.Timeout | null = null;
  private pacer: SendPacer | null = null;
  /** Waits for this process's next send time under MAIL_MAX_PER_SECOND (none without a cap). */
  private readonly pace = () => this.pacer?.take() ?? Promise.resolve();
  private running: Promise<number> | null = null;
  private rerun = false;
  private stopping = false;
  /** Lanes waiting for the process to answer its requests (see `yieldTo`). */
  private readonly waiting = new Set<() => void>();
  /** Claim tokens with jobs still in this process, and how many (their leases are renewed). */
  private readonly held = new Map<string, number>();
  /** E-mails this process sent, and attempts that failed (for /metrics). */
  readonly stats = { sent: 0, failed: 0 };

  constructor(
    private readonly queue: MailQueue,
    private readonly options: DeliveryOptions,
  ) {
    this.retryForMs = options.retryForMs ?? RETRY_FOR_MS;
    // Under a rate cap a worker claims about a second's worth at a time, so that the workers share the work.
    const cap = options.maxPerSecond;
    this.batchSize = options.batchSize ?? (cap ? Math.max(Math.min(cap, 100), Math.max(1, options.concurrency ?? 5)) : 100);
    this.concurrency = Math.max(1, options.concurrency ?? 5);
    this.leaseMs = Math.min(options.leaseMs ?? DEFAULT_LEASE_MS, MAX_LEASE_MS);
    this.busyGraceMs = Math.max(0, options.busyGraceMs ?? BUSY_GRACE_MS);
    this.claimStatement = claimStatement(Math.max(1, Math.trunc(this.batchSize)));
  }

  /** Starts sending: at once, whenever woken, when the next job falls due, and at every poll. */
  start(orm: MikroORM, pollSeconds: number): void {
    this.orm = orm;
    this.stopping = false;
    const cap = this.options.maxPerSecond;
    this.pacer = cap ? new SendPacer((sql, params) => orm.em.fork().execute(sql, params), cap, Math.min(cap, Math.max(this.concurrency, Math.ceil(cap / 10)))) : null;
    this.pollTimer = setInterval(() => this.kick(), pollSeconds * 1000);
    this.pollTimer.unref();
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
      // A wake-up that comes while the run looks up the next due e-mail runs it again too.
      for (;;) {
        do {
          this.rerun = false;
          if (this.stopping || !this.orm) break;
          sent += await this.runOnce();
        } while (this.rerun && !this.stopping);
        if (!this.stopping && this.orm) await this.wakeAtNextDue().catch((error: unknown) => this.options.log.warn({ err: error }, 'could not look up the next due e-mail'));
        if (!this.rerun || this.stopping || !this.orm) return sent;
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops claiming and waits only for the sends in flight; claimed jobs not yet handed to the mailer go back to the queue. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeWaiting();
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.nextDueTimer) clearTimeout(this.nextDueTimer);
    this.pollTimer = this.nextDueTimer = null;
    await this.running?.catch(() => undefined);
    this.orm = null;
    this.options.mailer.close();
  }

  private wakeWaiting(): void {
    for (const wake of [...this.waiting]) wake();
  }

  /** Claims, renders, sends and settles until nothing is due; answers how many were sent. */
  private async runOnce(): Promise<number> {
    const settler = new Settler((outcomes) => this.settle(outcomes), this.options.log);
    const marker = new SentMarker((jobs) => this.markSent(jobs));
    const ready: Ready[] = [];
    let exhausted = false;
    let producing: Promise<void> | null = null;
    let sent = 0;
    const lowWater = this.concurrency * 2;
    const renewer = setInterval(() => void this.renew(), Math.max(500, this.leaseMs / 3));
    renewer.unref();

    const produce = async () => {
      try {
        while (!exhausted && !this.stopping && ready.length < lowWater) {
          const batch = await this.claim(this.options.clock());
          if (!batch.length) exhausted = true;
          else ready.push(...(await this.render(batch, settler)));
        }
      } catch (error) {
        // The database is out of reach: what is claimed stays claimed until its lease ends.
        this.options.log.error({ err: error }, 'could not claim or render e-mails');
        exhausted = true;
      }
    };
    const next = async (): Promise<Ready | null> => {
      for (;;) {
        if (!exhausted && !producing && ready.length < lowWater && !this.stopping) producing = produce().finally(() => (producing = null));
        const item = ready.shift();
        if (item) return item;
        if (!producing) return null;
        await producing;
      }
    };
    // Every lane but the first waits while the process is answering requests (see `yieldTo`), and
    // stops waiting when the first lane has found nothing left (so that this run ends and the next
    // begins) or when delivery stops.
    const yieldTo = this.options.yieldTo;
    let drained = false;
    // The first lane, once requests have been answered for the grace without a pause, sends at most
    // one e-mail every BUSY_PACE_MS: e-mails keep going out under any load, and a checkout does not
    // wait behind a hundred of them.
    let paced = 0;
    const makeRoom = async (lane: number) => {
      while (yieldTo?.busy && !this.stopping && !drained) {
        const wait = lane > 0 ? null : Math.max(paced + BUSY_PACE_MS, (yieldTo.busySince ?? 0) + this.busyGraceMs) - performance.now();
        if (wait !== null && wait <= 0) break;
        await new Promise<void>((resolve) => {
          let timer: NodeJS.Timeout | null = null;
          const wake = () => {
            this.waiting.delete(wake);
            if (timer) clearTimeout(timer);
            resolve();
          };
          this.waiting.add(wake);
          void yieldTo.whenIdle().then(wake);
          if (wait !== null) timer = setTimeout(wake, wait);
        });
      }
      if (lane === 0) paced = performance.now();
    };
    const lane = async (_: unknown, index: number) => {
      for (;;) {
        await makeRoom(index);
        const item = await next();
        if (!item) {
          if (index === 0) {
            drained = true;
            this.wakeWaiting();
          }
          return;
        }
        if (this.stopping) {
          settler.add({ job: item.job, type: 'released' });
          continue;
        }
        try {
          await this.options.mailer.send({ id: `${item.job.kind}-${item.job.id}`, to: item.mail.to, subject: item.mail.subject, text: item.mail.text, html: item.mail.html, headers: item.mail.headers }, this.pace);
          this.stats.sent++;
          sent++;
          marker.add(item.job);
          settler.add({ job: item.job, type: 'sent' });
        } catch (error) {
          this.stats.failed++;
          settler.add({ job: item.job, type: 'failed', error: reasonOf(error) });
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: this.concurrency }, lane));
      if (producing) await producing;
      // Anything rendered but not handed out (stopping) goes back to the queue.
      for (const item of ready.splice(0)) settler.add({ job: item.job, type: 'released' });
      await marker.close();
      await settler.close();
    } finally {
      clearInterval(renewer);
    }
    return sent;
  }

  /** Claims up to a batch of due jobs under a fresh token. */
  private async claim(now: Date): Promise<Claimed[]> {
    const token = crypto.randomUUID();
    const rows = await runPrepared<ClaimedRow>(this.orm!.em.fork(), this.claimStatement, [now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), token]);
    if (rows.length) this.held.set(token, rows.length);
    return rows
      .map((row): Claimed => ({
        id: Number(row.id),
        kind: row.kind,
        to: row.recipient,
        payload: jsonColumn(row.payload) ?? {},
        orderId: row.order_id,
        itemId: row.item_id === null ? null : Number(row.item_id),
        ref: row.ref,
        attempts: Number(row.attempts),
        dueAt: new Date(row.due_at),
        createdAt: new Date(row.created_at),
        firstAttemptAt: row.first_attempt_at ? new Date(row.first_attempt_at) : null,
        sentAt: row.sent_at ? new Date(row.sent_at) : null,
        token,
        claimedAt: now,
      }))
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.id - b.id);
  }

  /** Renders a batch, kind by kind, then runs the filters; what is not to be sent goes straight to the settler. */
  private async render(claimed: Claimed[], settler: Settler): Promise<Ready[]> {
    // Taken by the mail server already (its worker died before settling them): settled, never sent again.
    for (const job of claimed) if (job.sentAt) settler.add({ job, type: 'sent' });
    const jobs = claimed.filter((job) => !job.sentAt);
    if (!jobs.length) return [];
    const env: RenderEnv = { em: this.orm!.em.fork(), now: jobs[0]!.claimedAt };
    const ready: Ready[] = [];
    for (const [kind, group] of groupByKind(jobs)) {
      const definition = this.queue.definition(kind);
      let rendered: RenderOutcome[];
      try {
        if (!definition) throw new Error(`No renderer for the e-mail kind "${kind}" in this process`);
        rendered = await definition.render(group, env);
        if (rendered.length !== group.length) throw new Error(`The renderer of "${kind}" answered ${rendered.length} e-mails for ${group.length} jobs`);
      } catch (error) {
        this.options.log.error({ err: error, kind, jobs: group.length }, 'e-mails could not be rendered');
        for (const job of group) settler.add({ job, type: 'failed', error: reasonOf(error) });
        continue;
      }
      group.forEach((job, index) => {
        const outcome = rendered[index]!;
        const to = isWithheld(outcome) ? null : (outcome.to ?? job.to);
        if (isWithheld(outcome)) settler.add({ job, type: 'withheld', reason: outcome.reason });
        else if (!to) settler.add({ job, type: 'failed', error: 'No recipient address' });
        else ready.push({ job, mail: { ...outcome, to, headers: { ...outcome.headers } } });
      });
    }
    if (!this.queue.filters.length || !ready.length) return ready;
    const verdicts = new Map<number, string | null>();
    const entries: OutgoingEntry[] = ready.map(({ job, mail }) => ({
      job,
      mail,
      withhold: (reason: string) => void verdicts.set(job.id, reason),
      drop: () => void verdicts.set(job.id, null),
    }));
    try {
      for (const filter of this.queue.filters) await filter(entries, env);
    } catch (error) {
      this.options.log.error({ err: error }, 'an e-mail filter failed');
      for (const { job } of ready) settler.add({ job, type: 'failed', error: reasonOf(error) });
      return [];
    }
    for (const { job } of ready) if (verdicts.has(job.id)) settler.add({ job, type: 'withheld', reason: verdicts.get(job.id)! });
    return ready.filter(({ job }) => !verdicts.has(job.id));
  }

  /**
   * Records at once that the mail server took these e-mails, before their settling (which waits for
   * company): a worker killed in between leaves them marked, and whoever claims them next settles
   * them without sending them again. Only the moment between the server's answer and this write is
   * left in which a killed worker's e-mail would go out twice (with the same Message-ID).
   */
  private async markSent(jobs: Claimed[]): Promise<void> {
    await runPrepared(this.orm!.em.fork(), MARK_SENT, [this.options.clock().toISOString(), JSON.stringify(jobs.map((job) => ({ id: job.id, token: job.token })))]);
  }

  /** Extends the leases of the jobs this process still holds. */
  private async renew(): Promise<void> {
    if (!this.orm || !this.held.size) return;
    try {
      await this.orm.em.fork().execute(`update mail_job set claimed_until = ? where claim_token in (select (jsonb_array_elements_text(?::jsonb))::uuid) and status = 'sending'`, [
        new Date(this.options.clock().getTime() + this.leaseMs),
        JSON.stringify([...this.held.keys()]),
      ]);
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not renew the leases of the e-mails being sent');
    }
  }

  /** Records outcomes in one transaction: only jobs their claim still holds change; the kinds' settle hooks run in it. */
  private async settle(outcomes: Outcome[]): Promise<void> {
    const now = this.options.clock();
    const ids = (list: Outcome[]) => JSON.stringify(list.map((o) => ({ id: o.job.id, token: o.job.token })));
    const sent = outcomes.filter((o) => o.type === 'sent');
    const failed = outcomes.filter((o): o is Extract<Outcome, { type: 'failed' }> => o.type === 'failed');
    const withheld = outcomes.filter((o): o is Extract<Outcome, { type: 'withheld' }> => o.type === 'withheld');
    const released = outcomes.filter((o) => o.type === 'released');
    const failures = failed.map(({ job, error }) => {
      const since = job.firstAttemptAt ?? job.claimedAt;
      const giveUp = job.claimedAt.getTime() - since.getTime() >= this.retryForMs;
      return { id: job.id, token: job.token, status: giveUp ? MailJobStatus.FAILED : MailJobStatus.QUEUED, error, due_at: giveUp ? null : new Date(job.claimedAt.getTime() + retryDelay(job.attempts)).toISOString() };
    });
    await this.orm!.em.fork().transactional(async (em) => {
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
    for (const outcome of outcomes) {
      const left = (this.held.get(outcome.job.token) ?? 1) - 1;
      if (left > 0) this.held.set(outcome.job.token, left);
      else this.held.delete(outcome.job.token);
    }
    for (const [index, { job, error }] of failed.entries()) {
      const facts = { jobId: job.id, kind: job.kind, attempts: job.attempts, reason: error };
      if (failures[index]!.status === MailJobStatus.FAILED) this.options.log.error(facts, 'e-mail not sent after retrying for the whole retry period; shown as failed to admins, who can retry it');
      else this.options.log.warn({ ...facts, retryAt: failures[index]!.due_at }, 'e-mail not sent; will retry');
    }
    if (sent.length) this.options.log.debug({ sent: sent.length }, 'e-mails sent');
  }

  /** Wakes this worker when the next queued job falls due (or a lease runs out), if before the next poll. */
  private async wakeAtNextDue(): Promise<void> {
    const [row] = await this.orm!.em.fork().execute<{ next: Date | null }[]>(
      `select least((select min(due_at) from mail_job where status = 'queued'), (select min(claimed_until) from mail_job where status = 'sending')) as next`,
    );
    if (this.nextDueTimer) clearTimeout(this.nextDueTimer);
    this.nextDueTimer = null;
    if (!row?.next) return;
    const delay = new Date(row.next).getTime() - this.options.clock().getTime();
    // Beyond a day the poll finds it (timers that long are not worth keeping).
    if (delay > 86_400_000) return;
    this.nextDueTimer = setTimeout(() => this.kick(), Math.max(0, delay) + 5);
    this.nextDueTimer.unref();
  }
}

/**
 * Gathers outcomes and writes them a few dozen at a time, one transaction after another. A write
 * that fails (the database is out of reach) is tried again a few times; after that its jobs stay
 * claimed until their leases end and are sent again by whoever claims them (same Message-ID).
 */
class Settler {
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
class SentMarker {
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
