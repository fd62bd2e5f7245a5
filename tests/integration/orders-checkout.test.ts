import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { ORDER_FIELDS, PAY_DECLINED, PAY_OK, orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { fewestQueries, selects } from '../helpers/queries.js';

let app: TestApp;
let admin: string;
let shop: Shop;
const payments = new TestPaymentProvider();

beforeAll(async () => {
  app = await startTestApp({}, { paymentProviders: [payments] });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const QUOTE = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { total itemCount droppedProductIds lines { index quantity unitPrice lineTotal product { id name } } } }`;
const countOrders = async () => Number((await app.sql<{ n: string }>('select count(*) as n from "order"'))[0]!.n);

describe('cart pricing', () => {
  it('prices every line from the catalogue and drops products that are gone', async () => {
    const { body } = await app.graphql(QUOTE, {
      lines: [
        { productId: shop.cardId, quantity: 1 },
        { productId: 999999, quantity: 1 },
        { productId: shop.albumId, quantity: 3 },
      ],
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.cartQuote).toEqual({
      total: '40.50',
      itemCount: 4,
      droppedProductIds: [999999],
      lines: [
        { index: 0, quantity: 1, unitPrice: '4.50', lineTotal: '4.50', product: { id: shop.cardId, name: 'Balloon Birthday' } },
        { index: 2, quantity: 3, unitPrice: '12.00', lineTotal: '36.00', product: { id: shop.albumId, name: 'Summer Songs Album' } },
      ],
    });
  });

  it("prices a cart in one statement, and reads its products (images and all) in one more only when they are asked for", async () => {
    const lines = [
      { productId: shop.cardId, quantity: 2 },
      { productId: shop.albumId, quantity: 1 },
    ];
    const totals = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { subtotal total } }`;
    const shown = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { total lines { product { id name mainImageThumbnailPath productTypeId compareAtPrice } } } }`;
    const ask = (query: string) => async () => {
      const { body } = await app.graphql(query, { lines });
      expect(body.errors).toBeUndefined();
    };
    expect(await fewestQueries(app, ask(totals), (q) => selects(q).length)).toBe(1);
    expect(await fewestQueries(app, ask(shown), (q) => selects(q).length)).toBe(2);
    const { body } = await app.graphql(shown, { lines });
    expect(body.data.cartQuote).toEqual({
      total: '21.00',
      lines: [
        { product: { id: shop.cardId, name: 'Balloon Birthday', mainImageThumbnailPath: expect.stringMatching(/^uploads\/.+\.thumb\.webp$/), productTypeId: 1, compareAtPrice: null } },
        { product: { id: shop.albumId, name: 'Summer Songs Album', mainImageThumbnailPath: expect.stringMatching(/^uploads\/.+\.thumb\.webp$/), productTypeId: 2, compareAtPrice: null } },
      ],
    });
  });

  it('refuses a price sent by the client: the line type has no price', async () => {
    const { status, body } = await app.graphql(QUOTE, { lines: [{ productId: shop.cardId, quantity: 1, price: '0.01' }] });
    expect(status).toBe(400);
    expect(body.errors![0]!.message).toMatch(/price/);
  });

  it('refuses quantities outside 1..99 on the line', async () => {
    const { body } = await app.graphql(QUOTE, { lines: [{ productId: shop.albumId, quantity: 100 }] });
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lines.0.quantity' });
  });
});

describe('placing an order', () => {
  it('charges the server price, stores the card as sold and only the last four digits', async () => {
    const before = payments.chargeCount;
    const { body } = await placeOrder(app, orderInput(shop));
    expect(body.errors).toBeUndefined();
    const order = body.data.placeOrder;
    expect(order).toMatchObject({ purchaserEmail: 'ada@example.com', status: 'PAID', total: '28.50', cardLast4: '4242', paymentProvider: 'test' });
    expect(order.id).toMatch(/^[0-9a-f-]{36}$/);
    const [card, album] = order.items;
    expect(card).toMatchObject({ name: 'Balloon Birthday', price: '4.50', quantity: 1, recipientName: 'Grace Hopper', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Happy birthday, Grace!\nWith love.' });
    expect(card.ecardPath).toBe(`/ecards/${card.itemUrlUuid}.html`);
    expect(album).toMatchObject({ name: 'Summer Songs Album', price: '12.00', quantity: 2, lineTotal: '24.00', itemUrlUuid: null, ecardPath: null });
    expect(payments.chargeCount).toBe(before + 1);

    const [row] = await app.sql('select * from "order" where id = $1', [order.id]);
    // Paid (or already delivered: the queue, woken when the order commits, may have sent its e-mails by now).
    expect(row).toMatchObject({ status: expect.stringMatching(/^(paid|delivered)$/), total: '28.50', card_last4: '4242' });
    const everything = JSON.stringify(await app.sql('select o.*, i.* from "order" o join order_item i on i.order_id = o.id'));
    expect(everything).not.toContain('4242424242424242');
    expect(everything).not.toContain('"123"');
    // The card's design as sold: every slot's file as the library had it, in slot order.
    const [item] = await app.sql<{ card: unknown }>('select card from order_item where item_url_uuid = $1', [card.itemUrlUuid]);
    const files = await app.sql<{ file_path: string; friendly_name: string; mime_type: string; width: number | null; height: number | null }>('select file_path, friendly_name, mime_type, width, height from media_file');
    const media = (path: string) => {
      const file = files.find((f) => f.file_path === path)!;
      return { path: file.file_path, name: file.friendly_name, mimeType: file.mime_type, width: file.width, height: file.height };
    };
    expect(item!.card).toEqual({
      messageLocation: 'top-left',
      fontName: 'Dancing Script',
      cover: media(shop.files.cover),
      greeting: media(shop.files.greeting),
      back: media(shop.files.back),
      extras: [media(shop.files.extra)],
      songs: shop.files.songs.map(media),
    });
    expect(files.find((f) => f.file_path === shop.files.cover)!.width).toBeGreaterThan(0);
    // Each product's name once, for the admin's search.
    expect(await app.sql('select item_names from "order" where id = $1', [order.id])).toEqual([{ item_names: 'balloon birthday summer songs album' }]);
  });

  it('keeps what was sold when the product changes or goes afterwards', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.albumId, quantity: 1 }] }));
    const id = body.data.placeOrder.id;
    const extra = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { name: 'Short-lived', price: 3, product_type_id: 2, category_id: (await app.sql<{ category_id: number }>('select category_id from product where id = $1', [shop.albumId]))[0]!.category_id }, tags: [] } });
    const extraId = (await extra.json()).product.id;
    const second = await placeOrder(app, orderInput(shop, { lines: [{ productId: extraId, quantity: 1 }] }));
    expect((await app.request(`/api/products/${extraId}`, { method: 'DELETE', token: admin })).status).toBe(204);
    const { body: after } = await app.graphql(`query($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`, { id: second.body.data.placeOrder.id });
    expect(after.data.order.items[0]).toMatchObject({ name: 'Short-lived', price: '3.00', product: null });
    expect((await app.graphql(`query($id: ID!) { order(id: $id) { total } }`, { id })).body.data.order.total).toBe('12.00');
  });

  it('declines the declined test card with a clear message and records nothing', async () => {
    const [orders, charges] = [await countOrders(), payments.chargeCount];
    const { body } = await placeOrder(app, orderInput(shop, { payment: PAY_DECLINED }));
    expect(body.errors![0]).toMatchObject({ message: 'Your card was declined. Try another card.', extensions: { code: 'PAYMENT_DECLINED' } });
    expect(await countOrders()).toBe(orders);
    expect(payments.chargeCount).toBe(charges);
  });

  it('says which field is wrong and records nothing', async () => {
    const orders = await countOrders();
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ purchaserEmail: 'not-an-email' }, 'purchaserEmail'],
      [{ lines: [] }, 'lines'],
      [{ idempotencyKey: 'short' }, 'idempotencyKey'],
      [{ lines: [{ productId: shop.cardId, quantity: 1 }] }, 'lines.0.personalisation'],
      [{ lines: [{ productId: shop.cardId, quantity: 2, personalisation: personalisation() }] }, 'lines.0.quantity'],
      [{ lines: [{ productId: shop.albumId, quantity: 1, personalisation: personalisation() }] }, 'lines.0.personalisation'],
      [{ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'x' }) }] }, 'lines.0.personalisation.recipientEmail'],
      [{ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: '  ' }) }] }, 'lines.0.personalisation.recipientName'],
      [{ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ message: 'x'.repeat(501) }) }] }, 'lines.0.personalisation.message'],
      [{ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ deliveryDate: '2020-01-01' }) }] }, 'lines.0.personalisation.deliveryDate'],
      [{ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ deliveryDate: '2026-02-30' }) }] }, 'lines.0.personalisation.deliveryDate'],
      [{ lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ timeZone: 'Mars/Olympus' }) }] }, 'lines.0.personalisation.timeZone'],
      // A product that is not (or no longer) in the shop (contract section 16).
      [{ lines: [{ productId: 999999, quantity: 1 }] }, 'lines', 'PRODUCT_UNAVAILABLE'],
      [{ payment: { ...PAY_OK, cardNumber: '4242 4242 4242 4241' } }, 'payment.cardNumber'],
      [{ payment: { ...PAY_OK, expiry: '13/30' } }, 'payment.expiry'],
      [{ payment: { ...PAY_OK, expiry: '01/20' } }, 'payment.expiry'],
      [{ payment: { ...PAY_OK, cvc: '12' } }, 'payment.cvc'],
    ];
    for (const [overrides, field, code = 'BAD_USER_INPUT'] of cases) {
      const { body } = await placeOrder(app, orderInput(shop, overrides));
      expect(body.errors?.[0]?.extensions, field).toMatchObject({ code, field });
    }
    expect(await countOrders()).toBe(orders);
  });

  it('accepts a message of exactly 500 characters', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ message: 'm'.repeat(500) }) }] }));
    expect(body.errors).toBeUndefined();
  });
});

describe('idempotency', () => {
  it('answers a retry with the same key with the same order and charges once', async () => {
    const input = orderInput(shop);
    const charges = payments.chargeCount;
    const first = await placeOrder(app, input);
    const retry = await placeOrder(app, input);
    expect(retry.body.data.placeOrder.id).toBe(first.body.data.placeOrder.id);
    expect(await app.sql('select id from "order" where idempotency_key = $1', [input.idempotencyKey])).toHaveLength(1);
    expect(payments.chargeCount).toBe(charges + 1);
  });

  it('refuses the same key for a different order (409)', async () => {
    const input = orderInput(shop);
    await placeOrder(app, input);
    const { body } = await placeOrder(app, { ...input, lines: [{ productId: shop.albumId, quantity: 5 }] });
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', field: 'idempotencyKey' });
  });

  it('makes exactly one order and one charge out of 20 concurrent submissions with one key', async () => {
    const input = orderInput(shop);
    const charges = payments.chargeCount;
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrder(app, input)));
    const ids = new Set(results.map((r) => r.body.data?.placeOrder.id));
    expect(results.map((r) => r.body.errors)).toEqual(Array(20).fill(undefined));
    expect(ids.size).toBe(1);
    expect(await app.sql('select id from "order" where idempotency_key = $1', [input.idempotencyKey])).toHaveLength(1);
    expect(await app.sql('select i.id from order_item i join "order" o on o.id = i.order_id where o.idempotency_key = $1', [input.idempotencyKey])).toHaveLength(2);
    expect(payments.chargeCount).toBe(charges + 1);
  });

  it('lets a declined checkout be retried with another card under the same key', async () => {
    const input = orderInput(shop, { payment: PAY_DECLINED });
    expect((await placeOrder(app, input)).body.errors![0]!.extensions!.code).toBe('PAYMENT_DECLINED');
    const { body } = await placeOrder(app, { ...input, payment: PAY_OK });
    expect(body.data.placeOrder.status).toBe('PAID');
  });
});

describe('the confirmation look-up', () => {
  it('finds an order by its UUID and nothing by anything else', async () => {
    const { body } = await placeOrder(app, orderInput(shop));
    const id = body.data.placeOrder.id;
    expect((await app.graphql(`query($id: ID!) { order(id: $id) { id total items { name } } }`, { id })).body.data.order).toMatchObject({ id, total: '28.50' });
    for (const unknown of [crypto.randomUUID(), 'not-a-uuid', '1']) {
      expect((await app.graphql(`query($id: ID!) { order(id: $id) { id } }`, { id: unknown })).body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    }
  });

  it('links the order to the signed-in shopper who placed it', async () => {
    const token = await app.customer('buyer1');
    const { body } = await placeOrder(app, orderInput(shop), token);
    const [row] = await app.sql<{ username: string }>('select u.username from "order" o join app_user u on u.id = o.user_id where o.id = $1', [body.data.placeOrder.id]);
    expect(row!.username).toBe('buyer1');
  });
});

describe('under construction', () => {
  it('answers 503 to shoppers for pricing, checkout and look-ups, and serves admins', async () => {
    const { body: placed } = await placeOrder(app, orderInput(shop));
    const order = placed.data.placeOrder;
    expect((await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: 'true' } })).status).toBe(200);
    try {
      const customer = await app.customer();
      const calls = [
        () => app.graphql(`query { cartQuote(lines: [{ productId: ${shop.albumId} }]) { total } }`),
        () => app.graphql(`query($id: ID!) { order(id: $id) { id } }`, { id: order.id }),
        (token?: string) => placeOrder(app, orderInput(shop), token),
      ];
      for (const call of calls) {
        for (const token of [undefined, customer]) {
          const res = await call(token);
          expect(res.status).toBe(503);
          expect(res.body.errors![0]!.extensions!.code).toBe('UNDER_CONSTRUCTION');
          expect(res.headers.get('retry-after')).toBeTruthy();
        }
      }
      expect((await app.graphql(`query { cartQuote(lines: [{ productId: ${shop.albumId} }]) { total } }`, {}, admin)).body.data.cartQuote.total).toBe('12.00');
      // A purchased card stays viewable.
      const page = await app.request(order.items[0].ecardPath);
      expect(page.status).toBe(200);
    } finally {
      await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: 'false' } });
    }
  });
});
