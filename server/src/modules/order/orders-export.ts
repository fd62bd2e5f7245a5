import type { FilterQuery } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { OrderItem } from './order-item.entity.js';
import { Order, OrderStatus } from './order.entity.js';
import { searchFilter } from './order.service.js';

/** The header of the orders export (contract section 9). */
export const ORDERS_CSV_COLUMNS = ['order_id', 'created_at', 'customer', 'status', 'total', 'discount_code', 'items'] as const;

export type OrdersCsvRow = Record<(typeof ORDERS_CSV_COLUMNS)[number], string>;

const BATCH = 1000;

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, a tab or a carriage return first) gets
 * a leading apostrophe, so it is shown as the text it is.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * The orders of an admin search, newest first, as CSV rows in batches: keyset pages over the
 * (created_at, id) index, so memory stays flat and the first rows go out at once however many match.
 */
export async function* ordersCsvRows(ctx: RequestContext, search: string | null | undefined): AsyncGenerator<OrdersCsvRow[]> {
  const where: FilterQuery<Order> = { $and: [searchFilter(search), { status: { $ne: OrderStatus.PENDING } }] };
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const em = ctx.em.fork();
    // `created_at <= last` bounds the index scan; the $or only sorts out the rows of that very instant.
    const keyset: FilterQuery<Order> = after ? { createdAt: { $lte: after.createdAt }, $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }] } : {};
    const orders: Order[] = await em.find(Order, { $and: [where, keyset] }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: BATCH });
    if (!orders.length) return;
    const items = await em.find(OrderItem, { order: { $in: orders.map((o) => o.id) } }, { fields: ['order', 'name', 'quantity', 'position'], orderBy: { order: 'asc', position: 'asc' } });
    const byOrder = new Map<string, string[]>();
    for (const item of items) {
      const id = item.order.id;
      byOrder.set(id, [...(byOrder.get(id) ?? []), `${item.name} x${item.quantity}`]);
    }
    yield orders.map((order) => ({
      order_id: order.id,
      created_at: order.createdAt.toISOString(),
      customer: spreadsheetSafe(order.purchaserEmail),
      status: order.status,
      total: order.total,
      discount_code: spreadsheetSafe(order.discountCode ?? ''),
      items: spreadsheetSafe((byOrder.get(order.id) ?? []).join('; ')),
    }));
    if (orders.length < BATCH) return;
    const last: Order = orders.at(-1)!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
