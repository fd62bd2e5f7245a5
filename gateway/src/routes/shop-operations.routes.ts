import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { Order } from '../../../server/src/modules/order/order.entity.js';
import type { OrderItem } from '../../../server/src/modules/order/order-item.entity.js';
import type { Services } from '../../../server/src/services.js';
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
