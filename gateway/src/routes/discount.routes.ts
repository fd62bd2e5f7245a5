import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { AutomaticDiscount } from '../../../server/src/modules/discount/automatic-discount.entity.js';
import type { DiscountCode } from '../../../server/src/modules/discount/discount-code.entity.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';

const money = (value: string | null) => (value === null ? null : decimalToNumber(value));

const discountJson = (d: DiscountCode) => ({
  id: d.id,
  code: d.code,
  percent_off: d.percentOff,
  amount_off: money(d.amountOff),
  starts_at: d.startsAt?.toISOString() ?? null,
  ends_at: d.endsAt?.toISOString() ?? null,
  max_uses: d.maxUses,
  uses: d.uses,
  product_ids: d.productIds,
  category_ids: d.categoryIds,
  min_subtotal: money(d.minSubtotal),
  once_per_customer: d.oncePerCustomer,
  first_order_only: d.firstOrderOnly,
});

/** REST names → the service's. */
const discountInput = (json: Record<string, unknown>) => ({
  code: json.code,
  percentOff: json.percent_off,
  amountOff: json.amount_off,
  startsAt: json.starts_at,
  endsAt: json.ends_at,
  maxUses: json.max_uses,
  productIds: json.product_ids,
  categoryIds: json.category_ids,
  minSubtotal: json.min_subtotal,
  oncePerCustomer: json.once_per_customer,
  firstOrderOnly: json.first_order_only,
});
const FIELDS = {
  percentOff: 'percent_off',
  amountOff: 'amount_off',
  startsAt: 'starts_at',
  endsAt: 'ends_at',
  maxUses: 'max_uses',
  productIds: 'product_ids',
  categoryIds: 'category_ids',
  minSubtotal: 'min_subtotal',
  oncePerCustomer: 'once_per_customer',
  firstOrderOnly: 'first_order_only',
};

const automaticJson = (d: AutomaticDiscount) => ({
  id: d.id,
  name: d.name,
  kind: d.kind,
  min_cards: d.minCards,
  percent_off: d.percentOff,
  min_subtotal: money(d.minSubtotal),
  amount_off: money(d.amountOff),
  starts_at: d.startsAt?.toISOString() ?? null,
  ends_at: d.endsAt?.toISOString() ?? null,
});

const automaticInput = (json: Record<string, unknown>) => ({
  name: json.name,
  minCards: json.min_cards,
  percentOff: json.percent_off,
  minSubtotal: json.min_subtotal,
  amountOff: json.amount_off,
  startsAt: json.starts_at,
  endsAt: json.ends_at,
});
const AUTOMATIC_FIELDS = { minCards: 'min_cards', percentOff: 'percent_off', minSubtotal: 'min_subtotal', amountOff: 'amount_off', startsAt: 'starts_at', endsAt: 'ends_at' };

/** The discount rows of the REST contract (sections 9 and 17): codes with their rules, and automatic discounts. */
export function discountRoutes({ discounts, automaticDiscounts }: Services): RouteDef[] {
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
    {
      method: 'get',
      path: '/admin/automatic-discounts',
      access: 'admin',
      async handler(ctx, _req, res) {
        res.json((await automaticDiscounts.list(ctx)).map(automaticJson));
      },
    },
    {
      method: 'post',
      path: '/admin/automatic-discounts',
      access: 'admin',
      async handler(ctx, req, res) {
        res.status(201).json(automaticJson(await withRestFields(automaticDiscounts.create(ctx, automaticInput(body(req))), AUTOMATIC_FIELDS)));
      },
    },
    {
      method: 'delete',
      path: '/admin/automatic-discounts/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await automaticDiscounts.delete(ctx, pathId(req.params.id, 'Automatic discount'));
        res.status(204).end();
      },
    },
  ];
}
