/**
 * The shop's e-mail queue: a generic, durable queue in PostgreSQL (`mail_job`). It knows kinds,
 * templates, addresses and payloads; it never knows orders, cards or accounts. The features that send
 * e-mail own what their e-mails say: they register their kinds and queue jobs in their own
 * transactions. (Contract sections 8 and 10.)
 *
 * ## Registering a kind (once, when the services are made; see services.ts)
 *
 *     mail.register<InvitationPayload>({
 *       kind: 'staff-invitation',
 *       render: async (jobs, env) => jobs.map((job) => invitationEmail(job.payload, env)),
 *       settle: async (em, jobs, now) => { ... },   // optional
 *       eraseWhenSent: ['link'],                     // optional
 *     });
 *
 * - `render(jobs, env)` gets a batch of due jobs of its kind (`QueuedMail`: id, kind, to, payload,
 *   orderId, itemId, ref, attempts, dueAt, createdAt) and answers one outcome per job, in the same
 *   order: an e-mail (`MailMessage`: subject, text, html, optional `headers` and `to`),
 *   `withhold(reason)` (the job is not sent and becomes `withheld` with the reason, which admins and
 *   owners see, e.g. "Not delivered: the recipient unsubscribed"), or `drop()` (the job is removed
 *   without a trace, e.g. a reminder no longer needed). It loads what it needs for the whole batch
 *   with one query per kind of row (`env.em`, a fresh EntityManager; never a query per job). A
 *   renderer that throws fails the batch's jobs as a failed send would (retried with backoff).
 *   Build the e-mail with `renderEmail` and the pieces of ./templates/layout.ts (heading, paragraph,
 *   button, quote) and the `html` tag of core/html.ts (every value escaped); the shop's frame is added.
 * - `settle(em, jobs, now)` runs in the transaction that marks the kind's sent jobs `sent` (only jobs
 *   this worker still held: a job settles once). Batched like `render`: one statement per kind of row.
 * - `eraseWhenSent`: payload keys removed once the job is sent (a link with a secret token).
 *
 * ## Queueing (in the caller's transaction)
 *
 *     await mail.enqueue(em, { kind: 'card', to, dueAt, payload: {}, orderId, itemId });
 *     await mail.enqueueMany(em, jobs);    // one INSERT for any number of jobs
 *
 * A feature may also queue e-mails in the very statement that writes what they are about (one round
 * trip, atomic without a transaction): `mail.batch(jobs)` checks and serialises the jobs, `enqueueSql`
 * is the INSERT to put in a CTE of that statement (with the condition under which it queues), and
 * `wakeSql` the NOTIFY to select with it (see payOrder in orders/order-item-rows.ts).
 *
 * `em` is the caller's transactional EntityManager (or a RequestContext, whose `em` is used): the job
 * exists exactly when the caller's transaction commits. Queueing wakes the workers when the
 * transaction commits (NOTIFY): a job due now is sent at once, a later one at its time (one due more
 * than an hour ahead is picked up by a poll, DELIVERY_POLL_SECONDS, before its time). `orderId` and `itemId` reference the
 * order and card the e-mail belongs to (foreign keys in SQL: the job goes with them); `ref` is free
 * text for any other owner (`contact:12`); `dedupeKey` makes a second enqueue of the same key a no-op
 * (as do the per-card and per-order unique indexes of the card, receipt, opened and reminder kinds).
 * The Message-ID of a job is `<{kind}-{id}@{domain}>`, the same on every attempt.
 *
 * ## Working with queued jobs
 * Features read their jobs through the `MailJob` entity (by `orderId`, `itemId`, `ref`, `kind`) and
 * change them with `withhold`, `drop`, `moveTo` and `retry` below, in their own transactions.
 *
 * ## Filters
 * `addFilter(filter)` sees every rendered e-mail of a batch (all kinds) just before it is sent, and
 * may add headers (`entry.mail.headers`, e.g. List-Unsubscribe) or `entry.withhold(reason)` /
 * `entry.drop()` it (e.g. an unsubscribed recipient). Filters run in the order added, batched.
 *
 * ## Extra headers
 * `MailMessage.headers` (from a renderer or a filter) go out as they are, besides From, To, Subject,
 * Message-ID and Date.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { SIGNAL_CHANNEL } from '../../core/change-feed.js';
import { runPrepared } from '../../db/prepared.js';
import { ENQUEUE, ENQUEUE_AND_WAKE, MAIL_QUEUED_SIGNAL, type JobBatch } from './mail-enqueue-sql.js';
import { MailJob, MailJobStatus } from './mail-job.entity.js';
import type { MailFilter, MailKindDefinition } from './mail-kind.js';

export { drop, isWithheld, withhold, type MailFilter, type MailKindDefinition, type MailMessage, type OutgoingEntry, type QueuedMail, type RenderEnv, type RenderOutcome, type Withheld } from './mail-kind.js';
export { enqueueSql, MAIL_QUEUED_SIGNAL, wakeSql, type JobBatch } from './mail-enqueue-sql.js';

export interface EnqueueInput<P = Record<string, unknown>> {
  kind: string;
  to: string;
  dueAt: Date;
  payload?: P;
  orderId?: string | null;
  itemId?: number | null;
  ref?: string | null;
  dedupeKey?: string | null;
}

/** Jobs due within this long wake the workers when queued (later ones are found by a poll in time). */
const WAKE_WITHIN_MS = 3_600_000;

type HasEm = EntityManager | { em: EntityManager };
const emOf = (tx: HasEm): EntityManager => ('getConnection' in tx ? tx : tx.em);

