import type { EntityManager } from '@mikro-orm/postgresql';
import { defineMessages } from '@formatjs/intl';
import { html } from '../../core/html.js';
import { fromCents, multiply, toCents } from '../../core/money.js';
import { DEFAULT_LOCALE, localizedPath, orderNumber } from '../../rules/index.js';
import { DEFAULT_SHOP_IDENTITY, drop, withhold, formatMoment, button, heading, mjml, paragraph, renderEmail, type EnqueueInput, type JobBatch, type MailQueue, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity, wordsFor, type Words } from '../mail/index.js';
import { ecardPath, OrderItem } from './order-item.entity.js';
import { cardEmail } from './card-email.js';
import type { OrderCard } from './order-item-rows.js';
import { listUnsubscribeHeaders, type RecipientLinks } from '../consent/index.js';
import { Order, OrderStatus } from './order.entity.js';
import { cardIdOf, cardRef, orderIdOf, orderRef } from './order-email.types.js';
import { emitOrders } from './order-events.js';
import type { WebhookEvents } from '../webhooks/index.js';

/** The kinds of e-mail checkout and the admins' order tools send. */
export const OrderMailKind = {
  /** An e-card to its recipient, on its delivery date; one per card. */
  CARD: 'card',
  /** A resend of a card (by an admin or its purchaser). */
  CARD_RESEND: 'card-resend',
  /** The purchaser's receipt with the card links; one per order. */
  RECEIPT: 'receipt',
  /** An admin's resend of the receipt. */
  RECEIPT_RESEND: 'receipt-resend',
} as const;

export { cardEmail, cardLink, recipientNote, senderOf } from './card-email.js';

/** Why a refunded card's e-mail was not sent (Order Details shows it). */
export const NOT_SENT_REFUNDED = 'Not sent: the order was refunded.';


const messages = defineMessages({
  receiptWhy: { id: 'mail.receipt.why', defaultMessage: 'You receive this e-mail because you placed this order at {shop} with this address.' },
  paidCard: { id: 'mail.receipt.paidCard', defaultMessage: 'Paid with card ending {last4}' },
  paidSplit: { id: 'mail.receipt.paidSplit', defaultMessage: 'Paid {gift} with gift card ending {giftLast4} and {charged} with card ending {last4}' },
  paidGift: { id: 'mail.receipt.paidGift', defaultMessage: 'Paid with gift card ending {giftLast4}' },
  receiptSubject: { id: 'mail.receipt.subject', defaultMessage: 'Your {shop} order {number}' },
  sentLater: { id: 'mail.receipt.sentLater', defaultMessage: 'to {recipient}, sent on {moment} ({zone} time)' },
  sentNow: { id: 'mail.receipt.sentNow', defaultMessage: 'to {recipient}, sent now' },
  lineLater: { id: 'mail.receipt.lineLater', defaultMessage: 'to {recipient}, sent on {moment} ({zone} time): {link}' },
  lineNow: { id: 'mail.receipt.lineNow', defaultMessage: 'to {recipient}, sent now: {link}' },
  viewCard: { id: 'mail.receipt.viewCard', defaultMessage: 'view the card' },
  was: { id: 'mail.receipt.was', defaultMessage: '(was {price})' },
  discount: { id: 'mail.receipt.discount', defaultMessage: 'Discount' },
  discountCode: { id: 'mail.receipt.discountCode', defaultMessage: 'Discount <c>{code}</c>' },
  receiptPreview: { id: 'mail.receipt.preview', defaultMessage: 'Thank you for your order: {total}.' },
  thanks: { id: 'mail.receipt.thanks', defaultMessage: 'Thank you for your order' },
  thanksText: { id: 'mail.receipt.thanksText', defaultMessage: 'Thank you for your order.' },
  orderNumber: { id: 'mail.receipt.orderNumber', defaultMessage: 'Order number: <b>{number}</b>' },
  total: { id: 'mail.receipt.total', defaultMessage: 'Total' },
  totalText: { id: 'mail.receipt.totalText', defaultMessage: 'Total: {total}' },
  saved: { id: 'mail.receipt.saved', defaultMessage: 'You saved' },
  savedText: { id: 'mail.receipt.savedText', defaultMessage: 'You saved: {amount}' },
  details: { id: 'mail.receipt.details', defaultMessage: 'Order details' },
  detailsText: { id: 'mail.receipt.detailsText', defaultMessage: 'Order details: {link}' },
});

