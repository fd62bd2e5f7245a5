import { ORDERS_COUNTED_UP_TO } from '../../rules/index.js';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, conflict, notFound } from '../../core/errors.js';
import { seesOrders } from '../../core/viewer.js';
import { recordAudit } from '../audit/index.js';
import { groupBy, loadRef } from '../../core/loaders.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { containsEveryWord } from '../../core/text-search.js';
import { Product } from '../catalogue/index.js';
import { MailJobStatus, type MailQueue } from '../mail/index.js';
import { cardIdOf, cardRef, isOrderEmailKind, OrderEmail, orderIdOf, orderRef, toOrderEmail } from './order-email.types.js';
import { OrderMailKind, type OrderEmails } from './order-emails.js';
import { OrderItem } from './order-item.entity.js';
import { Order, OrderStatus } from './order.entity.js';
import { MAX_ORDER_NOTE, OrderNote } from './order-note.entity.js';
import { orderTimeline, type CardReply, type OrderEvent } from './order-timeline.js';

export interface OrderSearchArgs extends OrderFilters {
  search?: string | null;
  first?: number | null;
  after?: string | null;
}

/** The orders list's filters (contract section 16). */
export interface OrderFilters {
  status?: OrderStatus | null;
  /** From this day (YYYY-MM-DD, UTC) or moment, inclusive. */
  from?: string | null;
  /** To this day (YYYY-MM-DD, UTC, the whole day) or moment, inclusive. */
  to?: string | null;
  /** Only orders with an e-mail that failed for good. */
  failedEmail?: boolean | null;
  /** Only orders with a group card. */
  group?: boolean | null;
}

export interface OrderServiceOptions {
  /** The e-mail queue (an admin's retry of a failed e-mail). */
  mail: MailQueue;
  orderEmails: OrderEmails;
  /** The thank-yous written back on these cards (the ecard module's). */
  cardReplies?: (em: EntityManager, itemIds: readonly number[]) => Promise<CardReply[]>;
  /** The ids of the order items that are group cards (the group-card module's). */
  groupCardItems?: (em: EntityManager) => Promise<number[]>;
}

export const MAX_ORDER_PAGE = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEARCH_WORDS = 6;

/**
 * Orders: look-up, the admin's search, and the e-mails of an order (placing one is checkout's).
 */
export class OrderService {
  /** Orders (as loaded by a request) their caller may only see as the confirmation page shows them. */
  private readonly redacted = new WeakSet<Order>();

  constructor(private readonly options: OrderServiceOptions) {}

  /**
   * An order by its UUID (anything else is simply not found). Anyone with the number sees what the
   * confirmation page shows; unless the caller is an admin, staff or the order's owner, the order is marked
   * so that its e-mail addresses are masked and its messages left out (see isRedacted).
   */
  async get(ctx: RequestContext, id: string): Promise<Order> {
    const order = UUID.test(id) ? await ctx.em.findOne(Order, { id: id.toLowerCase() }) : null;
    if (!order) throw notFound('Order');
    const viewer = await ctx.viewer();
    const full = viewer !== null && (seesOrders(viewer) || order.user?.id === viewer.user.id);
    if (!full) this.redacted.add(order);
    return order;
  }

  /** Whether this order was looked up by someone who may only see its confirmation page. */
  isRedacted(order: Order): boolean {
    return this.redacted.has(order);
  }

  /** The product of an order item, unless it was deleted since; batched across the items of a request. */
  productOf(ctx: RequestContext, item: OrderItem): Promise<Product | null> {
    return loadRef(ctx, Product, item.product);
  }

  /** The items of an order, in order; batched across the orders of a request. */
  async itemsOf(ctx: RequestContext, order: Order): Promise<OrderItem[]> {
    const loader = ctx.loader<string, OrderItem[]>('order.items', async (ids) =>
      groupBy(await ctx.em.find(OrderItem, { order: { $in: [...ids] } }, { orderBy: { order: 'asc', position: 'asc' } }), (row) => row.order.id),
    );
    return (await loader.load(order.id)) ?? [];
  }

  /** Orders newest first, matching every word of the search in the id, the e-mail, the status or an item name. */
  async search(ctx: RequestContext, args: OrderSearchArgs): Promise<ConnectionResult<Order>> {
    const size = pageSize(args.first, MAX_ORDER_PAGE);
    return ordersNewestFirst(ctx, await this.filter(ctx, args), size, args.after);
  }

