import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { restCategory, uploadMedia } from './catalogue-fixtures.js';
import type { TestApp } from './test-app.js';

export interface Shop {
  cardId: number;
  albumId: number;
  /** Files of the card: cover, greeting, back, extra image, two songs. */
  files: { cover: string; greeting: string; back: string; extra: string; songs: string[] };
}

/** A category with one e-greeting card (full card data, Dancing Script, top-left) at 4.50 and one album at 12.00. */
export async function seedShop(app: TestApp, token: string): Promise<Shop> {
  const media = await uploadMedia(app, token, { images: 4, songs: 2, folder: 'Shop art' });
  const [cover, greeting, back, extra] = media.images as [typeof media.images[0], typeof media.images[0], typeof media.images[0], typeof media.images[0]];
  const categoryId = await restCategory(app, token, 'Birthday');
  const create = async (product: Record<string, unknown>, card: Record<string, unknown> | null) => {
    const res = await app.request('/api/products', { method: 'POST', token, json: { product: { category_id: categoryId, ...product }, tags: [], e_greeting_card_data: card } });
    if (res.status !== 201) throw new Error(`product failed: ${res.status} ${await res.text()}`);
    return (await res.json()).product.id as number;
  };
  const cardId = await create(
    { name: 'Balloon Birthday', description: 'Balloons and a song.', price: 4.5, product_type_id: 1, main_image_id: cover.id },
    {
      message_location: 'top-left',
      font_name: 'Dancing Script',
      cover_image_id: cover.id,
      greeting_image_id: greeting.id,
      back_image_id: back.id,
      extra_image_1_id: extra.id,
      song_1_id: media.songs[0]!.id,
      song_2_id: media.songs[1]!.id,
    },
  );
  const albumId = await create({ name: 'Summer Songs Album', description: 'Ten songs.', price: 12, product_type_id: 2, main_image_id: back.id }, null);
  return { cardId, albumId, files: { cover: cover.file_path, greeting: greeting.file_path, back: back.file_path, extra: extra.file_path, songs: media.songs.map((s) => s.file_path) } };
}

export const personalisation = (overrides: Record<string, unknown> = {}) => ({
  recipientName: 'Grace Hopper',
  recipientEmail: 'grace@example.com',
  senderName: 'Ada',
  message: 'Happy birthday, Grace!\nWith love.',
  ...overrides,
});

export const PAY_OK = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', cardholderName: 'Ada Lovelace' };
export const PAY_DECLINED = { ...PAY_OK, cardNumber: '4000 0000 0000 0002' };

export function orderInput(shop: Shop, overrides: Record<string, unknown> = {}) {
  return {
    idempotencyKey: crypto.randomUUID(),
    purchaserEmail: 'ada@example.com',
    lines: [
      { productId: shop.cardId, quantity: 1, personalisation: personalisation() },
      { productId: shop.albumId, quantity: 2 },
    ],
    payment: PAY_OK,
    ...overrides,
  };
}

export const ORDER_FIELDS = `id purchaserEmail status total createdAt cardLast4 paymentProvider
  items { id name price quantity lineTotal itemUrlUuid ecardPath recipientName recipientEmail senderName message deliverAt deliveredAt openedAt product { id } }`;

export const PLACE_ORDER = `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { ${ORDER_FIELDS} } }`;

export function placeOrder(app: TestApp, input: Record<string, unknown>, token?: string) {
  return app.graphql(PLACE_ORDER, { input }, token);
}

/** The .eml files of the outbox by name, with quoted-printable parts decoded for reading. */
export function outbox(app: TestApp): Map<string, string> {
  const dir = path.join(app.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return new Map();
  return new Map(fs.readdirSync(dir).filter((name) => name.endsWith('.eml')).map((name) => [name, decodeQuotedPrintable(fs.readFileSync(path.join(dir, name), 'utf8'))]));
}

export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

/** A clock the test moves by hand. */
export function manualClock(start: string) {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    set(at: string) {
      now = new Date(at);
    },
  };
}
