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
 *   subject, ref, attempts, dueAt, createdAt) and answers one outcome per job, in the same
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
 *     await mail.enqueue(em, { kind: 'card', to, dueAt, subject: { kind: 'order', id }, ref: { kind: 'card', id: itemId } });
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
 * than an hour ahead is picked up by a poll, DELIVERY_POLL_SECONDS, before its time). `subject`
 * names what the e-mail is about as a whole (`{ kind: 'order', id }`) and `ref` the part it is for
 * (`{ kind: 'card', id }`, `{ kind: 'staff-invitation', id }`): the queue keeps them as text and never
 * reads what they name. `dedupeKey` makes a second enqueue of the same key a no-op (one receipt per
 * order, one card e-mail per card). The Message-ID of a job is `<{kind}-{id}@{domain}>`, the same on
 * every attempt.
 *
 * ## Working with queued jobs
 * Only this module touches `mail_job`. Features find their jobs by those references (`find`,
 * `count`: `MailJobView`s) and change them with `withhold`, `drop`, `move`, `retry`, `forget` and
 * `forgetAddress`, in their own transactions.
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
import { filterOf, findJobs, moveJobs, retryJob, ANY_STATUS, type JobSelector, type MailJobView } from './mail-jobs.js';
import { refKey, type MailFilter, type MailKindDefinition, type MailRef } from './mail-kind.js';
import { listProblems, retryProblems, type ProblemsQuery } from './mail-problems.js';
import { DEFAULT_SHOP_IDENTITY, type ShopIdentity } from './templates/shop-identity.js';

export { drop, isWithheld, parseRef, refKey, withhold, type MailFilter, type MailRef, type MailKindDefinition, type MailMessage, type OutgoingEntry, type QueuedMail, type RenderEnv, type RenderOutcome, type Withheld } from './mail-kind.js';
export { enqueueSql, MAIL_QUEUED_SIGNAL, wakeSql, type JobBatch } from './mail-enqueue-sql.js';
export { ANY_STATUS, type JobSelector, type MailJobView } from './mail-jobs.js';
export type { ProblemsQuery } from './mail-problems.js';
export { MailJobStatus } from './mail-job.entity.js';

export interface EnqueueInput<P = Record<string, unknown>> {
  kind: string;
  to: string;
  dueAt: Date;
  payload?: P;
  /** What it is about as a whole (`{ kind: 'order', id }`): its feature lists and stops its e-mails by it. */
  subject?: MailRef | null;
  /** The part of it the e-mail is for (`{ kind: 'card', id }`). */
  ref?: MailRef | null;
  /** At most one job per key: a second enqueue of the same key is ignored. */
  dedupeKey?: string | null;
}

/** Jobs due within this long wake the workers when queued (later ones are found by a poll in time). */
const WAKE_WITHIN_MS = 3_600_000;

type HasEm = EntityManager | { em: EntityManager };
const emOf = (tx: HasEm): EntityManager => ('getConnection' in tx ? tx : tx.em);

/** The registry of kinds and the API features queue through (one per process). */
export class MailQueue {
  private readonly kinds = new Map<string, MailKindDefinition<any>>();
  private readonly filterList: MailFilter[] = [];
  private identity: (em: EntityManager) => Promise<ShopIdentity> = async () => DEFAULT_SHOP_IDENTITY;

  constructor(private readonly clock: () => Date) {}

  register<P extends object = Record<string, unknown>>(definition: MailKindDefinition<P>): void {
    if (this.kinds.has(definition.kind)) throw new Error(`The mail kind "${definition.kind}" is registered twice`);
    this.kinds.set(definition.kind, definition as MailKindDefinition<any>);
  }

  /** Where the shop's name and addresses come from (the owner's settings); asked once per batch. */
  useShopIdentity(identity: (em: EntityManager) => Promise<ShopIdentity>): void {
    this.identity = identity;
  }

