import { decimalToNumber } from '../../../server/src/core/decimal.js';
import type { GiftCard } from '../../../server/src/modules/gift-cards/gift-card.entity.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, type RouteDef } from '../route.js';

const giftCardJson = (card: GiftCard) => ({
  id: card.id,
  last4: card.last4,
  initial_amount: decimalToNumber(card.initialAmount),
  balance: decimalToNumber(card.balance),
  currency: card.currency,
  status: card.status,
  source: card.source,
  reason: card.reason,
  recipient_email: card.recipientEmail,
  order_id: card.orderId,
  expires_at: card.expiresAt?.toISOString() ?? null,
  created_at: card.createdAt.toISOString(),
});

/** The gift card rows of the REST contract (section 18): the admin's list and changes, and a holder's balance. */
export function giftCardRoutes({ giftCards }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/gift-cards',
      access: 'admin',
      async handler(ctx, req, res) {
        const query = req.query as Record<string, unknown>;
        const page = await giftCards.list(ctx, {
          search: typeof query.search === 'string' ? query.search : null,
          offset: typeof query.offset === 'string' ? Number.parseInt(query.offset, 10) || 0 : 0,
          first: typeof query.limit === 'string' ? Number.parseInt(query.limit, 10) || 25 : 25,
        });
        res.json({ items: page.items.map(giftCardJson), total_count: page.totalCount, outstanding: decimalToNumber(page.outstanding) });
      },
    },
    {
      method: 'post',
      path: '/admin/gift-cards',
      access: 'admin',
      async handler(ctx, req, res) {
        const json = body(req);
        const issued = await giftCards.issue(ctx, { amount: json.amount, reason: json.reason });
        res.status(201).json({ ...giftCardJson(issued.giftCard), code: issued.code });
      },
    },
    {
      method: 'post',
      path: '/admin/gift-cards/:id/void',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(giftCardJson(await giftCards.void(ctx, pathId(req.params.id, 'Gift card'), body(req).reason)));
      },
    },
    {
      method: 'post',
      path: '/admin/gift-cards/:id/adjust',
      access: 'admin',
      async handler(ctx, req, res) {
        const json = body(req);
        res.json(giftCardJson(await giftCards.adjust(ctx, pathId(req.params.id, 'Gift card'), { amount: json.amount, reason: json.reason })));
      },
    },
    {
      method: 'get',
      path: '/gift-cards/:code',
      access: 'storefront',
      async handler(ctx, req, res) {
        const balance = await giftCards.balance(ctx, req.params.code);
        res.set('Cache-Control', 'no-store').json({ balance: decimalToNumber(balance.balance), currency: balance.currency, expires_at: balance.expiresAt?.toISOString() ?? null, last4: balance.last4 });
      },
    },
  ];
}
