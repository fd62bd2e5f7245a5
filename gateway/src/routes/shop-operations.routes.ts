import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { Order } from '../../../server/src/modules/orders/order.entity.js';
import type { OrderItem } from '../../../server/src/modules/orders/order-item.entity.js';
import type { Services } from '../../../server/src/services.js';
import { once } from 'node:events';
import { csvWriter } from '../../../server/src/core/csv.js';
import { ORDERS_CSV_COLUMNS, ordersCsvRows, type OrdersCsvRow } from '../../../server/src/modules/orders/orders-export.js';
import { badInput } from '../../../server/src/core/errors.js';
import { body, withRestFields, type RouteDef } from '../route.js';

/** `item_ids` of a refund: absent or null for the whole order, else a list of order item ids. */
function itemIds(value: unknown): number[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((id) => Number.isSafeInteger(id) && id > 0)) throw badInput('item_ids must be a non-empty list of order item ids.', 'item_ids');
  return value as number[];
}

/** An order as the admin orders list of the REST contract shows it, with its discount and refund. */
const orderJson = (order: Order, items: OrderItem[]) => ({
  id: order.id,
  purchaser_email: order.purchaserEmail,
  order_status: order.status,
  total: decimalToNumber(order.total),
  discount_code: order.discountCode,
  discount_amount: decimalToNumber(order.discountAmount),
  discount_name: order.discountName,
  discount_kind: order.discountKind,
  created_at: order.createdAt.toISOString(),
  refunded_at: order.refundedAt?.toISOString() ?? null,
  refunded_amount: decimalToNumber(order.refundedAmount),
  items: items.map((item) => ({ id: item.id, name: item.name, price: decimalToNumber(item.price), quantity: item.quantity, item_url_uuid: item.itemUrlUuid, refunded_at: item.refundedAt?.toISOString() ?? null })),
});

/** The shop's operations rows of the REST contract (sections 9 and 13): refunds, whole or of some lines, and the orders export. */
export function shopOperationsRoutes({ orders, refunds }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/orders.csv',
      access: 'staff',
      scopes: ['orders:read'],
      async handler(ctx, req, res) {
        const search = typeof req.query.search === 'string' ? req.query.search : '';
        const rows = ordersCsvRows(ctx, search);
        // The first batch is read before anything is sent, so a failure there is still a proper error answer.
        const first = await rows.next();
        res.status(200);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
        res.setHeader('Cache-Control', 'no-store');
        const csv = csvWriter(ORDERS_CSV_COLUMNS);
        csv.pipe(res);
        const write = async (batch: OrdersCsvRow[]) => {
          for (const row of batch) {
            if (!csv.write(row)) await once(csv, 'drain');
          }
        };
        try {
          if (!first.done) await write(first.value);
          for await (const batch of rows) {
            if (res.destroyed) break;
            await write(batch);
          }
          csv.end();
        } catch (error) {
          // Headers are gone: cut the download short rather than send a truncated file as complete.
          ctx.log.error({ err: error }, 'orders export failed');
          csv.destroy();
          res.destroy();
        }
      },
    },
    {
      // An internal note on an order (contract section 16): {text} → 201.
      method: 'post',
      path: '/admin/orders/:id/notes',
      access: 'staff',
      scopes: ['orders:write'],
      async handler(ctx, req, res) {
        const note = await orders.addNote(ctx, String(req.params.id), body(req).text);
        res.status(201).json({ id: note.id, text: note.text, author: note.author, created_at: note.createdAt.toISOString() });
      },
    },
    {
      method: 'post',
      path: '/admin/orders/:id/refund',
      access: 'staff',
      scopes: ['orders:write'],
      async handler(ctx, req, res) {
        const input = body(req);
        const order = await withRestFields(refunds.refund(ctx, String(req.params.id), itemIds(input.item_ids), { reason: input.reason, notify: input.notify }), { itemIds: 'item_ids' });
        res.json(orderJson(order, await orders.itemsOf(ctx, order)));
      },
    },
  ];
}