  /** Every matching order with its items, newest first (the REST list). */
  async list(ctx: RequestContext, search: string | null | undefined, filters: OrderFilters = {}): Promise<{ order: Order; items: OrderItem[] }[]> {
    const orders = await ctx.em.find(Order, await this.filter(ctx, { ...filters, search }), { orderBy: { createdAt: 'desc', id: 'desc' } });
    return Promise.all(orders.map(async (order) => ({ order, items: await this.itemsOf(ctx, order) })));
  }

  /** The search and the filters as one condition (the failed e-mails and the group cards read once, as ids). */
  private async filter(ctx: RequestContext, args: OrderSearchArgs): Promise<FilterQuery<Order>> {
    const where: FilterQuery<Order>[] = [searchFilter(args.search)];
    if (args.status) where.push({ status: args.status });
    const from = args.from ? dayBound(args.from, 'from', 'start') : null;
    const to = args.to ? dayBound(args.to, 'to', 'end') : null;
    if (from && to && from > to) throw badInput('The first day must not be after the last.', 'from');
    if (from) where.push({ createdAt: { $gte: from } });
    if (to) where.push({ createdAt: { $lte: to } });
    if (args.failedEmail) {
      const subjects = await this.options.mail.subjectsWithFailures(ctx.em, 'order:');
      where.push({ id: { $in: subjects.map((subject) => subject.slice('order:'.length)).filter((id) => UUID.test(id)) } });
    }
    if (args.group) {
      const itemIds = (await this.options.groupCardItems?.(ctx.em)) ?? [];
      const rows = itemIds.length ? await ctx.em.execute<{ order_id: string }[]>(`select distinct order_id from order_item where id = any(?::int[])`, [`{${itemIds.join(',')}}`]) : [];
      where.push({ id: { $in: rows.map((row) => row.order_id) } });
    }
    return { $and: where };
  }