/** How an order was paid: by card, by a gift card, or by both (each with its share). */
function paidWith(order: Order, words: Words): string {
  const gift = toCents(order.giftCardAmount ?? '0.00');
  const last4 = order.cardLast4 ?? '—';
  if (gift <= 0) return words.text(messages.paidCard, { last4 });
  const charged = toCents(order.total) - gift;
  return charged > 0
    ? words.text(messages.paidSplit, { gift: words.price(fromCents(gift)), giftLast4: order.giftCardLast4, charged: words.price(fromCents(charged)), last4 })
    : words.text(messages.paidGift, { giftLast4: order.giftCardLast4 });
}

/** The purchaser's receipt, with a link to each card, the discount (if any) and the total, in the order's language. */
export function receiptEmail(order: Order, items: OrderItem[], baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const locale = order.locale ?? DEFAULT_LOCALE;
  const words = wordsFor(locale);
  const price = (amount: string) => words.price(amount);
  const subject = words.text(messages.receiptSubject, { shop: shop.name, number: orderNumber(order.id) });
  // The delivery day and hour as the shopper chose them: in their time zone, named.
  const later = (item: OrderItem) => Boolean(item.deliverAt && item.deliverAt > order.createdAt);
  const whenValues = (item: OrderItem) => ({ moment: later(item) ? formatMoment(item.deliverAt!, item.timeZone, locale) : '', zone: item.timeZone ?? 'UTC' });
  const discounted = Boolean((order.discountName ?? order.discountCode) && order.discountAmount && order.discountAmount !== '0.00');
  // A code is shown as a code; an automatic discount by its name ("3 cards, 15 % off").
  const discountLabel = order.discountCode ? words.html(messages.discountCode, { code: order.discountCode }, { c: (inner) => `<code>${inner}</code>` }) : html`${order.discountName ?? words.text(messages.discount)}`;
  const preview = (item: OrderItem) => `${baseUrl}${ecardPath(item.itemUrlUuid!)}?preview=1`;
  const details = `${baseUrl}${localizedPath(locale, `/order-confirmation/${order.id}`)}`;
  // A line sold below the price it was compared with shows that price struck through; the receipt adds up what was saved.
  const was = (item: OrderItem) => (item.compareAtPrice && toCents(item.compareAtPrice) > toCents(item.price) ? multiply(item.compareAtPrice, item.quantity) : null);
  const belowRegular = items.reduce((total, item) => total + (was(item) ? toCents(was(item)!) - toCents(item.lineTotal) : 0), 0);
  // Said when a sale lowered a line (a discount alone has its own line already): the sale's saving and the discount's together.
  const saved = belowRegular > 0 ? fromCents(belowRegular + (discounted ? toCents(order.discountAmount) : 0)) : '0.00';
  const lines = items.map((item) => {
    const card = item.itemUrlUuid ? ` — ${words.text(later(item) ? messages.lineLater : messages.lineNow, { recipient: `${item.recipientName} <${item.recipientEmail}>`, link: preview(item), ...whenValues(item) })}` : '';
    return `${item.quantity} × ${item.name}  ${price(item.lineTotal)}${was(item) ? ` ${words.text(messages.was, { price: price(was(item)!) })}` : ''}${card}`;
  });
  const rows = items.map(
    (item) => html`<tr><td style="padding:10px 0;border-bottom:1px solid #eee">${item.quantity} × ${item.name}${
      item.itemUrlUuid ? html`<br><span style="font-size:13px;color:#7a6f66">${words.html(later(item) ? messages.sentLater : messages.sentNow, { recipient: item.recipientName, ...whenValues(item) })} · <a href="${preview(item)}" style="color:#b0413e">${words.text(messages.viewCard)}</a></span>` : ''
    }</td><td style="padding:10px 0;border-bottom:1px solid #eee;text-align:right;vertical-align:top">${
      was(item) ? html`<s style="color:#7a6f66">${price(was(item)!)}</s> ` : ''
    }${price(item.lineTotal)}</td></tr>`,
  );
  const discountText = order.discountCode ? words.text(messages.discountCode, { code: order.discountCode }, { c: (inner) => inner }) : order.discountName;
  return renderEmail({
    to: order.purchaserEmail,
    subject,
    preview: words.text(messages.receiptPreview, { total: price(order.total) }),
    body: mjml`${heading(words.text(messages.thanks))}
${paragraph(words.html(messages.orderNumber, { number: orderNumber(order.id) }))}
<mj-table font-size="15px" line-height="1.45" color="#2b2b2b" padding="12px 25px">${rows}${
      discounted ? html`
<tr><td style="padding:10px 0;border-bottom:1px solid #eee">${discountLabel}</td><td style="padding:10px 0;border-bottom:1px solid #eee;text-align:right">-${price(order.discountAmount)}</td></tr>` : ''}
<tr><td style="padding:10px 0"><strong>${words.text(messages.total)}</strong></td><td style="padding:10px 0;text-align:right"><strong>${price(order.total)}</strong></td></tr>${
      saved !== '0.00' ? html`
<tr><td style="padding:0 0 10px;color:#2e7d32">${words.text(messages.saved)}</td><td style="padding:0 0 10px;text-align:right;color:#2e7d32">${price(saved)}</td></tr>` : ''}</mj-table>
${paragraph(`${paidWith(order, words)}.`)}
${button(words.text(messages.details), details)}
${paragraph(words.text(messages.receiptWhy, { shop: shop.name }), { quiet: true })}`,
    text: `${words.text(messages.thanksText)}\n\n${words.text(messages.orderNumber, { number: orderNumber(order.id) })}\n\n${lines.join('\n')}${discounted ? `\n${discountText}  -${price(order.discountAmount)}` : ''}\n\n${words.text(messages.totalText, { total: price(order.total) })}${saved !== '0.00' ? `\n${words.text(messages.savedText, { amount: price(saved) })}` : ''}\n${paidWith(order, words)}\n\n${words.text(messages.detailsText, { link: details })}\n\n${words.text(messages.receiptWhy, { shop: shop.name })}`,
    shop,
    locale,
  });
}

