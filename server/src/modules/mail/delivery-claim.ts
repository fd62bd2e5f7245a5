import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { jsonColumn } from '../../db/json-column.js';
import { preparedRead, runPrepared, type PreparedRead } from '../../db/prepared.js';
import { parseRef, type QueuedMail } from './mail-kind.js';

/** The longest lease the contract allows: a dead worker's e-mails go out within about a minute. */
export const MAX_LEASE_MS = 60_000;
export const DEFAULT_LEASE_MS = 30_000;

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
    returning j.id, j.kind, j.recipient, j.payload, j.subject, j.ref, j.attempts, j.due_at, j.created_at, j.first_attempt_at, j.sent_at`);

interface ClaimedRow {
  id: number;
  kind: string;
  recipient: string | null;
  payload: Record<string, unknown> | string;
  subject: string | null;
  ref: string | null;
  attempts: number;
  due_at: Date;
  created_at: Date;
  first_attempt_at: Date | null;
  sent_at: Date | null;
}

export interface Claimed extends QueuedMail {
  /** Set when a worker recorded that the mail server took it but died before settling it: it is not sent again. */
  sentAt: Date | null;
  firstAttemptAt: Date | null;
  /** The claim that holds it: only this claim may settle it. */
  token: string;
  /** When it was claimed (the shop's clock): what a failure's backoff starts from. */
  claimedAt: Date;
}

/**
 * The claims of one worker: each marks a batch of due jobs `sending` under a fresh token and a short
 * lease, renewed while any of its jobs is still in this process and let go as they settle.
 */
export class Claims {
  private readonly claimStatement: PreparedRead;
  /** Claim tokens with jobs still in this process, and how many (their leases are renewed). */
  private readonly held = new Map<string, number>();

  constructor(
    batchSize: number,
    private readonly leaseMs: number,
    private readonly clock: () => Date,
    private readonly log: Logger,
  ) {
    this.claimStatement = claimStatement(Math.max(1, Math.trunc(batchSize)));
  }

  /** Claims up to a batch of due jobs under a fresh token. */
  async claim(orm: MikroORM, now: Date): Promise<Claimed[]> {
    const token = crypto.randomUUID();
    const rows = await runPrepared<ClaimedRow>(orm.em.fork(), this.claimStatement, [now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), token]);
    if (rows.length) this.held.set(token, rows.length);
    return rows
      .map((row): Claimed => ({
        id: Number(row.id),
        kind: row.kind,
        to: row.recipient,
        payload: jsonColumn(row.payload) ?? {},
        subject: parseRef(row.subject),
        ref: parseRef(row.ref),
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

  /** Extends the leases of the jobs this process still holds. */
  async renew(orm: MikroORM | null): Promise<void> {
    if (!orm || !this.held.size) return;
    try {
      await orm.em.fork().execute(`update mail_job set claimed_until = ? where claim_token in (select (jsonb_array_elements_text(?::jsonb))::uuid) and status = 'sending'`, [
        new Date(this.clock().getTime() + this.leaseMs),
        JSON.stringify([...this.held.keys()]),
      ]);
    } catch (error) {
      this.log.warn({ err: error }, 'could not renew the leases of the e-mails being sent');
    }
  }

  /** Lets go of settled jobs: a claim none of whose jobs is left in this process is renewed no more. */
  letGo(jobs: readonly Claimed[]): void {
    for (const job of jobs) {
      const left = (this.held.get(job.token) ?? 1) - 1;
      if (left > 0) this.held.set(job.token, left);
      else this.held.delete(job.token);
    }
  }
}

export function groupByKind(jobs: readonly Claimed[]): Map<string, Claimed[]> {
  const groups = new Map<string, Claimed[]>();
  for (const job of jobs) {
    const group = groups.get(job.kind);
    if (group) group.push(job);
    else groups.set(job.kind, [job]);
  }
  return groups;
}
