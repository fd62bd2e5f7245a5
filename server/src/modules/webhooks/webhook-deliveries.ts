import crypto from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { DueRuns } from '../../core/due-runs.js';
import { runPrepared } from '../../db/prepared.js';
import type { MailQueue } from '../mail/index.js';
import { systemLookup, type HostLookup } from './webhook-address.js';
import { claimSize, claimStatement, DISABLE, NEXT_DUE, RELEASE, RENEW, SETTLE, type ClaimedRow } from './webhook-delivery-sql.js';
import { queueWebhookDisabled } from './webhook-emails.js';
import { RETRY_FOR_MS, type WebhookOutbox } from './webhook-outbox.js';
import { WebhookSender, type SendOutcome } from './webhook-sender.js';

/** The first retry comes this long after a failed attempt; each next one twice as long after, up to MAX_RETRY_MS. */
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 3_600_000;
/** Requests in flight per process. */
export const CONCURRENCY = 16;
/** Outcomes written at once (a worker killed mid-batch leaves at most these sent but unsettled). */
export const SETTLE_EVERY = 64;
const DEFAULT_LEASE_MS = 30_000;
/** Events (and their deliveries) are kept this long, then swept. */
const KEEP_EVENTS_MS = 30 * 24 * 3_600_000;
const TURNED_OFF = 'The endpoint is turned off';

export interface WebhookDeliveryOptions {
  clock: () => Date;
  log: Logger;
  /** The admins' e-mail when an endpoint is turned off. */
  mail: MailQueue;
  /** Told when an endpoint is turned off (every process then stops writing its events). */
  outbox: Pick<WebhookOutbox, 'changed'>;
  /** The admins' addresses. */
  adminEmails: (em: EntityManager) => Promise<string[]>;
  /** WEBHOOK_ALLOW_PRIVATE: deliveries may go to loopback, private and link-local addresses. */
  allowPrivate: boolean;
  /** How host names are resolved (the system's resolver by default). */
  lookup?: HostLookup;
  /** How long a claim lasts unless renewed (WEBHOOK_LEASE_SECONDS). */
  leaseMs?: number;
  /** How long an endpoint has to answer (10 s). */
  timeoutMs?: number;
  concurrency?: number;
}

/** When a delivery whose attempt number `attempts` failed at `at` is tried next; null when that was its last. */
export function nextAttemptAt(attempts: number, at: Date, retryUntil: Date): Date | null {
  if (at.getTime() >= retryUntil.getTime()) return null;
  const delay = Math.min(FIRST_RETRY_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20), MAX_RETRY_MS);
  return new Date(Math.min(at.getTime() + delay, retryUntil.getTime()));
}

/** One settled attempt as the settle statement takes it. */
interface OutcomeRow {
  id: number;
  sent: boolean;
  ok: boolean;
  code: number | null;
  error: string | null;
  at: string;
  next: string | null;
}

/**
 * Delivers the webhook outbox where the background jobs run. A run claims due deliveries in batches
 * (FOR UPDATE SKIP LOCKED, under a lease that is renewed while they are in hand), sends them with up
 * to 16 requests in flight over kept-alive connections, and writes their outcomes a few dozen at a
 * time in one statement each (a failure gets its next attempt: 30 s, then doubling, at most an hour
 * apart, until three days after its event). An endpoint whose deliveries have all failed for three
 * days is turned off in the same transaction, and the admins are e-mailed. A killed worker's claims
 * fall due again when their lease runs out; a delivery is sent at least once, with the same event id.
 *
 * It runs when woken (an event committed: NOTIFY), when the next retry falls due, and at every poll.
 */
export class WebhookDeliveries {
  private readonly sender: WebhookSender;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly claim: ReturnType<typeof claimStatement>;
  private orm: MikroORM | null = null;
  /** When it runs: woken, at the next due delivery, at every poll. */
  private readonly runs: DueRuns;
  /** Attempts this process made that succeeded and failed (for /metrics and logs). */
  readonly stats = { succeeded: 0, failed: 0 };