  /** Whose e-mail a batch is (see `useShopIdentity`). */
  shopIdentity(em: EntityManager): Promise<ShopIdentity> {
    return this.identity(em);
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

  /** Queues one e-mail in the caller's transaction; answers its id (null when its dedupe key already had one). */
  async enqueue<P>(tx: HasEm, job: EnqueueInput<P>): Promise<number | null> {
    const [id] = await this.enqueueMany(tx, [job]);
    return id ?? null;
  }

  /**
   * Queues e-mails in the caller's transaction with one INSERT; answers the ids of the jobs written
   * (those skipped by a dedupe key are left out). The workers are woken when the transaction commits.
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
      subject: job.subject ? refKey(job.subject) : null,
      ref: job.ref ? refKey(job.ref) : null,
      dedupe_key: job.dedupeKey ?? null,
      due_at: job.dueAt.toISOString(),
    }));
    const soon = this.clock().getTime() + WAKE_WITHIN_MS;
    return { json: JSON.stringify(rows), wake: jobs.some((job) => job.dueAt.getTime() <= soon) };
  }

  /** The selected jobs, oldest first (of every status unless the selector names some). */
  find(tx: HasEm, where: JobSelector): Promise<MailJobView[]> {
    return findJobs(emOf(tx), where);
  }

  /** How many jobs the selector finds (of every status unless it names some). */
  count(tx: HasEm, where: JobSelector): Promise<number> {
    return emOf(tx).count(MailJob, filterOf(where, ANY_STATUS));
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

  /** Removes the selected jobs whatever became of them (what they were about is gone). Answers how many. */
  async forget(tx: HasEm, where: JobSelector): Promise<number> {
    return emOf(tx).nativeDelete(MailJob, filterOf(where, ANY_STATUS));
  }

  /**
   * An address that must not stay with the selected jobs (its owner deleted their account): those that
   * have not gone out are withheld with the reason, and none of them keeps the address.
   */
  async forgetAddress(tx: HasEm, where: JobSelector & { to: string }, reason: string): Promise<void> {
    await this.withhold(tx, where, reason);
    await emOf(tx).nativeUpdate(MailJob, filterOf(where, ANY_STATUS), { recipient: '' });
  }

  /**
   * Moves the selected queued jobs to another time with a fresh retry period (a card's new delivery
   * day) and wakes the workers when the transaction commits. Answers how many moved: none when they
   * were claimed or sent meanwhile.
   */
  async move(tx: HasEm, where: JobSelector, dueAt: Date): Promise<number> {
    const moved = await moveJobs(emOf(tx), where, dueAt);
    if (moved) await this.wake(tx);
    return moved;
  }

  /** Puts a failed e-mail back in the queue, due now, with a fresh retry period (one not failed is left as it is). Null when there is no such job. */
  async retry(tx: HasEm, jobId: number): Promise<MailJobView | null> {
    const outcome = await retryJob(emOf(tx), jobId, this.clock());
    if (outcome?.retried) await this.wake(tx);
    return outcome?.job ?? null;
  }

  /** The e-mail that did not go out: failed, or waiting long past its time (the admins' "E-mail" view). */
  problems(tx: HasEm, query: ProblemsQuery & { limit: number }): Promise<{ jobs: MailJobView[]; totalCount: number }> {
    return listProblems(emOf(tx), query);
  }

  /** Retries the problems named (all when `ids` is null) and wakes the workers; answers the ids put back in the queue. */
  async retryProblems(tx: HasEm, query: ProblemsQuery, ids: readonly number[] | null): Promise<number[]> {
    const retried = await retryProblems(emOf(tx), query, ids);
    if (retried.length) await this.wake(tx);
    return retried;
  }

  /** Wakes the workers when the caller's transaction commits (after jobs were made due by hand). */
  /** The subjects (`order:…`) starting with `prefix` that have an e-mail which failed for good: what a feature filters its list by. */
  async subjectsWithFailures(tx: HasEm, prefix: string): Promise<string[]> {
    const rows = await emOf(tx).execute<{ subject: string }[]>(`select distinct "subject" from "mail_job" where "status" = 'failed' and "subject" like ? || '%'`, [prefix.replace(/[\\%_]/g, (c) => `\\${c}`)]);
    return rows.map((row) => row.subject);
  }

  async wake(tx: HasEm): Promise<void> {
    await emOf(tx).execute(`select pg_notify('${SIGNAL_CHANNEL}', '${MAIL_QUEUED_SIGNAL}')`);
  }
}
