import { orderInput, personalisation, type Shop } from './order-fixtures.js';
import type { TestApp } from './test-app.js';

export interface PlacedGroupCard {
  orderId: string;
  itemId: number;
  uuid: string;
  token: string;
}

/** Places an order of one group card (delivered on `deliveryDate`, signed until `collectUntil`), as `buyer` (a token) or a guest. */
export async function placeGroupCard(app: TestApp, shop: Shop, options: { deliveryDate: string; collectUntil: string; buyer?: string; purchaserEmail?: string; recipientName?: string; message?: string; locale?: string }): Promise<PlacedGroupCard> {
  const line = {
    productId: shop.cardId,
    quantity: 1,
    personalisation: personalisation({
      recipientName: options.recipientName ?? 'Grace Hopper',
      deliveryDate: options.deliveryDate,
      ...(options.message ? { message: options.message } : {}),
      groupCard: { collectUntil: options.collectUntil },
    }),
  };
  const { body } = await app.graphql(
    `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { id items { id itemUrlUuid signingToken } } }`,
    { input: orderInput(shop, { purchaserEmail: options.purchaserEmail ?? 'ada@example.com', lines: [line], ...(options.locale ? { locale: options.locale } : {}) }) },
    options.buyer,
  );
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  const order = body.data.placeOrder;
  return { orderId: order.id, itemId: order.items[0].id, uuid: order.items[0].itemUrlUuid, token: order.items[0].signingToken };
}

/** A client address of its own for request `n` (the app must run with TRUST_PROXY=1). */
export const fromAddress = (n: number) => ({ 'x-forwarded-for': `10.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}` });

/** Signs over REST. */
export function sign(app: TestApp, token: string, json: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return app.request(`/api/sign/${token}/signatures`, { method: 'POST', json, headers });
}
