import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { Sale } from '../../../server/src/modules/promotions/index.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';

const saleJson = (sale: Sale) => ({
  id: sale.id,
  name: sale.name,
  percent_off: sale.percentOff,
  amount_off: sale.amountOff === null ? null : decimalToNumber(sale.amountOff),
  product_ids: sale.productIds,
  category_ids: sale.categoryIds,
  starts_at: sale.startsAt.toISOString(),
  ends_at: sale.endsAt.toISOString(),
  banner: sale.banner,
  state: sale.state,
  priced_products: sale.pricedProducts,
});

/** REST names → the service's. */
const saleInput = (json: Record<string, unknown>) => ({
  name: json.name,
  percentOff: json.percent_off,
  amountOff: json.amount_off,
  productIds: json.product_ids,
  categoryIds: json.category_ids,
  startsAt: json.starts_at,
  endsAt: json.ends_at,
  banner: json.banner,
});
const FIELDS = { percentOff: 'percent_off', amountOff: 'amount_off', productIds: 'product_ids', categoryIds: 'category_ids', startsAt: 'starts_at', endsAt: 'ends_at' };

/** Scheduled sales (contract section 17). */
export function promotionRoutes({ promotions }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/sales',
      access: 'admin',
      async handler(ctx, _req, res) {
        res.json((await promotions.list(ctx)).map(saleJson));
      },
    },
    {
      method: 'post',
      path: '/admin/sales',
      access: 'admin',
      async handler(ctx, req, res) {
        res.status(201).json(saleJson(await withRestFields(promotions.create(ctx, saleInput(body(req))), FIELDS)));
      },
    },
    {
      method: 'put',
      path: '/admin/sales/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(saleJson(await withRestFields(promotions.update(ctx, pathId(req.params.id, 'Sale'), saleInput(body(req))), FIELDS)));
      },
    },
    {
      method: 'delete',
      path: '/admin/sales/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await promotions.delete(ctx, pathId(req.params.id, 'Sale'));
        res.status(204).end();
      },
    },
  ];
}
