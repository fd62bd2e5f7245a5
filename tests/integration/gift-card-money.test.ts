import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCents } from '../../server/src/core/money.js';
import { RecordingProvider } from '../helpers/recording-provider.js';
import { PAY_OK, personalisation, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const cents = toCents;

let app: TestApp;
let admin: string;
let shop: Shop;
const provider = new RecordingProvider();

beforeAll(async () => {
  app = await startTestApp({}, { paymentProviders: [provider] });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const PLACE = `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id total discountAmount giftCardAmount chargedAmount items { id } } }`;

describe('the money of orders paid by gift card, discount and card together', () => {
  it('adds up: card + gift card = total, and refunds give each source back exactly what it paid', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          giftCard: fc.integer({ min: 100, max: 6000 }),
          discount: fc.oneof(fc.constant(null), fc.record({ percent: fc.integer({ min: 1, max: 60 }) }), fc.record({ amount: fc.integer({ min: 1, max: 20 }) })),
          cards: fc.integer({ min: 0, max: 2 }),
          albums: fc.integer({ min: 0, max: 3 }),
          firstRefund: fc.boolean(),
        }).filter(({ cards, albums }) => cards + albums > 0),
        async ({ giftCard, discount, cards, albums, firstRefund }) => {
          const issued = await (await app.request('/api/admin/gift-cards', { method: 'POST', token: admin, json: { amount: (giftCard / 100).toFixed(2), reason: 'Property test' } })).json();
          let discountCode: string | undefined;
          if (discount) {
            discountCode = `P${crypto.randomBytes(4).toString('hex')}`.toUpperCase();
            const created = await app.request('/api/admin/discounts', { method: 'POST', token: admin, json: { code: discountCode, ...('percent' in discount ? { percent_off: discount.percent } : { amount_off: discount.amount }) } });
            expect(created.status).toBe(201);
          }
          const lines = [
            ...(cards ? [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipients: Array.from({ length: cards }, (_, i) => ({ name: `Friend ${i}`, email: `friend${i}@example.com` })), recipientName: undefined, recipientEmail: undefined }) }] : []),
            ...(albums ? [{ productId: shop.albumId, quantity: albums }] : []),
          ];
          const placed = await app.graphql(PLACE, { input: { idempotencyKey: crypto.randomUUID(), purchaserEmail: 'money@example.com', lines, payment: PAY_OK, giftCardCode: issued.code, discountCode } });
          expect(placed.body.errors).toBeUndefined();
          const order = placed.body.data.placeOrder;
          const total = cents(order.total);
          const gift = cents(order.giftCardAmount);
          // What came in: the gift card's share and the card's, adding up to the total; the gift card spent what it held at most.
          expect(gift).toBe(Math.min(giftCard, total));
          expect(provider.charged(order.id) + gift).toBe(total);
          expect(cents(order.chargedAmount)).toBe(provider.charged(order.id));
          const [card] = await app.sql<{ balance: string }>('select balance::text from gift_card where id = $1', [issued.id]);
          expect(cents(card!.balance)).toBe(giftCard - gift);

          // Refunded in two steps (a line, then the rest) or at once: each source gets back what it paid.
          if (firstRefund && order.items.length > 1) {
            const partly = await app.graphql(`mutation($id: ID!, $items: [Int!]) { refundOrder(id: $id, itemIds: $items) { id } }`, { id: order.id, items: [order.items[0].id] }, admin);
            expect(partly.body.errors).toBeUndefined();
          }
          const rest = await app.graphql(`mutation($id: ID!) { refundOrder(id: $id) { status refundedAmount } }`, { id: order.id }, admin);
          expect(rest.body.data.refundOrder).toEqual({ status: 'REFUNDED', refundedAmount: order.total });
          expect(provider.refunded(order.id)).toBe(provider.charged(order.id));
          const [after] = await app.sql<{ balance: string }>('select balance::text from gift_card where id = $1', [issued.id]);
          expect(cents(after!.balance)).toBe(giftCard);
          const [entries] = await app.sql<{ back: string | null }>(`select sum(amount)::text as back from gift_card_entry where order_id = $1 and kind = 'refunded'`, [order.id]);
          expect(cents(entries!.back ?? '0')).toBe(gift);
        },
      ),
      { numRuns: 10 },
    );
  });
});