/** A card that went out for the first time (the e-card loop queues its reminder). */
export interface DeliveredCard {
  id: number;
  orderId: string;
  recipientEmail: string;
  openedAt: Date | null;
}

export interface OrderEmailsOptions {
  mail: MailQueue;
  /** The unsubscribe link each card's e-mail offers its recipient (and its List-Unsubscribe headers). */
  recipients?: RecipientLinks;
  /** The shop's public address, for links. */
  baseUrl: string;
  clock: () => Date;
  /** Where orders delivered are told to the webhook endpoints, in the transaction that settles their e-mails. */
  webhooks: WebhookEvents;
}

/**
 * The e-mails of orders: the receipt and each card (and their resends). Queued in the transaction
 * that pays the order (or asks for the resend); rendered in batches from the orders and cards they
 * name; settled by recording the card delivered, the receipt sent, and the order delivered once
 * every card (or, without cards, its receipt) went out.
 */
export class OrderEmails {
  /** Told about cards that went out for the first time, in the transaction that records it. */
  onCardsDelivered: ((em: EntityManager, cards: DeliveredCard[], now: Date) => Promise<void>) | null = null;

  constructor(private readonly options: OrderEmailsOptions) {
    const cards = {
      render: (jobs: readonly QueuedMail[], env: RenderEnv) => this.renderCards(jobs, env),
      settle: (em: EntityManager, jobs: readonly QueuedMail[], now: Date) => this.settleCards(em, jobs, now),
    };
    const receipts = {
      render: (jobs: readonly QueuedMail[], env: RenderEnv) => this.renderReceipts(jobs, env),
      settle: (em: EntityManager, jobs: readonly QueuedMail[], now: Date) => this.settleReceipts(em, jobs, now),
    };
    options.mail.register({ kind: OrderMailKind.CARD, ...cards });
    options.mail.register({ kind: OrderMailKind.CARD_RESEND, ...cards });
    options.mail.register({ kind: OrderMailKind.RECEIPT, ...receipts });
    options.mail.register({ kind: OrderMailKind.RECEIPT_RESEND, ...receipts });
  }

