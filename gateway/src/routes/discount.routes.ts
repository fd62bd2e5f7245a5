import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { DiscountCode } from '../../../server/src/modules/discount/discount-code.entity.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';

const discountJson = (d: DiscountCode) => ({
  id: d.id,
  code: d.code,
  percent_off: d.percentOff,
  amount_off: d.amountOff === null ? null : decimalToNumber(d.amountOff),
  starts_at: d.startsAt?.toISOString() ?? null,
  ends_at: d.endsAt?.toISOString() ?? null,
  max_uses: d.maxUses,
  uses: d.uses,
});

/** REST names → the service's. */
const discountInput = (json: Record<string, unknown>) => ({
  code: json.code,
  percentOff: json.percent_off,
  amountOff: json.amount_off,
  startsAt: json.starts_at,
  endsAt: json.ends_at,
  maxUses: json.max_uses,
});
const FIELDS = { percentOff: 'percent_off', amountOff: 'amount_off', startsAt: 'starts_at', endsAt: 'ends_at', maxUses: 'max_uses' };

/** The discount rows of the REST contract (section 9). */
export function discountRoutes({ discounts }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/discounts',
      access: 'admin',
      async handler(ctx, _req, res) {
        res.json((await discounts.list(ctx)).map(discountJson));
      },
    },
    {
      method: 'post',
      path: '/admin/discounts',
      access: 'admin',
      async handler(ctx, req, res) {
        res.status(201).json(discountJson(await withRestFields(discounts.create(ctx, discountInput(body(req))), FIELDS)));
      },
    },
    {
      method: 'put',
      path: '/admin/discounts/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(discountJson(await withRestFields(discounts.update(ctx, pathId(req.params.id, 'Discount code'), discountInput(body(req))), FIELDS)));
      },
    },
    {
      method: 'delete',
      path: '/admin/discounts/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await discounts.delete(ctx, pathId(req.params.id, 'Discount code'));
        res.status(204).end();
      },
    },
  ];
}
