import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../server/src/core/errors.js';
import { manualClock, orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let shop: Shop;
let ada: string;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600, publicUrl: 'https://cards.example' }, { clock: clock.now });
  shop = await seedShop(app, await app.login());
  ada = await app.customer('ada_many');
});
afterAll(async () => {
  await app?.stop();
});

const QUOTE = `query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { total itemCount lines { index quantity unitPrice lineTotal } } }`;
const MY_ORDERS = `{ myOrders { edges { node { id items { id recipientName recipientEmail message deliverAt deliveredAt openedAt itemUrlUuid replies { name } } } } } }`;
const CHANGE_DATE = `mutation($itemId: Int!, $day: String, $time: String) { changeCardDate(itemId: $itemId, deliveryDate: $day, deliveryTime: $time) { id deliverAt } }`;

const three = [
  { name: 'Grace Hopper', email: 'grace@example.com' },
  { name: 'Linus', email: 'linus@example.com' },
  { name: 'Margaret', email: 'margaret@example.com' },
];
const manyLine = (recipients: unknown, overrides: Record<string, unknown> = {}, quantity?: number) => ({
  productId: shop.cardId,
  quantity: quantity ?? (Array.isArray(recipients) ? recipients.length : 1),
  personalisation: { senderName: 'Ada', message: 'Dear {name},\nhappy holidays!', recipients, ...overrides },
});
const emailsTo = (address: string) => [...outbox(app).entries()].filter(([, eml]) => eml.includes(`To: ${address}`));

/** The storefront gate's read of the under-construction switch (see tests/helpers/queries.ts). */
const isGateRead = (q: string) => /from "setting"/.test(q) && q.includes('underConstructionMode');

interface Write {
  tbl: string;
  op: string;
  /** The transaction that wrote it. */
  tx: string;
  /** Rows written. */
  n: number;
  order_ids: string[];
}

/**
 * Records each statement that writes an order, its items or its e-mails: the table, the operation,
 * the transaction (txid_current) and how many rows, by order. Read, then dropped by the caller.
 */
async function watchWrites(): Promise<{ read(): Promise<Write[]>; drop(): Promise<void> }> {
  await app.sql(`create table test_order_write (seq serial primary key, tbl text not null, op text not null, tx text not null, n int not null, order_ids text[] not null)`);
  await app.sql(`
    create function test_order_write() returns trigger language plpgsql as $$
    begin
      if TG_TABLE_NAME = 'order' then
        insert into test_order_write (tbl, op, tx, n, order_ids) select TG_TABLE_NAME, TG_OP, txid_current()::text, count(*), coalesce(array_agg(distinct id::text), '{}') from n;
      elsif TG_TABLE_NAME = 'mail_job' then
        insert into test_order_write (tbl, op, tx, n, order_ids) select TG_TABLE_NAME, TG_OP, txid_current()::text, count(*), coalesce(array_agg(distinct substr(subject, 7)) filter (where subject like 'order:%'), '{}') from n;
      else
        insert into test_order_write (tbl, op, tx, n, order_ids) select TG_TABLE_NAME, TG_OP, txid_current()::text, count(*), coalesce(array_agg(distinct order_id::text), '{}') from n;
      end if;
      return null;
    end $$`);
  for (const [table, op] of [['"order"', 'insert'], ['"order"', 'update'], ['order_item', 'insert'], ['mail_job', 'insert']] as const) {
    await app.sql(`create trigger test_order_write_${op} after ${op} on ${table} referencing new table as n for each statement execute function test_order_write()`);
  }
  return {
    read: () => app.sql<Write>(`select tbl, op, tx, n, order_ids from test_order_write where n > 0 order by seq`),
    async drop() {
      for (const table of ['"order"', 'order_item', 'mail_job']) {
        for (const op of ['insert', 'update']) await app.sql(`drop trigger if exists test_order_write_${op} on ${table}`);
      }
      await app.sql(`drop function if exists test_order_write()`);
      await app.sql(`drop table if exists test_order_write`);
    },
  };
}

