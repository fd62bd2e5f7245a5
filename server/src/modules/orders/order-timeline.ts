import { Field, GraphQLISODateTime, ObjectType } from 'type-graphql';
import { MailJobStatus } from '../mail/index.js';
import { EmailKind, type OrderEmail } from './order-email.types.js';
import type { OrderItem } from './order-item.entity.js';
import type { OrderNote } from './order-note.entity.js';
import type { Order } from './order.entity.js';

/** One thing that happened to an order, for its timeline in Order Details (contract section 16). */
@ObjectType({ description: 'One event of an order: placed, an e-mail sent or failed, a card opened, a thank-you, a refund, a note.' })
export class OrderEvent {
  @Field(() => GraphQLISODateTime, { description: 'When it happened.' })
  at!: Date;

  @Field(() => String, { description: 'placed, email, email-failed, opened, thank-you, refunded or note.' })
  kind!: string;

  @Field(() => String, { description: 'What happened, in a sentence, e.g. "Receipt sent".' })
  text!: string;
}

/** What the e-mails are, as the timeline names them. */
const EMAIL_NAMES: Record<EmailKind, string> = {
  [EmailKind.CARD]: 'Card e-mail',
  [EmailKind.CARD_RESEND]: 'Card e-mail (resent)',
  [EmailKind.RECEIPT]: 'Receipt',
  [EmailKind.RECEIPT_RESEND]: 'Receipt (resent)',
  [EmailKind.OPENED]: '"Opened" notice',
  [EmailKind.THANK_YOU]: 'Thank-you notice',
  [EmailKind.REMINDER]: 'Reminder to the recipient',
};

/** A thank-you written back on one of the order's cards. */
export interface CardReply {
  itemId: number;
  name: string;
  message: string;
  at: Date;
}

/** The order's events, oldest first, from what the order, its items, e-mails, replies and notes record. */
export function orderTimeline(order: Order, items: readonly OrderItem[], emails: readonly OrderEmail[], replies: readonly CardReply[], notes: readonly OrderNote[]): OrderEvent[] {
  const events: OrderEvent[] = [{ at: order.createdAt, kind: 'placed', text: `Placed by ${order.purchaserEmail || 'a guest who later erased their account'} for $${order.total}` }];
  for (const email of emails) {
    if (email.status === MailJobStatus.SENT && email.sentAt) events.push({ at: email.sentAt, kind: 'email', text: `${EMAIL_NAMES[email.kind]} sent` });
    else if (email.status === MailJobStatus.FAILED) events.push({ at: email.dueAt, kind: 'email-failed', text: `${EMAIL_NAMES[email.kind]} failed: ${email.lastError ?? 'no reason given'}` });
  }
  const byId = new Map(items.map((item) => [item.id, item]));
  for (const item of items) {
    if (item.openedAt) events.push({ at: item.openedAt, kind: 'opened', text: `${item.recipientName ?? 'The recipient'} opened ${item.name}` });
  }
  for (const reply of replies) events.push({ at: reply.at, kind: 'thank-you', text: `${reply.name} wrote back about ${byId.get(reply.itemId)?.name ?? 'a card'}: “${reply.message}”` });
  // Lines refunded at one moment are one refund.
  const refunds = new Map<number, OrderItem[]>();
  for (const item of items) if (item.refundedAt) refunds.set(item.refundedAt.getTime(), [...(refunds.get(item.refundedAt.getTime()) ?? []), item]);
  for (const [at, lines] of refunds) {
    events.push({ at: new Date(at), kind: 'refunded', text: `Refunded ${lines.map((item) => (item.recipientName ? `${item.name} to ${item.recipientName}` : item.name)).join(', ')}` });
  }
  if (order.refundReason && refunds.size) events.push({ at: order.refundedAt ?? new Date(Math.max(...refunds.keys())), kind: 'refunded', text: `Reason: ${order.refundReason}` });
  for (const note of notes) events.push({ at: note.createdAt, kind: 'note', text: `${note.author}: ${note.text}` });
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}
