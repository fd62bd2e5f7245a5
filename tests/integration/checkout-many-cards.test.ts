import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 23 item 7: a many-card order is placed with one round trip per kind of row (bulk inserts for
 * its items and its mail jobs), never a query per line.
 */
let app: TestApp;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 });
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
      expect(await app.sql(`select kind, count(*)::int as n from mail_job where order_id = $1 group by kind order by kind`, [orderId])).toEqual([{ kind: 'card', n }, { kind: 'receipt', n: 1 }]);
      // The admin's search finds the order by its product's name, kept once however many cards.
      expect(await app.sql(`select item_names from "order" where id = $1`, [orderId])).toEqual([{ item_names: 'balloon birthday' }]);
    }
    // The first sale of the card's files keeps them; the next finds them kept (committed), and from
    // then on the process knows it and sends no statement for them.
    const keeps = runs.map((queries) => queries.filter((q) => /insert into sold_media/.test(q)).length);
    expect(keeps).toEqual([1, 1, 0, 0]);
    expect(await app.sql(`select count(*)::int as n from sold_media`)).toEqual([{ n: 6 }]);
    // One transaction: the key's lock and look-up, the products with their card designs, the
    // recipients' consent, the order with its items. Then one statement marks the order paid and
    // queues its e-mails. Then the answer's items and their product.
    const counts = runs.map((queries) => queries.length);
    expect(counts[2]).toBeLessThanOrEqual(10);
    expect(counts).toEqual([counts[2]! + 1, counts[2]! + 1, counts[2], counts[2]]);
    expect(runs.map((queries) => queries.filter((q) => /^begin/i.test(q.trim())).length)).toEqual([1, 1, 1, 1]);
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
