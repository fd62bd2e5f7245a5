import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { DueRuns } from '../../core/due-runs.js';
import type { Foreground } from '../../core/foreground.js';
import { Claims, DEFAULT_LEASE_MS, MAX_LEASE_MS } from './delivery-claim.js';
import { compose, type Ready } from './delivery-compose.js';
import { BUSY_GRACE_MS, Lanes } from './delivery-send.js';
import { OutcomeWriter, RETRY_FOR_MS, SentMarker, Settler } from './delivery-settle.js';
import type { Mailer } from './mailer.js';
import type { MailQueue } from './mail-queue.js';
import { SendPacer } from './send-pacer.js';

export { MAX_LEASE_MS } from './delivery-claim.js';
export { BUSY_GRACE_MS } from './delivery-send.js';
export { RETRY_FOR_MS, RETRY_MAX_MS, retryDelay } from './delivery-settle.js';

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

/**
 * Sends the shop's e-mail from the `mail_job` queue. No transaction is held while talking to the
 * mail server (contract sections 8 and 10):
 * 1. claim (delivery-claim.ts): one statement marks up to `batchSize` due jobs `sending` under a
 *    fresh claim token and a short lease (`FOR UPDATE SKIP LOCKED`: concurrent workers take disjoint
 *    jobs). Jobs whose lease ran out (their worker died) are claimed again and sent with the same
 *    Message-ID.
 * 2. render (delivery-compose.ts): the kinds' renderers, one call per kind for the batch, then the
 *    filters.
 * 3. send (delivery-send.ts): `concurrency` lanes (one per SMTP connection of the pool) take rendered
 *    e-mails and send them, each first taking a send slot when MAIL_MAX_PER_SECOND is set. The next
 *    batch is claimed and rendered while the lanes still send the last one; the leases of the jobs in
 *    hand are renewed.
 * 4. settle (delivery-settle.ts): outcomes are written a few dozen at a time as they come (so a worker
 *    killed mid-batch leaves few e-mails sent but unsettled), in one transaction each with the kinds'
 *    settle hooks, and only for jobs their claim token still holds (a job settles once, even after its
 *    lease ran out and another worker took it). Failures go back to `queued` with a capped backoff, or
 *    become `failed` after the retry period (shown to admins, who can retry them).
 * It runs when woken (a job due now was committed: NOTIFY), when the next known job falls due, and
 * at every poll (a safety net).
 */
export class DeliveryService {
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly claims: Claims;
  private readonly outcomes: OutcomeWriter;
  private readonly lanes: Lanes;
  private orm: MikroORM | null = null;
  private pacer: SendPacer | null = null;
  /** Waits for this process's next send time under MAIL_MAX_PER_SECOND (none without a cap). */
  private readonly pace = () => this.pacer?.take() ?? Promise.resolve();
  /** When it runs: woken, at the next due job, at every poll. */
  private readonly runs: DueRuns;
  /** E-mails this process sent, and attempts that failed (for /metrics). */
  readonly stats = { sent: 0, failed: 0 };

  constructor(
    private readonly queue: MailQueue,
    private readonly options: DeliveryOptions,
  ) {
    const retryForMs = options.retryForMs ?? RETRY_FOR_MS;
    // Under a rate cap a worker claims about a second's worth at a time, so that the workers share the work.
    const cap = options.maxPerSecond;
    const batchSize = options.batchSize ?? (cap ? Math.max(Math.min(cap, 100), Math.max(1, options.concurrency ?? 5)) : 100);
    this.concurrency = Math.max(1, options.concurrency ?? 5);
    this.leaseMs = Math.min(options.leaseMs ?? DEFAULT_LEASE_MS, MAX_LEASE_MS);
    const busyGraceMs = Math.max(0, options.busyGraceMs ?? BUSY_GRACE_MS);
    this.claims = new Claims(batchSize, this.leaseMs, options.clock, options.log);
    this.outcomes = new OutcomeWriter(queue, this.claims, { clock: options.clock, log: options.log, retryForMs });
    this.runs = new DueRuns({ runOnce: () => this.runOnce(), nextDue: () => this.nextDue(), clock: options.clock, log: options.log, what: 'mail delivery' });
    this.lanes = new Lanes({
      mailer: options.mailer,
      concurrency: this.concurrency,
      yieldTo: options.yieldTo,
      busyGraceMs,
      pace: this.pace,
      stopping: () => this.runs.stopping,
      stats: this.stats,
    });
  }

  /** Starts sending: at once, whenever woken, when the next job falls due, and at every poll. */
  start(orm: MikroORM, pollSeconds: number): void {
    this.orm = orm;
    const cap = this.options.maxPerSecond;
    this.pacer = cap ? new SendPacer((sql, params) => orm.em.fork().execute(sql, params), cap, Math.min(cap, Math.max(this.concurrency, Math.ceil(cap / 10)))) : null;
    this.runs.start(pollSeconds);
  }

  /** Runs the queue soon (a job became due), without waiting for the next poll. */
  kick(): void {
    this.runs.kick();
  }

  /** Sends every job that is due now; returns how many were sent. Concurrent calls share one run. */
  runDue(): Promise<number> {
    return this.runs.runDue();
  }

  /** Stops claiming and waits only for the sends in flight; claimed jobs not yet handed to the mailer go back to the queue. */
  async stop(): Promise<void> {
    const stopped = this.runs.stop();
    this.lanes.wakeWaiting();
    await stopped;
    this.orm = null;
    this.options.mailer.close();
  }

  /** Claims, renders, sends and settles until nothing is due; answers how many were sent. */
  private async runOnce(): Promise<number> {
    const settler = new Settler((outcomes) => this.outcomes.settle(this.orm!, outcomes), this.options.log);
    const marker = new SentMarker((jobs) => this.outcomes.markSent(this.orm!, jobs));
    const ready: Ready[] = [];
    let exhausted = false;
    let producing: Promise<void> | null = null;
    let sent = 0;
    const lowWater = this.concurrency * 2;
    const renewer = setInterval(() => void this.claims.renew(this.orm), Math.max(500, this.leaseMs / 3));
    renewer.unref();

    const produce = async () => {
      try {
        while (!exhausted && !this.runs.stopping && ready.length < lowWater) {
          const batch = await this.claims.claim(this.orm!, this.options.clock());
          if (!batch.length) exhausted = true;
          else ready.push(...(await compose(this.queue, this.orm!, batch, settler, this.options.log)));
        }
      } catch (error) {
        // The database is out of reach: what is claimed stays claimed until its lease ends.
        this.options.log.error({ err: error }, 'could not claim or render e-mails');
        exhausted = true;
      }
    };
    const next = async (): Promise<Ready | null> => {
      for (;;) {
        if (!exhausted && !producing && ready.length < lowWater && !this.runs.stopping) producing = produce().finally(() => (producing = null));
        const item = ready.shift();
        if (item) return item;
        if (!producing) return null;
        await producing;
      }
    };
    try {
      sent = await this.lanes.run(next, settler, marker);
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

  /** When the next queued job falls due, or a claim's lease runs out. */
  private async nextDue(): Promise<Date | null> {
    const [row] = await this.orm!.em.fork().execute<{ next: Date | null }[]>(
      `select least((select min(due_at) from mail_job where status = 'queued'), (select min(claimed_until) from mail_job where status = 'sending')) as next`,
    );
    return row?.next ? new Date(row.next) : null;
  }
}
