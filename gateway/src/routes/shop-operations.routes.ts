import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { Order } from '../../../server/src/modules/orders/order.entity.js';
import type { OrderItem } from '../../../server/src/modules/orders/order-item.entity.js';
import type { Services } from '../../../server/src/services.js';
import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import { ORDERS_CSV_COLUMNS, ordersCsvRows } from '../../../server/src/modules/orders/orders-export.js';
import type { RouteDef } from '../route.js';

/** An order as the admin orders list of the REST contract shows it, with its discount and refund. */
const orderJson = (order: Order, items: OrderItem[]) => ({
  id: order.id,
  purchaser_email: order.purchaserEmail,
  order_status: order.status,
  total: decimalToNumber(order.total),
  discount_code: order.discountCode,
  discount_amount: decimalToNumber(order.discountAmount),
  created_at: order.createdAt.toISOString(),
  refunded_at: order.refundedAt?.toISOString() ?? null,
  items: items.map((item) => ({ id: item.id, name: item.name, price: decimalToNumber(item.price), quantity: item.quantity, item_url_uuid: item.itemUrlUuid })),
});

/** The shop's operations rows of the REST contract (section 9): refunds and the orders export. */
export function shopOperationsRoutes({ orders, refunds }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/orders.csv',
      access: 'admin',
      async handler(ctx, req, res) {
        const search = typeof req.query.search === 'string' ? req.query.search : '';
        const rows = ordersCsvRows(ctx, search);
        // The first batch is read before anything is sent, so a failure there is still a proper error answer.
        const first = await rows.next();
        res.status(200);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
        res.setHeader('Cache-Control', 'no-store');
        const csv = stringify({ header: true, columns: [...ORDERS_CSV_COLUMNS], record_delimiter: 'windows' });
        csv.pipe(res);
        const write = async (batch: Record<string, string>[]) => {
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
      method: 'post',
      path: '/admin/orders/:id/refund',
      access: 'admin',
      async handler(ctx, req, res) {
        const order = await refunds.refund(ctx, String(req.params.id));
        res.json(orderJson(order, await orders.itemsOf(ctx, order)));
      },
    },
  ];
}
