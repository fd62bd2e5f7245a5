import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { Services } from '../../../server/src/services.js';
import { badInput } from '../../../server/src/core/errors.js';
import { OrderStatus } from '../../../server/src/modules/orders/index.js';
import { queryFlag, queryParam, withRestFields, type RouteDef } from '../route.js';

const STATUSES: readonly string[] = Object.values(OrderStatus);

function orderStatus(value: unknown): OrderStatus | null {
  const raw = queryParam(value)?.toLowerCase() ?? null;
  if (raw === null) return null;
  if (!STATUSES.includes(raw)) throw badInput(`status must be one of ${STATUSES.join(', ')}.`, 'status');
  return raw as OrderStatus;
}



/** The orders row of the REST contract. */
export function orderRoutes({ orders, groupCards }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/orders',
      access: 'staff',
      scopes: ['orders:read'],
      async handler(ctx, req, res) {
        const q = req.query;
        const search = typeof q.search === 'string' ? q.search : '';
        // The list's filters (contract section 16): ?status=&from=&to=&failed_email=1&group=1
        const rows = await withRestFields(orders.list(ctx, search, { status: orderStatus(q.status), from: queryParam(q.from), to: queryParam(q.to), failedEmail: queryFlag(q.failed_email, 'failed_email'), group: queryFlag(q.group, 'group') }), { failedEmail: 'failed_email' });
        // Group cards' signing tokens, for every item of the list in one query.
        const signing = await groupCards.cardsOf(ctx, rows.flatMap(({ items }) => items.filter((item) => item.itemUrlUuid).map((item) => item.id)));
        res.json(
          rows.map(({ order, items }) => ({
            id: order.id,
            number: order.number,
            purchaser_email: order.purchaserEmail,
            order_status: order.status,
            total: decimalToNumber(order.total),
            refunded_amount: decimalToNumber(order.refundedAmount),
            created_at: order.createdAt.toISOString(),
            items: items.map((item) => ({
              id: item.id,
              name: item.name,
              price: decimalToNumber(item.price),
              quantity: item.quantity,
              item_url_uuid: item.itemUrlUuid,
              delivered_at: item.deliveredAt?.toISOString() ?? null,
              opened_at: item.openedAt?.toISOString() ?? null,
              reminded_at: item.remindedAt?.toISOString() ?? null,
              refunded_at: item.refundedAt?.toISOString() ?? null,
              // A group card's signing token (contract 14); other items keep the shape of section 3.
              ...(signing.has(item.id) ? { signing_token: signing.get(item.id)!.signingToken } : {}),
            })),
          })),
        );
      },
    },
  ];
}
