import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { orderInput, PAY_DECLINED, PAY_OK, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { badInput } from '../../server/src/core/errors.js';

/**
 * Issue 23 item 7: a many-card order is placed with one round trip per kind of row (bulk inserts for
 * its items and its mail jobs), never a query per line.
 */
let app: TestApp;
let shop: Shop;
const payments = new TestPaymentProvider();

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 }, { paymentProviders: [payments] });
  shop = await seedShop(app, await app.login());
  // Stop the queue so that its work is not counted with the checkout's.
  await app.services.deliveries.stop();
});
afterAll(async () => {
  await app?.stop();
});

const cards = (n: number) => Array.from({ length: n }, (_, k) => ({ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: `Friend ${k}`, recipientEmail: `friend${k}-${n}@example.com` }) }));

describe('placing an order of many cards', () => {
  it('takes the same number of queries for 1, 25 and 50 cards, and writes every item and e-mail', async () => {
    const runs: string[][] = [];
    for (const n of [1, 1, 25, 50]) {
      let orderId = '';
      const queries = await recordQueries(app, async () => {
        const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `many${n}@example.com`, lines: cards(n) }));
        orderId = body.data.placeOrder.id;
      });
      // (Less the storefront gate's read of the under-construction switch, which a request may find cached.)
      runs.push(queries.filter((q) => !/from "setting"/.test(q)));
      expect(await app.sql(`select count(*)::int as n from order_item where order_id = $1`, [orderId])).toEqual([{ n }]);
      expect(await app.sql(`select kind, count(*)::int as n from mail_job where subject = 'order:' || $1 group by kind order by kind`, [orderId])).toEqual([{ kind: 'card', n }, { kind: 'receipt', n: 1 }]);
      // The admin's search finds the order by its product's name, kept once however many cards.
      expect(await app.sql(`select item_names from "order" where id = $1`, [orderId])).toEqual([{ item_names: 'balloon birthday' }]);
    }
    // The first sale of the card's files keeps them; the next finds them kept (committed), and from
    // then on the process knows it and sends no statement for them.
    const keeps = runs.map((queries) => queries.filter((q) => /insert into sold_media/.test(q)).length);
    expect(keeps).toEqual([1, 1, 0, 0]);
    expect(await app.sql(`select count(*)::int as n from sold_media`)).toEqual([{ n: 6 }]);
    // Then the products with their card designs, the recipients' consent, the order with its items in
    // one INSERT (which the key's unique index lets through once), and one statement that marks it paid
    // and queues its e-mails: no transaction. Then the answer's items and their product. The first two orders took the locked
    // way (a transaction with the key's lock), which records the files with the order.
    const counts = runs.map((queries) => queries.length);
    const begins = runs.map((queries) => queries.filter((q) => /^begin/i.test(q.trim())).length);
    expect(begins).toEqual([1, 1, 0, 0]);
    expect(counts[2]).toBeLessThanOrEqual(6);
    expect(counts[3]).toBe(counts[2]);
  });

  it('makes one order and one charge out of 20 concurrent submissions with one key without a transaction, and refuses the key for another order', async () => {
    // The card's files are known kept by now (the first test): checkout takes the way without a lock.
    const input = orderInput(shop, { purchaserEmail: 'twenty@example.com', lines: cards(3) });
    const charges = payments.chargeCount;
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrder(app, input)));
    expect(results.map((r) => r.body.errors)).toEqual(Array(20).fill(undefined));
    expect(new Set(results.map((r) => r.body.data.placeOrder.id)).size).toBe(1);
    const orderId = results[0]!.body.data.placeOrder.id;
    expect(await app.sql('select status from "order" where idempotency_key = $1', [input.idempotencyKey])).toEqual([{ status: 'paid' }]);
    expect(await app.sql('select count(*)::int as n from order_item where order_id = $1', [orderId])).toEqual([{ n: 3 }]);
    expect(await app.sql(`select kind, count(*)::int as n from mail_job where subject = 'order:' || $1 group by kind order by kind`, [orderId])).toEqual([{ kind: 'card', n: 3 }, { kind: 'receipt', n: 1 }]);
    expect(payments.chargeCount).toBe(charges + 1);
    const other = await placeOrder(app, { ...input, lines: cards(2) });
    expect(other.body.errors?.[0]?.extensions).toMatchObject({ code: 'CONFLICT', field: 'idempotencyKey' });
  });

  it('answers a retry with the order placed, also when the cart would be refused now', async () => {
    const lines = cards(2);
    const input = orderInput(shop, { purchaserEmail: 'retry@example.com', lines });
    const first = await placeOrder(app, input);
    const refused = lines[0]!.personalisation.recipientEmail;
    const remove = app.services.checkout.registerRecipientCheck(async (_tx, recipients) => {
      const found = recipients.find((r) => r.email === refused);
      if (found) throw badInput(`${found.email} does not accept cards from this shop.`, found.field);
    });
    try {
      const again = await placeOrder(app, input);
      expect(again.body.errors).toBeUndefined();
      expect(again.body.data.placeOrder).toMatchObject({ id: first.body.data.placeOrder.id, status: 'PAID' });
      // A new key for the same cart is refused on the recipient's field.
      const other = await placeOrder(app, { ...input, idempotencyKey: crypto.randomUUID() });
      expect(other.body.errors?.[0]).toMatchObject({ message: `${refused} does not accept cards from this shop.`, extensions: { code: 'BAD_USER_INPUT', field: 'lines.0.personalisation.recipientEmail' } });
    } finally {
      remove();
    }
    expect(await app.sql(`select count(*)::int as n from "order" where purchaser_email = 'retry@example.com'`)).toEqual([{ n: 1 }]);
  });

  it('lets a declined checkout be retried under the same key, and writes nothing of it', async () => {
    const input = orderInput(shop, { purchaserEmail: 'declined@example.com', lines: cards(2), payment: PAY_DECLINED });
    expect((await placeOrder(app, input)).body.errors?.[0]?.extensions?.code).toBe('PAYMENT_DECLINED');
    expect(await app.sql('select count(*)::int as n from "order" where idempotency_key = $1', [input.idempotencyKey])).toEqual([{ n: 0 }]);
    const { body } = await placeOrder(app, { ...input, payment: PAY_OK });
    expect(body.data.placeOrder.status).toBe('PAID');
    expect(await app.sql(`select count(*)::int as n from mail_job where subject = 'order:' || $1`, [body.data.placeOrder.id])).toEqual([{ n: 3 }]);
  });

  it('answers the order of a key taken by a checkout without the lock while a locked checkout of it was under way, and keeps nothing of the locked one', async () => {
    // A discount code takes the locked way; the same order with another key is written first, and then
    // copied under this key at the moment the locked checkout checks its recipients (after its look-up).
    const admin = await app.login();
    const code = `RACE${Date.now()}`;
    await app.graphql(`mutation($input: DiscountCodeInput!) { createDiscountCode(input: $input) { id } }`, { input: { code, amountOff: '1.00', maxUses: 10 } }, admin);
    const input = orderInput(shop, { purchaserEmail: 'race@example.com', lines: cards(2), discountCode: code });
    const first = await placeOrder(app, input);
    const firstId = first.body.data.placeOrder.id;
    const key = crypto.randomUUID();
    let copied = '';
    const remove = app.services.checkout.registerRecipientCheck(async () => {
      if (copied) return;
      copied = crypto.randomUUID();
      const columns = (await app.sql<{ c: string }>(`select string_agg(quote_ident(column_name), ', ') as c from information_schema.columns where table_name = 'order' and is_generated = 'NEVER' and column_name not in ('id', 'idempotency_key')`))[0]!.c;
      await app.sql(`insert into "order" (id, idempotency_key, ${columns}) select $1::uuid, $2, ${columns} from "order" where id = $3`, [copied, key, firstId]);
    });
    try {
      const uses = await app.sql(`select uses from discount_code where code = $1`, [code]);
      const { body } = await placeOrder(app, { ...input, idempotencyKey: key });
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      expect(body.data.placeOrder.id).toBe(copied);
      expect(await app.sql(`select count(*)::int as n from "order" where idempotency_key = $1`, [key])).toEqual([{ n: 1 }]);
      expect(await app.sql(`select count(*)::int as n from order_item where order_id = $1`, [copied])).toEqual([{ n: 0 }]);
      expect(await app.sql(`select uses from discount_code where code = $1`, [code])).toEqual(uses);
    } finally {
      remove();
    }
  });

  it('runs its statements prepared, once per connection, and keeps placing orders when a newer version adds a column to the orders', async () => {
    await placeOrder(app, orderInput(shop, { purchaserEmail: 'before@example.com', lines: cards(2) }));
    // A newer process migrates the database while this one runs (its prepared statements name their columns).
    await app.sql(`alter table "order" add column later_feature text`);
    try {
      for (const n of [3, 4]) {
        const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `after${n}@example.com`, lines: cards(n) }));
        expect(body.errors).toBeUndefined();
        expect(body.data.placeOrder.status).toBe('PAID');
        expect(await app.sql(`select count(*)::int as n from order_item where order_id = $1`, [body.data.placeOrder.id])).toEqual([{ n }]);
      }
      // The same key again answers the order it placed (read by the prepared look-up).
      const input = orderInput(shop, { purchaserEmail: 'again@example.com', lines: cards(2) });
      const first = await placeOrder(app, input);
      const again = await placeOrder(app, input);
      expect(again.body.data.placeOrder.id).toBe(first.body.data.placeOrder.id);
    } finally {
      await app.sql(`alter table "order" drop column later_feature`);
    }
  });
});