/** Where jobs are selected by their references. */
export interface JobSelector {
  orderId?: string;
  itemIds?: readonly number[];
  ref?: string;
  kinds?: readonly string[];
  /** Default: queued and failed (what has not gone out and is not being sent). */
  statuses?: readonly MailJobStatus[];
}

/** The registry of kinds and the API features queue through (one per process). */
export class MailQueue {
  private readonly kinds = new Map<string, MailKindDefinition<any>>();
  private readonly filterList: MailFilter[] = [];

  constructor(private readonly clock: () => Date) {}

  register<P extends object = Record<string, unknown>>(definition: MailKindDefinition<P>): void {
    if (this.kinds.has(definition.kind)) throw new Error(`The mail kind "${definition.kind}" is registered twice`);
    this.kinds.set(definition.kind, definition as MailKindDefinition<any>);
  }

  addFilter(filter: MailFilter): void {
    this.filterList.push(filter);
  }

  /** The definition of a kind (the worker's lookup). */
  definition(kind: string): MailKindDefinition | undefined {
    return this.kinds.get(kind);
  }

  get filters(): readonly MailFilter[] {
    return this.filterList;
  }

  /** Queues one e-mail in the caller's transaction; answers its id (null when its dedupe key or unique reference already had one). */
  async enqueue<P>(tx: HasEm, job: EnqueueInput<P>): Promise<number | null> {
    const [id] = await this.enqueueMany(tx, [job]);
    return id ?? null;
  }

  /**
   * Queues e-mails in the caller's transaction with one INSERT; answers the ids of the jobs written
   * (those skipped by a dedupe key or a unique reference are left out). The workers are woken
   * when the transaction commits.
   */
  async enqueueMany<P>(tx: HasEm, jobs: readonly EnqueueInput<P>[]): Promise<number[]> {
    if (!jobs.length) return [];
    const batch = this.batch(jobs);
    const inserted = await runPrepared<{ id: number }>(emOf(tx), batch.wake ? ENQUEUE_AND_WAKE : ENQUEUE, [batch.json]);
    return inserted.map((row) => Number(row.id));
  }

  /**
   * Jobs made ready for `enqueueSql` in a feature's own statement (their kinds checked). Queueing
   * wakes the workers when the transaction commits for a job due within the hour, so that they send
   * it at once or set a timer for it (one due later is found by a poll before its time: a reminder
   * days ahead wakes nobody).
   */
  batch<P>(jobs: readonly EnqueueInput<P>[]): JobBatch {
    for (const job of jobs) if (!this.kinds.has(job.kind)) throw new Error(`Unknown mail kind "${job.kind}": register it first`);
    const rows = jobs.map((job) => ({
      kind: job.kind,
      recipient: job.to,
      payload: job.payload ?? {},
      order_id: job.orderId ?? null,
      item_id: job.itemId ?? null,
      ref: job.ref ?? null,
      dedupe_key: job.dedupeKey ?? null,
      due_at: job.dueAt.toISOString(),
    }));
    const soon = this.clock().getTime() + WAKE_WITHIN_MS;
    return { json: JSON.stringify(rows), wake: jobs.some((job) => job.dueAt.getTime() <= soon) };
  }

  /**
   * Withholds jobs that have not gone out (queued or failed; one being sent is withheld by its
   * renderer when it looks): they become `withheld` with the reason. Answers how many.
   */
  async withhold(tx: HasEm, where: JobSelector, reason: string): Promise<number> {
    return emOf(tx).nativeUpdate(MailJob, filterOf(where), { status: MailJobStatus.WITHHELD, lastError: reason, claimedUntil: null, claimToken: null });
  }

  /** Removes jobs that have not gone out (default: queued ones only). Answers how many. */
  async drop(tx: HasEm, where: JobSelector): Promise<number> {
    return emOf(tx).nativeDelete(MailJob, filterOf({ statuses: [MailJobStatus.QUEUED], ...where }));
  }

  /** Moves a queued job to another time with a fresh retry period (a card's new delivery day). */
  async moveTo(tx: HasEm, job: MailJob, dueAt: Date): Promise<void> {
    job.dueAt = dueAt;
    job.attempts = 0;
    job.firstAttemptAt = null;
    job.lastError = null;
    await emOf(tx).flush();
    await this.wake(tx);
  }

  /** Puts a failed e-mail back in the queue, due now, with a fresh retry period. Null when there is no such job. */
  async retry(tx: HasEm, jobId: number): Promise<MailJob | null> {
    const em = emOf(tx);
    const job = await em.findOne(MailJob, jobId);
    if (!job) return null;
    if (job.status === MailJobStatus.FAILED) {
      job.status = MailJobStatus.QUEUED;
      job.dueAt = this.clock();
      job.firstAttemptAt = null;
      await em.flush();
      await this.wake(tx);
    }
    return job;
  }

  /** Wakes the workers when the caller's transaction commits (after jobs were made due by hand). */
  async wake(tx: HasEm): Promise<void> {
    await emOf(tx).execute(`select pg_notify('${SIGNAL_CHANNEL}', '${MAIL_QUEUED_SIGNAL}')`);
  }
}

function filterOf(where: JobSelector): Record<string, unknown> {
  const filter: Record<string, unknown> = { status: { $in: [...(where.statuses ?? [MailJobStatus.QUEUED, MailJobStatus.FAILED])] } };
  if (where.orderId !== undefined) filter.orderId = where.orderId;
  if (where.itemIds !== undefined) filter.itemId = { $in: [...where.itemIds] };
  if (where.ref !== undefined) filter.ref = where.ref;
  if (where.kinds !== undefined) filter.kind = { $in: [...where.kinds] };
  if (Object.keys(filter).length === 1) throw new Error('A mail job selector needs at least one reference');
  return filter;
}
