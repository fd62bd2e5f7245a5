import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export enum MailJobStatus {
  QUEUED = 'queued',
  /** Claimed by a worker that is sending it now (until `claimedUntil`; after that it is claimed again). */
  SENDING = 'sending',
  SENT = 'sent',
  /** Kept failing for the whole retry period; shown to admins with the reason, who can retry it. */
  FAILED = 'failed',
  /** Not sent on purpose (a refunded card, an unsubscribed recipient); `lastError` says why. Never retried. */
  WITHHELD = 'withheld',
}

/**
 * One e-mail in the durable queue (`mail_job`, in PostgreSQL). A feature writes it in its own
 * transaction (see `MailQueue.enqueue`), so nothing is lost on a crash, and workers claim due jobs
 * with `FOR UPDATE SKIP LOCKED`, so no two workers send the same job.
 *
 * The queue knows the job's kind, address and payload. The references (`subject`, `ref`, as text:
 * `order:1f0c…`, `card:12`) are for the features that queued it: to list an order's e-mails, withdraw
 * a card's e-mails or move one. They point at no table: the queue never reads what they name, and a
 * feature that removes what its e-mails were about removes them too (`MailQueue.forget`). Only this
 * module reads and writes the table; features go through `MailQueue`.
 */
@Entity({ tableName: 'mail_job' })
@Index({ name: 'mail_job_due_index', expression: `create index "mail_job_due_index" on "mail_job" ("due_at", "id") where "status" = 'queued'` })
@Index({ name: 'mail_job_claim_token_index', expression: `create index "mail_job_claim_token_index" on "mail_job" ("claim_token") where "status" = 'sending'` })
@Index({ name: 'mail_job_lease_index', expression: `create index "mail_job_lease_index" on "mail_job" ("claimed_until") where "status" = 'sending'` })
export class MailJob {
  [OptionalProps]?: 'status' | 'attempts' | 'lastError' | 'sentAt' | 'createdAt' | 'claimedUntil' | 'firstAttemptAt' | 'payload' | 'subject' | 'ref' | 'dedupeKey' | 'recipient' | 'claimToken';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  /** A kind a feature registered (`card`, `receipt`, `staff-invitation`, ...). */
  @Property({ type: 'text' })
  kind!: string;

  /** The address it goes to (null only on rows queued before the queue was generic; the renderer then names it). */
  @Property({ type: 'text', nullable: true })
  recipient: string | null = null;

  /** What the kind's renderer needs besides the reference columns. */
  @Property({ type: 'json' })
  payload: Record<string, unknown> = {};

  /** What it is about as a whole, as its feature named it (`order:1f0c…`), to list and stop its e-mails together. */
  @Property({ type: 'text', nullable: true })
  subject: string | null = null;

  /** The part of it the e-mail is for (`card:12`, `staff-invitation:3`), to find it again. */
  @Property({ type: 'text', nullable: true })
  ref: string | null = null;

  /** At most one job per key: a second enqueue of the same key is ignored. */
  @Property({ type: 'text', nullable: true })
  dedupeKey: string | null = null;

  /** When to send; moved later after a failed attempt. */
  @Property({ type: 'datetime' })
  dueAt!: Date;

  @Enum({ items: () => MailJobStatus })
  status: MailJobStatus = MailJobStatus.QUEUED;

  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  /** Why the last attempt failed, or why it was withheld. */
  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  /** The first attempt since it was queued (or retried by an admin): retries go on for 3 days from it. */
  @Property({ type: 'datetime', nullable: true })
  firstAttemptAt: Date | null = null;

  /** While `sending`: the lease's end; a worker that died mid-send leaves it to be claimed again after it. */
  @Property({ type: 'datetime', nullable: true })
  claimedUntil: Date | null = null;

  /** While `sending`: the claim that holds it; only that claim may settle it. */
  @Property({ type: 'uuid', nullable: true })
  claimToken: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