  /** The mail jobs of a paid order (its receipt, each card on its day), in the transaction that marks it paid: one INSERT. */
  async queueForOrder(em: EntityManager, order: Pick<Order, 'id' | 'purchaserEmail'>, cards: readonly OrderCard[], now: Date): Promise<void> {
    await this.options.mail.enqueueMany(em, this.jobsForOrder(order, cards, now));
  }

  /**
   * The same jobs made ready to be queued in the statement that marks the order paid (see payOrder),
   * when checkout already knows the order's cards: one round trip for both.
   */
  batchForOrder(order: Pick<Order, 'id' | 'purchaserEmail'>, cards: readonly OrderCard[], now: Date): JobBatch {
    return this.options.mail.batch(this.jobsForOrder(order, cards, now));
  }

  private jobsForOrder(order: Pick<Order, 'id' | 'purchaserEmail'>, cards: readonly OrderCard[], now: Date): EnqueueInput[] {
    return [
      { kind: OrderMailKind.RECEIPT, to: order.purchaserEmail, dueAt: now, subject: orderRef(order.id), dedupeKey: `${OrderMailKind.RECEIPT}:${order.id}` },
      ...cards.map((card) => ({ kind: OrderMailKind.CARD, to: card.recipientEmail, dueAt: card.deliverAt ?? now, subject: orderRef(order.id), ref: cardRef(card.id), dedupeKey: `${OrderMailKind.CARD}:${card.id}` })),
    ];
  }

  /** A card sent again, queued in the caller's transaction (RECIPIENT_UNSUBSCRIBED when its recipient said no). */
  async queueResend(em: EntityManager, item: OrderItem): Promise<void> {
    await this.options.recipients?.assertAccepting(em, [{ email: item.recipientEmail!, field: 'itemId' }]);
    await this.options.mail.enqueue(em, { kind: OrderMailKind.CARD_RESEND, to: item.recipientEmail!, dueAt: this.options.clock(), subject: orderRef(item.order.id), ref: cardRef(item.id) });
  }

  /** A receipt sent again, queued in the caller's transaction. */
  async queueReceiptResend(em: EntityManager, order: Order): Promise<void> {
    await this.options.mail.enqueue(em, { kind: OrderMailKind.RECEIPT_RESEND, to: order.purchaserEmail, dueAt: this.options.clock(), subject: orderRef(order.id) });
  }

