import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Order } from '../orders/order.entity.js';
import { OrderItem } from '../orders/order-item.entity.js';
import { EcardReply } from '../ecard/ecard-reply.entity.js';

export enum MailKind {
  /** An e-card to its recipient, on its delivery date; one per card. */
  CARD = 'card',
  /** An admin's resend of a card. */
  CARD_RESEND = 'card-resend',
  /** The purchaser's receipt with the card links; one per order. */
  RECEIPT = 'receipt',
  /** An admin's resend of the receipt. */
  RECEIPT_RESEND = 'receipt-resend',
  /** "{recipient} opened your card" to the purchaser; at most one per card. */
  OPENED = 'opened',
  /** A recipient's thank-you reply to the purchaser; one per reply. */
  THANK_YOU = 'thank-you',
  /** The one reminder to the recipient of a delivered card still unopened. */
  REMINDER = 'reminder',
}

export enum MailJobStatus {
  QUEUED = 'queued',
  /** Claimed by a worker that is sending it now (until `claimedUntil`; after that it is claimed again). */
  SENDING = 'sending',
  SENT = 'sent',
  /** Kept failing for the whole retry period; shown to admins with the reason, who can retry it. */
  FAILED = 'failed',
}

registerEnumType(MailKind, { name: 'EmailKind', description: 'card, card-resend, receipt, receipt-resend, opened, thank-you, reminder.' });
registerEnumType(MailJobStatus, { name: 'EmailStatus', description: 'queued (waiting or retrying), sending, sent, failed (given up; can be retried).' });

/**
 * The durable queue of the shop's e-mail, in PostgreSQL: a job is written in the same transaction as
 * the order it belongs to, so nothing is lost on a crash, and workers claim due jobs with
 * `FOR UPDATE SKIP LOCKED`, so no two workers send the same job.
 */
@ObjectType('OrderEmail', { description: "One e-mail of an order (admins): what it is, whether it went out, and why not." })
@Entity({ tableName: 'mail_job' })
@Index({ name: 'mail_job_due_index', expression: `create index "mail_job_due_index" on "mail_job" ("due_at", "id") where "status" = 'queued'` })
@Index({ name: 'mail_job_card_unique', expression: `create unique index "mail_job_card_unique" on "mail_job" ("item_id") where "kind" = 'card'` })
@Index({ name: 'mail_job_opened_unique', expression: `create unique index "mail_job_opened_unique" on "mail_job" ("item_id") where "kind" = 'opened'` })
@Index({ name: 'mail_job_reminder_unique', expression: `create unique index "mail_job_reminder_unique" on "mail_job" ("item_id") where "kind" = 'reminder'` })
@Index({ name: 'mail_job_receipt_unique', expression: `create unique index "mail_job_receipt_unique" on "mail_job" ("order_id") where "kind" = 'receipt'` })
export class MailJob {
  [OptionalProps]?: 'status' | 'attempts' | 'lastError' | 'sentAt' | 'createdAt' | 'item' | 'claimedUntil' | 'firstAttemptAt' | 'reply';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => MailKind)
  @Enum({ items: () => MailKind })
  kind!: MailKind;

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Order;

  @Index({ name: 'mail_job_item_id_index' })
  @ManyToOne(() => OrderItem, { nullable: true, deleteRule: 'cascade' })
  item: OrderItem | null = null;

  /** A thank-you e-mail's reply. */
  @Index({ name: 'mail_job_reply_id_index' })
  @ManyToOne(() => EcardReply, { nullable: true, deleteRule: 'cascade' })
  reply: EcardReply | null = null;

  /** When to send; moved later after a failed attempt. */
  @Field(() => GraphQLISODateTime, { description: 'When it is (or was) due; after a failure, when it is tried again.' })
  @Property({ type: 'datetime' })
  dueAt!: Date;

  @Field(() => MailJobStatus)
  @Enum({ items: () => MailJobStatus })
  status: MailJobStatus = MailJobStatus.QUEUED;

  @Field(() => Int)
  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed.' })
  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  /** The first attempt since it was queued (or retried by an admin): retries go on for 3 days from it. */
  @Property({ type: 'datetime', nullable: true })
  firstAttemptAt: Date | null = null;

  /** While `sending`: the claim's end; a worker that crashed mid-send leaves it to be claimed again. */
  @Property({ type: 'datetime', nullable: true })
  claimedUntil: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
