/**
 * The e-mail that did not go out, as the admins' "E-mail" view lists it: failed ones (the queue gave
 * up after retrying for days) and ones waiting long past their time. A retry puts a failed e-mail back
 * in the queue due now (a fresh retry period) and brings a waiting one forward.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { MailJobStatus } from './mail-job.entity.js';
import { parseRef } from './mail-kind.js';
import type { MailJobView } from './mail-jobs.js';

export interface ProblemsQuery {
  /** A due e-mail still unsent this long after its time is listed as waiting. */
  waitingAfterMinutes: number;
  /** Failures that are no problem to retry (a reason a feature gives on purpose). */
  ignoreReasons: readonly string[];
}

/** Failed e-mails, and e-mails waiting long past their time; never those failed for an ignored reason. */
function problem(query: ProblemsQuery): { sql: string; params: unknown[] } {
  const minutes = Math.max(0, Math.floor(query.waitingAfterMinutes));
  return {
    sql: `((j.status = 'failed' and coalesce(j.last_error, '') not in (select jsonb_array_elements_text(?::jsonb))) or (j.status in ('queued', 'sending') and j.due_at < now() - interval '${minutes} minutes'))`,
    params: [JSON.stringify(query.ignoreReasons)],
  };
}

interface Row {
  id: number;
  kind: string;
  status: MailJobStatus;
  recipient: string | null;
  subject: string | null;
  ref: string | null;
  attempts: number;
  last_error: string | null;
  due_at: Date;
  sent_at: Date | null;
  created_at: Date;
  total: string;
}

/** Failed ones first, then the longest waiting; at most `limit`, with how many there are in all. */
export async function listProblems(em: EntityManager, query: ProblemsQuery & { limit: number }): Promise<{ jobs: MailJobView[]; totalCount: number }> {
  const where = problem(query);
  const rows = await em.execute<Row[]>(
    `select j.id, j.kind, j.status, j.recipient, j.subject, j.ref, j.attempts, j.last_error, j.due_at, j.sent_at, j.created_at, count(*) over () as total
       from mail_job j
      where ${where.sql}
      order by (j.status = 'failed') desc, j.due_at, j.id
      limit ${Math.max(1, Math.floor(query.limit))}`,
    where.params,
  );
  const jobs = rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    to: row.recipient,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    dueAt: new Date(row.due_at),
    sentAt: row.sent_at ? new Date(row.sent_at) : null,
    createdAt: new Date(row.created_at),
    subject: parseRef(row.subject),
    ref: parseRef(row.ref),
  }));
  return { jobs, totalCount: Number(rows[0]?.total ?? 0) };
}

/** Retries the listed problems named (all of them when `ids` is null); answers the ids put back in the queue. */
export async function retryProblems(em: EntityManager, query: ProblemsQuery, ids: readonly number[] | null): Promise<number[]> {
  const where = problem(query);
  const rows = await em.execute<{ id: number }[]>(
    `update mail_job j set status = 'queued', due_at = now(), first_attempt_at = case when j.status = 'failed' then null else j.first_attempt_at end, claimed_until = null
      where ${where.sql} and j.status <> 'sending'${ids ? ` and j.id in (${ids.map(() => '?').join(', ') || 'null'})` : ''}
      returning j.id`,
    [...where.params, ...(ids ?? [])],
  );
  return rows.map((row) => Number(row.id));
}