describe('one card to many recipients', () => {
  it('prices a card line per recipient', async () => {
    const { body } = await app.graphql(QUOTE, { lines: [{ productId: shop.cardId, quantity: 3 }, { productId: shop.albumId, quantity: 1 }] });
    expect(body.data.cartQuote).toEqual({ total: '25.50', itemCount: 4, lines: [{ index: 0, quantity: 3, unitPrice: '4.50', lineTotal: '13.50' }, { index: 1, quantity: 1, unitPrice: '12.00', lineTotal: '12.00' }] });
    // A hundred recipients is one card line; a hundred albums is not.
    expect((await app.graphql(QUOTE, { lines: [{ productId: shop.cardId, quantity: 100 }] })).body.data.cartQuote.total).toBe('450.00');
    expect((await app.graphql(QUOTE, { lines: [{ productId: shop.albumId, quantity: 100 }] })).body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lines.0.quantity' });
  });

  it('makes one order item, one card page and one e-mail per recipient, each with their own name', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'ada_many@example.com', lines: [manyLine(three)] }), ada);
    expect(body.errors).toBeUndefined();
    const order = body.data.placeOrder;
    expect(order.total).toBe('13.50');
    expect(order.items.map((i: any) => [i.recipientName, i.recipientEmail, i.message, i.quantity, i.price])).toEqual([
      ['Grace Hopper', 'grace@example.com', 'Dear Grace Hopper,\nhappy holidays!', 1, '4.50'],
      ['Linus', 'linus@example.com', 'Dear Linus,\nhappy holidays!', 1, '4.50'],
      ['Margaret', 'margaret@example.com', 'Dear Margaret,\nhappy holidays!', 1, '4.50'],
    ]);
    const uuids = order.items.map((i: any) => i.itemUrlUuid);
    expect(new Set(uuids).size).toBe(3);

    // Each recipient has their own card page with their own name in the message.
    for (const [index, item] of order.items.entries()) {
      const page = await app.request(`${item.ecardPath}?preview=1`, { token: ada });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`Dear ${three[index]!.name},`);
      for (const other of three.filter((_, i) => i !== index)) expect(html).not.toContain(`Dear ${other.name},`);
    }

    // One e-mail each, to each one, with their own link; the receipt lists every recipient.
    await app.services.deliveries.runDue();
    for (const [index, recipient] of three.entries()) {
      const mails = emailsTo(recipient.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]![1]).toContain(`Dear ${recipient.name},`);
      expect(mails[0]![1]).toContain(`https://cards.example/ecards/${uuids[index]}.html`);
    }
    const [receipt] = emailsTo('ada_many@example.com').filter(([, eml]) => eml.includes('Subject: Your Art & Song Cards order'));
    for (const recipient of three) expect(receipt![1]).toContain(`to ${recipient.name}`);

    // Each card has its own state and its own thank-yous.
    const opened = await app.request(`/api/ecards/${uuids[1]}/opened`, { method: 'POST' });
    expect(opened.status).toBe(204);
    expect((await app.request(`/api/ecards/${uuids[1]}/replies`, { method: 'POST', json: { name: 'Linus', message: 'Thanks!' } })).status).toBe(201);
    const mine = (await app.graphql(MY_ORDERS, {}, ada)).body.data.myOrders.edges[0].node;
    expect(mine.items.map((i: any) => [i.recipientName, Boolean(i.deliveredAt), Boolean(i.openedAt), i.replies.map((r: any) => r.name)])).toEqual([
      ['Grace Hopper', true, false, []],
      ['Linus', true, true, ['Linus']],
      ['Margaret', true, false, []],
    ]);
  });

  it('takes the single-recipient form as before, with {name} filled', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ message: 'Hello {name}!' }) }] }));
    expect(body.data.placeOrder.items[0]).toMatchObject({ recipientName: 'Grace Hopper', message: 'Hello Grace Hopper!' });
  });

  it('says which recipient is wrong and places nothing', async () => {
    const before = await app.sql('select count(*)::int as n from order_item');
    const hundredAndOne = Array.from({ length: 101 }, (_, i) => ({ name: `R${i}`, email: `r${i}@example.com` }));
    const cases: [unknown, string][] = [
      [manyLine([{ name: 'A', email: 'a@example.com' }, { name: 'B', email: 'nope' }]), 'lines.0.personalisation.recipients.1.email'],
      [manyLine([{ name: '', email: 'a@example.com' }]), 'lines.0.personalisation.recipients.0.name'],
      [manyLine([{ name: 'A', email: 'a@example.com' }, { name: 'A again', email: 'A@example.com' }]), 'lines.0.personalisation.recipients.1.email'],
      [manyLine([], {}, 1), 'lines.0.personalisation.recipients'],
      [manyLine(hundredAndOne, {}, 1), 'lines.0.personalisation.recipients'],
      [manyLine(three, {}, 2), 'lines.0.quantity'],
      [manyLine(three, { deliveryDate: '2026-12-05', deliveryTime: '25:00' }), 'lines.0.personalisation.deliveryTime'],
    ];
    for (const [line, field] of cases) {
      const { body } = await placeOrder(app, orderInput(shop, { lines: [line] }));
      expect(body.errors?.[0]?.extensions, field).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    const duplicate = await placeOrder(app, orderInput(shop, { lines: [manyLine([{ name: 'A', email: 'a@example.com' }, { name: 'A again', email: 'A@example.com' }])] }));
    expect(duplicate.body.errors?.[0]?.message).toBe('a@example.com is already a recipient of this card.');
    expect(await app.sql('select count(*)::int as n from order_item')).toEqual(before);
  });

  it('runs every recipient through the registered checks, refusing one by its address', async () => {
    const remove = app.services.checkout.registerRecipientCheck(async (_tx, recipients) => {
      const refused = recipients.find((r) => r.email === 'no-thanks@example.com');
      if (refused) throw badInput(`${refused.email} does not accept cards from this shop.`, refused.field);
    });
    try {
      const { body } = await placeOrder(app, orderInput(shop, { lines: [manyLine([...three, { name: 'Nope', email: 'no-thanks@example.com' }])] }));
      expect(body.errors?.[0]).toMatchObject({ message: 'no-thanks@example.com does not accept cards from this shop.', extensions: { code: 'BAD_USER_INPUT', field: 'lines.0.personalisation.recipients.3.email' } });
      const single = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'no-thanks@example.com' }) }] }));
      expect(single.body.errors?.[0]?.extensions).toMatchObject({ field: 'lines.0.personalisation.recipientEmail' });
    } finally {
      remove();
    }
  });

  it('places 100 recipients in one transaction with one insert per table, and queues their e-mails with the payment in one statement', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => ({ name: `Friend ${i}`, email: `friend${i}@example.com` }));
    const lines = (recipients: typeof hundred) => [manyLine(recipients), { productId: shop.albumId, quantity: 1 }];
    // A cart whose card files the process does not know to be kept yet takes the locked way (a
    // transaction that records them). Two orders make them known (the first records them, the second
    // finds them kept), so that the order below takes the common way whatever ran before it.
    for (let i = 0; i < 2; i++) expect((await placeOrder(app, orderInput(shop, { lines: lines(hundred.slice(0, 1)) }))).body.errors).toBeUndefined();
    const writes = await watchWrites();
    // The app's own worker would claim the new e-mails meanwhile: stopped, so that only the checkout's statements are recorded.
    await app.services.deliveries.stop();
    let result: any;
    let queries: string[];
    try {
      queries = await recordQueries(app, async () => {
        result = await placeOrder(app, orderInput(shop, { lines: lines(hundred) }));
      });
    } finally {
      app.services.deliveries.start(app.orm, app.config.deliveryPollSeconds);
    }
    let written: Write[];
    try {
      written = await writes.read();
    } finally {
      await writes.drop();
    }
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.placeOrder.items).toHaveLength(101);
    expect(result.body.data.placeOrder.total).toBe('462.00');

    // The database's own account, per statement, of what it wrote for this order and in which
    // transaction: the order and its 101 items in one (one insert per table); then, once paid, the
    // order's status and its 101 e-mails (a card to each recipient, and the receipt) in another.
    const id = result.body.data.placeOrder.id;
    const mine = written.filter((w) => w.order_ids.includes(id)).map(({ tbl, op, tx, n }) => ({ tbl, op, tx, n }));
    const [placed, paid] = [mine[0]!.tx, mine.at(-1)!.tx];
    expect(mine).toEqual([
      { tbl: 'order', op: 'INSERT', tx: placed, n: 1 },
      { tbl: 'order_item', op: 'INSERT', tx: placed, n: 101 },
      { tbl: 'order', op: 'UPDATE', tx: paid, n: 1 },
      { tbl: 'mail_job', op: 'INSERT', tx: paid, n: 101 },
    ]);
    expect(paid).not.toBe(placed);

    // The statements, none of them per recipient: the products and the unsubscribed addresses (to
    // check the cart), the order with its items, the payment (the order paid, its e-mails queued),
    // then the items and the products the answer shows. The storefront gate's read of its switch
    // comes or not, as the process last read it; it is left out.
    expect(queries.filter((q) => !isGateRead(q))).toHaveLength(6);
  });
});

