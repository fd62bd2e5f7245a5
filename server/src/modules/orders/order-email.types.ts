import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { MailJobStatus, type MailJobView, type MailRef } from '../mail/index.js';

/** The kinds an order's e-mails come in (checkout's and the e-card loop's). */
export enum EmailKind {
  CARD = 'card',
  CARD_RESEND = 'card-resend',
  RECEIPT = 'receipt',
  RECEIPT_RESEND = 'receipt-resend',
  OPENED = 'opened',
  THANK_YOU = 'thank-you',
  REMINDER = 'reminder',
}
const KINDS = new Set<string>(Object.values(EmailKind));

registerEnumType(EmailKind, {
  name: 'EmailKind',
  description: 'card, card-resend, receipt, receipt-resend, opened, thank-you, reminder.',
  valuesConfig: {
    CARD: { description: 'An e-card, to its recipient on its day.' },
    CARD_RESEND: { description: 'An e-card sent again (by the shop, or by the purchaser from My orders).' },
    RECEIPT: { description: "The purchaser's receipt, when the order is paid." },
    RECEIPT_RESEND: { description: 'The receipt sent again by the shop.' },
    OPENED: { description: 'The "opened" notice: the purchaser is told a card was first opened.' },
    THANK_YOU: { description: "A recipient's thank-you reply, passed on to the purchaser." },
    REMINDER: { description: 'The one reminder to the recipient of a card still unopened (72 hours after it went out by default).' },
  },
});
registerEnumType(MailJobStatus, {
  name: 'EmailStatus',
  description: 'queued (waiting or retrying), sending, sent, failed (given up; can be retried), withheld (not sent on purpose; lastError says why).',
  valuesConfig: {
    QUEUED: { description: 'Waiting for its time, or for its next try after a failure.' },
    SENDING: { description: 'A worker is sending it now.' },
    SENT: { description: 'Sent to the mail server.' },
    FAILED: { description: 'Kept failing for the whole retry period (3 days); it can be retried.' },
    WITHHELD: { description: 'Not sent on purpose (a refunded card, an unsubscribed recipient); `lastError` says why. Never retried.' },
  },
});

/** One e-mail of an order as admins see it in Order Details (a view of its mail job). */
@ObjectType('OrderEmail', { description: 'One e-mail of an order (admins): what it is, whether it went out, and why not.' })
export class OrderEmail {
  @Field(() => Int, { description: "The e-mail's id (what `retryEmail` takes)." })
  id!: number;

  @Field(() => EmailKind, { description: 'What the e-mail is.' })
  kind!: EmailKind;

  @Field(() => GraphQLISODateTime, { description: 'When it is (or was) due; after a failure, when it is tried again.' })
  dueAt!: Date;

  @Field(() => MailJobStatus, { description: 'Whether it went out.' })
  status!: MailJobStatus;

  @Field(() => Int, { description: 'How many sends were tried so far.' })
  attempts!: number;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed, or why it was withheld.' })
  lastError!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it went out; null until it has.' })
  sentAt!: Date | null;

  orderId!: string | null;
}

/** What an order's e-mails are about (their `subject` in the queue), and the card one is for (its `ref`). */
export const orderRef = (orderId: string): MailRef => ({ kind: 'order', id: orderId });
export const cardRef = (itemId: number): MailRef => ({ kind: 'card', id: itemId });
/** The order an e-mail of this module is about, and the card it is for. */
export const orderIdOf = (job: { subject: MailRef | null }): string | null => (job.subject?.kind === 'order' ? String(job.subject.id) : null);
export const cardIdOf = (job: { ref: MailRef | null }): number | null => (job.ref?.kind === 'card' ? Number(job.ref.id) : null);

/** The GraphQL view of a mail job of one of the kinds above (callers leave out the kinds of other features). */
export function toOrderEmail(job: MailJobView): OrderEmail {
  return Object.assign(new OrderEmail(), {
    id: job.id,
    kind: job.kind as EmailKind,
    dueAt: job.dueAt,
    status: job.status,
    attempts: job.attempts,
    lastError: job.lastError,
    sentAt: job.sentAt,
    orderId: orderIdOf(job),
  });
}

/** Whether a mail job is one of the kinds Order Details shows. */
export const isOrderEmailKind = (kind: string): boolean => KINDS.has(kind);
