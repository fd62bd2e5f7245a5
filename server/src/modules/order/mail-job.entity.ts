import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Order } from './order.entity.js';
import { OrderItem } from './order-item.entity.js';

export enum MailKind {
  /** An e-card to its recipient, on its delivery date; one per card. */
  CARD = 'card',
  /** An admin's resend of a card. */
  CARD_RESEND = 'card-resend',
  /** The purchaser's receipt with the card links; one per order. */
  RECEIPT = 'receipt',
}

export enum MailJobStatus {
  QUEUED = 'queued',
  SENT = 'sent',
  /** Gave up after the last attempt; an admin can resend. */
  FAILED = 'failed',
}

/**
 * The durable queue of the shop's e-mail, in PostgreSQL: a job is written in the same transaction as
 * the order it belongs to, so nothing is lost on a crash, and workers claim due jobs with
 * `FOR UPDATE SKIP LOCKED`, so no two workers send the same job.
 */
@Entity({ tableName: 'mail_job' })
@Index({ name: 'mail_job_due_index', expression: `create index "mail_job_due_index" on "mail_job" ("due_at", "id") where "status" = 'queued'` })
@Index({ name: 'mail_job_card_unique', expression: `create unique index "mail_job_card_unique" on "mail_job" ("item_id") where "kind" = 'card'` })
@Index({ name: 'mail_job_receipt_unique', expression: `create unique index "mail_job_receipt_unique" on "mail_job" ("order_id") where "kind" = 'receipt'` })
export class MailJob {
  [OptionalProps]?: 'status' | 'attempts' | 'lastError' | 'sentAt' | 'createdAt' | 'item';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Enum({ items: () => MailKind })
  kind!: MailKind;

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Order;

  @Index({ name: 'mail_job_item_id_index' })
  @ManyToOne(() => OrderItem, { nullable: true, deleteRule: 'cascade' })
  item: OrderItem | null = null;

  /** When to send; moved later after a failed attempt. */
  @Property({ type: 'datetime' })
  dueAt!: Date;

  @Enum({ items: () => MailJobStatus })
  status: MailJobStatus = MailJobStatus.QUEUED;

  @Property({ type: 'smallint', default: 0 })
  attempts: number = 0;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