describe('a time of day', () => {
  it("sends a later day's card at the chosen hour (09:00 unless chosen) in the shopper's zone, and today at a later hour", async () => {
    clock.set('2026-12-01T10:00:00Z');
    const place = async (overrides: Record<string, unknown>) => {
      const { body } = await placeOrder(app, orderInput(shop, { lines: [manyLine([three[0]], overrides)] }));
      if (!body.data) throw new Error(JSON.stringify(body.errors));
      return body.data.placeOrder.items[0].deliverAt as string;
    };
    expect(await place({ deliveryDate: '2026-12-24', timeZone: 'America/New_York' })).toBe('2026-12-24T14:00:00.000Z');
    expect(await place({ deliveryDate: '2026-12-24', deliveryTime: '18:30', timeZone: 'Europe/Paris' })).toBe('2026-12-24T17:30:00.000Z');
    // Today (it is 11:00 in Paris): a later hour is that hour; an hour gone, or no hour, is now.
    expect(await place({ deliveryDate: '2026-12-01', deliveryTime: '15:00', timeZone: 'Europe/Paris' })).toBe('2026-12-01T14:00:00.000Z');
    expect(await place({ deliveryDate: '2026-12-01', deliveryTime: '08:00', timeZone: 'Europe/Paris' })).toBe('2026-12-01T10:00:00.000Z');
    expect(await place({ deliveryDate: '2026-12-01', timeZone: 'Europe/Paris' })).toBe('2026-12-01T10:00:00.000Z');
  });

  it('delivers within a minute of the chosen time, and "Change date" can choose an hour or now', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'ada_many@example.com', lines: [manyLine([{ name: 'Evening', email: 'evening@example.com' }, { name: 'Soon', email: 'soon@example.com' }], { deliveryDate: '2026-12-03', deliveryTime: '19:00', timeZone: 'Europe/Paris' })] }), ada);
    const [evening, soon] = body.data.placeOrder.items;
    expect(evening.deliverAt).toBe('2026-12-03T18:00:00.000Z');

    const moved = await app.graphql(CHANGE_DATE, { itemId: evening.id, day: '2026-12-02', time: '07:00' }, ada);
    expect(moved.body.data.changeCardDate.deliverAt).toBe('2026-12-02T06:00:00.000Z');
    expect((await app.graphql(CHANGE_DATE, { itemId: evening.id, day: '2026-12-02', time: '7 pm' }, ada)).body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'deliveryTime' });
    const now = await app.graphql(CHANGE_DATE, { itemId: soon.id, day: null }, ada);
    expect(now.body.data.changeCardDate.deliverAt).toBe('2026-12-01T10:00:00.000Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('soon@example.com')).toHaveLength(1);

    clock.set('2026-12-02T05:59:59Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('evening@example.com')).toHaveLength(0);
    clock.set('2026-12-02T06:00:30Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('evening@example.com')).toHaveLength(1);
  });

  it("keeps a signed-in shopper's time zone on their account", async () => {
    await placeOrder(app, orderInput(shop, { lines: [manyLine([three[0]], { timeZone: 'Asia/Tokyo' })] }), ada);
    expect(await app.sql(`select time_zone from app_user where username = 'ada_many'`)).toEqual([{ time_zone: 'Asia/Tokyo' }]);
  });
});
