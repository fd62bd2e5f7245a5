import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { Customer } from '../../../server/src/modules/customers/customers.types.js';
import { CustomerSort } from '../../../server/src/modules/customers/customers.types.js';
import { badInput } from '../../../server/src/core/errors.js';
import type { Services } from '../../../server/src/services.js';
import { listPage, nextPageFields, pageCursor, pathId, queryText, type RouteDef } from '../route.js';

const customerJson = (c: Customer) => ({
  id: c.id,
  username: c.username,
  email: c.email,
  created_at: c.createdAt.toISOString(),
  confirmed: c.confirmed,
  email_confirmed_at: c.emailConfirmedAt?.toISOString() ?? null,
  orders: c.ordersCount,
  total_spent: decimalToNumber(c.totalSpent),
  last_order_at: c.lastOrderAt?.toISOString() ?? null,
});

const SORTS = Object.values(CustomerSort) as string[];

/** The customers rows of the REST contract (section 13): admins and staff. */
export function customerRoutes({ customers }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/customers',
      access: 'staff',
      scopes: ['customers:read'],
      async handler(ctx, req, res) {
        const sort = queryText(req.query.sort) || CustomerSort.NEWEST;
        if (!SORTS.includes(sort)) throw badInput(`sort must be one of ${SORTS.join(', ')}.`, 'sort');
        const order = queryText(req.query.order);
        if (order && order !== 'asc' && order !== 'desc') throw badInput('order must be asc or desc.', 'order');
        const asked = listPage(req.query);
        const page = await customers.list(ctx, { search: queryText(req.query.search), sort: sort as CustomerSort, descending: order ? order === 'desc' : null, ...asked });
        res.json({ customers: page.edges.map(({ node }) => customerJson(node)), total: page.totalCount, ...nextPageFields(asked, page) });
      },
    },
    {
      method: 'get',
      path: '/admin/customers/:id',
      access: 'staff',
      scopes: ['customers:read'],
      async handler(ctx, req, res) {
        const id = pathId(req.params.id, 'Customer');
        const customer = await customers.get(ctx, id);
        const orders = await customers.ordersOf(ctx, id, { first: 100, after: pageCursor(req.query.page) });
        res.json({
          ...customerJson(customer),
          order_list: orders.edges.map(({ node }) => ({ id: node.id, order_status: node.status, total: decimalToNumber(node.total), refunded_amount: decimalToNumber(node.refundedAmount), created_at: node.createdAt.toISOString() })),
          next_page: orders.pageInfo.hasNextPage ? orders.pageInfo.endCursor : null,
        });
      },
    },
  ];
}
