/**
 * What features may do with the e-mails they queued, by the references they gave them: find them,
 * withhold, drop or move the ones that have not gone out, forget them with what they were about.
 * Only the mail module touches `mail_job`; these are the ways in.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { MailJob, MailJobStatus } from './mail-job.entity.js';
import { parseRef, refKey, type MailRef } from './mail-kind.js';

/** Where jobs are selected by their references (at least one of `subjects`, `refs`, `ids`). */
export interface JobSelector {
  /** Jobs about any of these (an order). */
  subjects?: readonly MailRef[];
  /** Jobs for any of these (cards, invitations). */
  refs?: readonly MailRef[];
  ids?: readonly number[];
  kinds?: readonly string[];
  /** Jobs to this address only. */
  to?: string;
  /** Default: queued and failed (what has not gone out and is not being sent). */
  statuses?: readonly MailJobStatus[];
}

/** A job as the feature that queued it sees it. */
export interface MailJobView {
  id: number;
  kind: string;
  to: string | null;
  status: MailJobStatus;
  attempts: number;
  /** Why the last attempt failed, or why it was withheld. */
  lastError: string | null;
  dueAt: Date;
  sentAt: Date | null;
  createdAt: Date;
  subject: MailRef | null;
  ref: MailRef | null;
}

/** Every status: with `find`, `count` and `forget`, what was sent counts too. */
export const ANY_STATUS: readonly MailJobStatus[] = Object.values(MailJobStatus);
const NOT_GONE_OUT: readonly MailJobStatus[] = [MailJobStatus.QUEUED, MailJobStatus.FAILED];

export function filterOf(where: JobSelector, statuses: readonly MailJobStatus[] = NOT_GONE_OUT): Record<string, unknown> {
  const filter: Record<string, unknown> = { status: { $in: [...(where.statuses ?? statuses)] } };
  let referenced = false;
  if (where.subjects !== undefined) {
    filter.subject = { $in: where.subjects.map(refKey) };
    referenced = true;
  }
  if (where.refs !== undefined) {
    filter.ref = { $in: where.refs.map(refKey) };
    referenced = true;
  }
  if (where.ids !== undefined) {
    filter.id = { $in: [...where.ids] };
    referenced = true;
  }
  if (!referenced) throw new Error('A mail job selector needs subjects, refs or ids');
  if (where.kinds !== undefined) filter.kind = { $in: [...where.kinds] };
  if (where.to !== undefined) filter.recipient = where.to;
  return filter;
}

export function viewOf(job: MailJob): MailJobView {
  return {
    id: job.id,
    kind: job.kind,
    to: job.recipient,
    status: job.status,
    attempts: job.attempts,
    lastError: job.lastError,
    dueAt: job.dueAt,
    sentAt: job.sentAt,
    createdAt: job.createdAt,
    subject: parseRef(job.subject),
    ref: parseRef(job.ref),
  };
}

/** The selected jobs, oldest first (default: every status). */
export async function findJobs(em: EntityManager, where: JobSelector): Promise<MailJobView[]> {
  return (await em.find(MailJob, filterOf(where, ANY_STATUS), { orderBy: { id: 'asc' } })).map(viewOf);
}

/**
 * Moves the selected queued jobs to another time with a fresh retry period (a card's new day), in the
 * caller's transaction; answers how many moved (none when they were already claimed or sent).
 */
export async function moveJobs(em: EntityManager, where: JobSelector, dueAt: Date): Promise<number> {
  return em.nativeUpdate(MailJob, filterOf({ ...where, statuses: [MailJobStatus.QUEUED] }), { dueAt, attempts: 0, firstAttemptAt: null, lastError: null });
}

/** Puts a failed e-mail back in the queue due `now`, with a fresh retry period; null when there is no such job. */
export async function retryJob(em: EntityManager, jobId: number, now: Date): Promise<{ job: MailJobView; retried: boolean } | null> {
  const job = await em.findOne(MailJob, jobId);
  if (!job) return null;
  const retried = job.status === MailJobStatus.FAILED;
  if (retried) {
    job.status = MailJobStatus.QUEUED;
    job.dueAt = now;
    job.firstAttemptAt = null;
    await em.flush();
  }
  return { job: viewOf(job), retried };
}