  /** Adds an internal note to an order (admins and staff), audited. */
  async addNote(ctx: RequestContext, orderId: string, text: unknown): Promise<OrderNote> {
    const clean = typeof text === 'string' ? text.trim() : '';
    if (!clean) throw badInput('Write the note.', 'text');
    if (clean.length > MAX_ORDER_NOTE) throw badInput(`A note is at most ${MAX_ORDER_NOTE.toLocaleString('en')} characters.`, 'text');
    const viewer = await ctx.requireViewer();
    return ctx.em.transactional(async (em) => {
      const order = UUID.test(orderId) ? await em.findOne(Order, { id: orderId.toLowerCase() }) : null;
      if (!order) throw notFound('Order');
      const note = em.create(OrderNote, { order, text: clean, author: viewer.user.username ?? `#${viewer.user.id}` });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'order', id: order.id, action: 'noted', summary: `Note on order ${order.number}: ${clean}` });
      return note;
    });
  }

  /** The internal notes of an order, oldest first; batched across the orders of a request. */
  async notesOf(ctx: RequestContext, order: Order): Promise<OrderNote[]> {
    const loader = ctx.loader<string, OrderNote[]>('order.notes', async (ids) =>
      groupBy(await ctx.em.find(OrderNote, { order: { $in: [...ids] } }, { orderBy: { createdAt: 'asc', id: 'asc' } }), (note) => note.order.id),
    );
    return (await loader.load(order.id)) ?? [];
  }

  /** Queues a card's e-mail to its recipient again. */
  async resendCard(ctx: RequestContext, itemId: number): Promise<OrderItem> {
    const item = await ctx.em.transactional(async (em) => {
      const item = await em.findOne(OrderItem, itemId, { populate: ['order'] });
      if (!item) throw notFound('Order item');
      if (!item.itemUrlUuid) throw badInput('Only e-cards are sent by e-mail.', 'itemId');
      if (item.refundedAt || item.order.status === OrderStatus.REFUNDED) throw conflict('This card was refunded and withdrawn; it is not sent any more.');
      await this.options.orderEmails.queueResend(em, item);
      await recordAudit(withEm(ctx, em), { entity: 'order', id: item.order.id, action: 'resent', summary: `Resent the card ${item.name} to ${item.recipientEmail}` });
      return item;
    });
    ctx.log.info({ itemId, orderId: item.order.id }, 'card e-mail resend queued');
    return item;
  }

  /** Queues the purchaser's receipt again (admins). */
  async resendReceipt(ctx: RequestContext, orderId: string): Promise<Order> {
    const order = await ctx.em.transactional(async (em) => {
      const order = UUID.test(orderId) ? await em.findOne(Order, { id: orderId.toLowerCase() }) : null;
      if (!order || order.status === OrderStatus.PENDING) throw notFound('Order');
      if (!order.purchaserEmail) throw conflict('The purchaser deleted their account: the order has no address to send the receipt to.');
      await this.options.orderEmails.queueReceiptResend(em, order);
      await recordAudit(withEm(ctx, em), { entity: 'order', id: order.id, action: 'resent', summary: `Resent the receipt to ${order.purchaserEmail}` });
      return order;
    });
    ctx.log.info({ orderId: order.id }, 'receipt resend queued');
    return order;
  }

  /**
   * Puts a failed e-mail of an order back in the queue (Order Details' "Retry", staff and admins); an
   * e-mail that has not failed is left as it is. Only the e-mails Order Details lists are reached:
   * any other (an account's link, a staff invitation...) is NOT_FOUND here, and is retried from the
   * admins' E-mail view.
   */
  async retryEmail(ctx: RequestContext, jobId: number): Promise<OrderEmail> {
    const job = await ctx.em.transactional(async (em) => {
      const [found] = Number.isSafeInteger(jobId) ? await this.options.mail.find(em, { ids: [jobId] }) : [];
      const orderId = found && isOrderEmailKind(found.kind) ? orderIdOf(found) : null;
      if (!orderId) return null;
      const job = await this.options.mail.retry(em, jobId);
      if (job) await recordAudit(withEm(ctx, em), { entity: 'e-mail', id: job.id, action: 'retried', summary: `Retried the ${job.kind} e-mail of order ${orderId}` });
      return job;
    });
    if (!job) throw notFound('E-mail');
    ctx.log.info({ jobId, orderId: orderIdOf(job) }, 'e-mail retry queued');
    return toOrderEmail(job);
  }

  /** Why a card's e-mail was kept back on purpose, or null; batched across the cards of a request (one query for a page). */
  async notDeliveredReason(ctx: RequestContext, item: OrderItem): Promise<string | null> {
    const loader = ctx.loader<number, string>('item.notDelivered', async (ids) => {
      const jobs = await this.options.mail.find(ctx.em, { refs: ids.map(cardRef), kinds: [OrderMailKind.CARD], statuses: [MailJobStatus.WITHHELD] });
      return new Map(jobs.filter((job) => job.lastError).map((job) => [cardIdOf(job)!, job.lastError!]));
    });
    return (await loader.load(item.id)) ?? null;
  }

  /** What happened to an order, oldest first (Order Details' timeline). */
  async timelineOf(ctx: RequestContext, order: Order): Promise<OrderEvent[]> {
    const [items, emails, notes] = await Promise.all([this.itemsOf(ctx, order), this.emailsOf(ctx, order), this.notesOf(ctx, order)]);
    const cards = items.filter((item) => item.itemUrlUuid).map((item) => item.id);
    const replies = cards.length ? ((await this.options.cardReplies?.(ctx.em, cards)) ?? []) : [];
    return orderTimeline(order, items, emails, replies, notes);
  }

  /** The e-mails of an order, oldest first; batched across the orders of a request. */
  async emailsOf(ctx: RequestContext, order: Order): Promise<OrderEmail[]> {
    const loader = ctx.loader<string, OrderEmail[]>('order.emails', async (ids) =>
      groupBy((await this.options.mail.find(ctx.em, { subjects: ids.map(orderRef) })).filter((job) => isOrderEmailKind(job.kind)).map(toOrderEmail), (row) => row.orderId!),
    );
    return (await loader.load(order.id)) ?? [];
  }
}

/** A page of the orders matching `where`, newest first, with a cursor on (created at, id), counted up to 10,000. */
export function ordersNewestFirst(ctx: RequestContext, where: FilterQuery<Order>, size: number, after: string | null | undefined): Promise<ConnectionResult<Order>> {
  return keysetPage(ctx.em, Order, where, {
    size,
    after,
    direction: 'desc',
    countUpTo: ORDERS_COUNTED_UP_TO,
    keys: [
      { property: 'createdAt', cursor: 't', type: 'date', valueOf: (o) => o.createdAt },
      { property: 'id', cursor: 'id', type: 'string', valueOf: (o) => o.id },
    ],
  });
}

function searchFilter(search: string | null | undefined): FilterQuery<Order> {
  const words = containsEveryWord(search, SEARCH_WORDS);
  return words.length ? { $and: words } : {};
}

/** A day (YYYY-MM-DD, its first or last moment in UTC) or an ISO moment; anything else is 400 on its field. */
function dayBound(value: string, field: string, end: 'start' | 'end'): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`) : new Date(value);
  if (Number.isNaN(day.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw badInput(`${field} must be a day (YYYY-MM-DD) or a moment (ISO 8601).`, field);
  return day;
}