  constructor(private readonly options: WebhookDeliveryOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? CONCURRENCY);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.claim = claimStatement(claimSize(this.concurrency));
    this.runs = new DueRuns({ runOnce: () => this.runOnce(this.orm!), nextDue: () => this.nextDue(), clock: options.clock, log: options.log, what: 'webhook delivery' });
    this.sender = new WebhookSender({ allowPrivate: options.allowPrivate, lookup: options.lookup ?? systemLookup, concurrency: this.concurrency, timeoutMs: options.timeoutMs });
  }

  /** Starts delivering: at once, whenever woken, when the next retry falls due, and every `pollSeconds`. */
  start(orm: MikroORM, pollSeconds: number): void {
    this.orm = orm;
    this.runs.start(pollSeconds);
  }

  /** Runs the outbox soon (an event was committed), without waiting for the next poll. */
  kick(): void {
    this.runs.kick();
  }

  /** Delivers everything due now; answers how many attempts were made. Concurrent calls share one run. */
  runDue(): Promise<number> {
    return this.runs.runDue();
  }

  /** Stops claiming; the requests in flight are settled, claimed deliveries not sent yet go back to the queue. */
  async stop(): Promise<void> {
    await this.runs.stop();
    this.orm = null;
    this.sender.close();
  }

  /** Removes events older than 30 days with their deliveries; answers how many events went. */
  async sweep(em: EntityManager): Promise<number> {
    const before = new Date(this.options.clock().getTime() - KEEP_EVENTS_MS);
    const [row] = await em.execute<{ n: number }[]>(`with gone as (delete from webhook_event where created_at < ? returning 1) select count(*)::int as n from gone`, [before]);
    return row?.n ?? 0;
  }

  /** Claims, sends and settles until nothing is due; answers how many attempts were made. */
  private async runOnce(orm: MikroORM): Promise<number> {
    const token = crypto.randomUUID();
    const waiting: ClaimedRow[] = [];
    const inHand = new Set<number>();
    const settler = new Settler((rows) => this.settle(orm, token, rows), this.options.log);
    let exhausted = false;
    let producing: Promise<void> | null = null;
    let attempts = 0;

    const produce = async () => {
      try {
        while (!exhausted && !this.runs.stopping && waiting.length < this.concurrency) {
          const now = this.options.clock();
          const rows = await runPrepared<ClaimedRow>(orm.em.fork(), this.claim, [now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), token]);
          if (!rows.length) exhausted = true;
          for (const row of rows) inHand.add(row.id);
          waiting.push(...rows);
        }
      } catch (error) {
        // The database is out of reach: what is claimed stays claimed until its lease ends.
        this.options.log.error({ err: error }, 'could not claim webhook deliveries');
        exhausted = true;
      }
    };
    const next = async (): Promise<ClaimedRow | null> => {
      for (;;) {
        if (!exhausted && !producing && !this.runs.stopping && waiting.length < this.concurrency) producing = produce().finally(() => (producing = null));
        const row = waiting.shift();
        if (row) return row;
        if (!producing) return null;
        await producing;
      }
    };
    const lane = async () => {
      while (!this.runs.stopping) {
        const row = await next();
        if (!row) return;
        const outcome = await this.attempt(row);
        inHand.delete(row.id);
        if (outcome.sent) attempts += 1;
        settler.add(outcome);
      }
    };
    const renewer = setInterval(() => {
      const ids = `{${[...inHand].join(',')}}`;
      if (inHand.size) void runPrepared(orm.em.fork(), RENEW, [ids, token, new Date(this.options.clock().getTime() + this.leaseMs).toISOString()]).catch(() => undefined);
    }, Math.max(250, this.leaseMs / 3));
    renewer.unref();
    try {
      await Promise.all(Array.from({ length: this.concurrency }, lane));
      if (producing) await producing;
      // Stopping: what was claimed and not sent is due again at once (another worker takes it).
      const unsent = waiting.splice(0).map((row) => row.id);
      if (unsent.length) await runPrepared(orm.em.fork(), RELEASE, [`{${unsent.join(',')}}`, token, this.options.clock().toISOString()]).catch(() => undefined);
      await settler.close();
    } finally {
      clearInterval(renewer);
    }
    return attempts;
  }

  /** Sends one claimed delivery (or fails it unsent when its endpoint was turned off) and says what becomes of it. */
  private async attempt(row: ClaimedRow): Promise<OutcomeRow> {
    const at = this.options.clock();
    if (row.disabled) return { id: row.id, sent: false, ok: false, code: null, error: TURNED_OFF, at: at.toISOString(), next: null };
    let outcome: SendOutcome;
    try {
      outcome = await this.sender.send({ eventId: row.event_id, type: row.type, createdAt: new Date(row.created_at), data: row.data, url: row.url, secret: row.secret }, at);
    } catch (error) {
      outcome = { ok: false, statusCode: null, error: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.ok) this.stats.succeeded += 1;
    else this.stats.failed += 1;
    // A refused address is refused again next time: the delivery fails at once, with the reason.
    const next = outcome.ok || outcome.refused ? null : nextAttemptAt(row.attempts + 1, at, new Date(row.retry_until));
    return { id: row.id, sent: true, ok: outcome.ok, code: outcome.statusCode, error: outcome.error, at: at.toISOString(), next: next?.toISOString() ?? null };
  }

  /**
   * Writes outcomes in one transaction: the deliveries (those this run still holds), their endpoints'
   * failing time, and any endpoint failing for three days turned off with its admins' e-mail queued.
   */
  private async settle(orm: MikroORM, token: string, rows: OutcomeRow[]): Promise<void> {
    const now = this.options.clock();
    const turnedOff = await orm.em.fork().transactional(async (em) => {
      const failing = await runPrepared<{ id: number }>(em, SETTLE, [JSON.stringify(rows), token, new Date(now.getTime() - RETRY_FOR_MS).toISOString()]);
      if (!failing.length) return [];
      const reason = 'Every delivery failed for 3 days';
      const off = await runPrepared<{ id: number; url: string; failing_since: Date }>(em, DISABLE, [`{${failing.map((row) => row.id).join(',')}}`, now.toISOString(), reason]);
      if (off.length) {
        const admins = await this.options.adminEmails(em);
        for (const endpoint of off) await queueWebhookDisabled(this.options.mail, em, admins, { endpointId: endpoint.id, url: endpoint.url, failingSince: new Date(endpoint.failing_since).toISOString() }, now);
      }
      return off;
    });
    if (!turnedOff.length) return;
    for (const endpoint of turnedOff) this.options.log.warn({ endpointId: endpoint.id, url: endpoint.url }, 'a webhook endpoint failed for 3 days and was turned off; the admins are e-mailed');
    await this.options.outbox.changed();
  }

  /** When the next pending delivery falls due (or a claim's lease runs out). */
  private async nextDue(): Promise<Date | null> {
    const [row] = await runPrepared<{ next: Date | null }>(this.orm!.em.fork(), NEXT_DUE, []);
    return row?.next ? new Date(row.next) : null;
  }
}

/** Writes outcomes as they come, SETTLE_EVERY at a time, one write after the other. */
class Settler {
  private rows: OutcomeRow[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (rows: OutcomeRow[]) => Promise<void>,
    private readonly log: Logger,
  ) {}

  add(row: OutcomeRow): void {
    this.rows.push(row);
    if (this.rows.length >= SETTLE_EVERY) this.flush();
  }

  async close(): Promise<void> {
    this.flush();
    await this.chain;
  }

  private flush(): void {
    if (!this.rows.length) return;
    const rows = this.rows;
    this.rows = [];
    // A write that fails leaves its deliveries claimed: they are sent again once their lease runs out.
    this.chain = this.chain.then(() => this.write(rows)).catch((error: unknown) => this.log.error({ err: error, deliveries: rows.length }, 'could not record webhook deliveries; they are sent again after their lease'));
  }
}