  private async renderCards(jobs: readonly QueuedMail[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
    const ids = [...new Set(jobs.map((job) => cardIdOf(job)!))];
    // Only what a card's e-mail shows and whether it may go: a batch of a hundred cards, not their messages and designs.
    const fields = ['name', 'senderName', 'recipientName', 'recipientEmail', 'itemUrlUuid', 'refundedAt', 'order.status', 'order.locale'] as const;
    const items = new Map((await em.find(OrderItem, { id: { $in: ids } }, { fields })).map((item) => [item.id, item]));
    return Promise.all(
      jobs.map(async (job) => {
        const item = items.get(cardIdOf(job)!);
        if (!item) return drop();
        // A refunded card is never sent (the refund withholds its jobs; this covers one claimed meanwhile).
        if (item.refundedAt || item.order.status === OrderStatus.REFUNDED) return withhold(NOT_SENT_REFUNDED);
        const unsubscribe = await this.options.recipients?.unsubscribeUrl(em, item.recipientEmail!);
        return { ...(await cardEmail(item, this.options.baseUrl, unsubscribe, undefined, shop)), headers: unsubscribe ? { ...listUnsubscribeHeaders(unsubscribe) } : undefined };
      }),
    );
  }

  private async renderReceipts(jobs: readonly QueuedMail[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
    const ids = [...new Set(jobs.map((job) => orderIdOf(job)!))];
    const orders = new Map((await em.find(Order, { id: { $in: ids } })).map((order) => [order.id, order]));
    const items = await em.find(OrderItem, { order: { $in: ids } }, { orderBy: { order: 'asc', position: 'asc' } });
    const itemsOf = new Map<string, OrderItem[]>();
    for (const item of items) itemsOf.set(item.order.id, [...(itemsOf.get(item.order.id) ?? []), item]);
    return Promise.all(
      jobs.map(async (job) => {
        const order = orders.get(orderIdOf(job)!);
        if (!order) return drop();
        return receiptEmail(order, itemsOf.get(order.id) ?? [], this.options.baseUrl, shop);
      }),
    );
  }

  /** Cards that went out: delivered (the first time only), then their orders' state. */
  private async settleCards(em: EntityManager, jobs: readonly QueuedMail[], now: Date): Promise<void> {
    const orderIds = await this.lockOrders(em, jobs);
    const itemIds = [...new Set(jobs.map((job) => cardIdOf(job)!))];
    const first = await em.execute<{ id: number; order_id: string; recipient_email: string; opened_at: Date | null }[]>(
      `update order_item set delivered_at = ? where id in (select (jsonb_array_elements_text(?::jsonb))::int) and delivered_at is null
       returning id, order_id, recipient_email, opened_at`,
      [now, JSON.stringify(itemIds)],
    );
    if (first.length && this.onCardsDelivered) {
      await this.onCardsDelivered(em, first.map((row) => ({ id: Number(row.id), orderId: row.order_id, recipientEmail: row.recipient_email, openedAt: row.opened_at })), now);
    }
    await this.settleOrders(em, orderIds);
  }

  private async settleReceipts(em: EntityManager, jobs: readonly QueuedMail[], now: Date): Promise<void> {
    const orderIds = await this.lockOrders(em, jobs);
    await em.execute(`update "order" set receipt_sent_at = ? where id in (select (jsonb_array_elements_text(?::jsonb))::uuid) and receipt_sent_at is null`, [now, orderIds]);
    await this.settleOrders(em, orderIds);
  }

  /**
   * Locks the orders of settled jobs before anything else of theirs is written: two cards of one
   * order settled at once by two workers then see each other's outcome, and the lock order (orders
   * by id, then their cards) is the one refunds take, so neither waits on the other in a circle.
   */
  private async lockOrders(em: EntityManager, jobs: readonly QueuedMail[]): Promise<string> {
    const orderIds = JSON.stringify([...new Set(jobs.map((job) => orderIdOf(job)!))].sort());
    await em.execute(`select 1 from "order" where id in (select (jsonb_array_elements_text(?::jsonb))::uuid) order by id for update`, [orderIds]);
    return orderIds;
  }

  /**
   * An order with cards is delivered when every card went out; one without, once its receipt did.
   * Read from the orders' own rows, which the settling of their e-mails keeps (a card's `delivered_at`,
   * the order's `receipt_sent_at`), through the order index: only the settled orders are looked at.
   */
  private async settleOrders(em: EntityManager, orderIds: string): Promise<void> {
    const delivered = await em.execute<{ id: string }[]>(
      `with settled as (select distinct (jsonb_array_elements_text(?::jsonb))::uuid as id),
       done as (
         select o.id from "order" o join settled on o.id = settled.id
          where o.status = 'paid'
            and case when exists (select 1 from order_item i where i.order_id = o.id and i.item_url_uuid is not null)
                     then not exists (select 1 from order_item i where i.order_id = o.id and i.item_url_uuid is not null and i.delivered_at is null)
                     else o.receipt_sent_at is not null end)
       update "order" o set status = 'delivered' from done where o.id = done.id
       returning o.id`,
      [orderIds],
    );
    if (delivered.length) await emitOrders(this.options.webhooks, em, 'order.delivered', delivered.map((row) => row.id));
  }
}
