import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let shop: Shop;
let ada: string;
let bob: string;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600, publicUrl: 'https://cards.example' }, { clock: clock.now });
  shop = await seedShop(app, await app.login());
  ada = await app.customer('ada_account');
  bob = await app.customer('bob_account');
});
afterAll(async () => {
  await app?.stop();
});

const MY_ORDERS = `query($first: Int, $after: String) { myOrders(first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor }
  edges { node { id purchaserEmail createdAt items { id name recipientName recipientEmail message deliverAt deliveredAt openedAt remindedAt replies { id name message createdAt } } } }
} }`;
const CHANGE_DATE = `mutation($itemId: Int!, $day: String!) { changeCardDate(itemId: $itemId, deliveryDate: $day) { id deliverAt } }`;
const RESEND = `mutation($itemId: Int!) { resendMyCard(itemId: $itemId) { id deliveredAt } }`;

const cardLine = (overrides: Record<string, unknown> = {}) => ({ productId: shop.cardId, quantity: 1, personalisation: personalisation(overrides) });
const emailsTo = (address: string) => [...outbox(app).entries()].filter(([, eml]) => eml.includes(`To: ${address}`));

async function order(token: string | undefined, lines: unknown[], email = 'ada@example.com') {
  const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: email, lines }), token);
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.placeOrder as { id: string; items: { id: number; itemUrlUuid: string }[] };
}

describe('My orders', () => {
  it('lists only the caller\'s own orders, newest first, with cursor paging', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const first = await order(ada, [cardLine({ recipientEmail: 'one@example.com' })]);
    clock.set('2026-12-01T11:00:00Z');
    const second = await order(ada, [cardLine({ recipientEmail: 'two@example.com' })]);
    const bobs = await order(bob, [cardLine({ recipientEmail: 'bobs@example.com' })], 'bob@example.com');
    await order(undefined, [cardLine({ recipientEmail: 'anon@example.com' })], 'ada@example.com');

    const mine = await app.graphql(MY_ORDERS, { first: 1 }, ada);
    expect(mine.body.errors).toBeUndefined();
    const page1 = mine.body.data.myOrders;
    expect(page1.totalCount).toBe(2);
    expect(page1.edges.map((e: any) => e.node.id)).toEqual([second.id]);
    // The owner sees the whole order: addresses and messages.
    expect(page1.edges[0].node.items[0]).toMatchObject({ recipientEmail: 'two@example.com', message: 'Happy birthday, Grace!\nWith love.', replies: [] });
    const page2 = (await app.graphql(MY_ORDERS, { first: 1, after: page1.pageInfo.endCursor }, ada)).body.data.myOrders;
    expect(page2.edges.map((e: any) => e.node.id)).toEqual([first.id]);
    expect(page2.pageInfo.hasNextPage).toBe(false);

    const bobsView = (await app.graphql(MY_ORDERS, {}, bob)).body.data.myOrders;
    expect(bobsView.edges.map((e: any) => e.node.id)).toEqual([bobs.id]);
    expect(JSON.stringify(bobsView)).not.toContain(first.id);
  });

  it('is for signed-in users only', async () => {
    const { body } = await app.graphql(MY_ORDERS, {});
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await app.graphql(MY_ORDERS, { after: 'not-a-cursor' }, ada)).body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('Change date', () => {
  it('moves a scheduled card to another allowed day (09:00 there unless an hour is chosen); its e-mail goes out once, then', async () => {
    clock.set('2026-12-02T09:00:00Z');
    const placed = await order(ada, [cardLine({ recipientEmail: 'moved@example.com', deliveryDate: '2026-12-05', timeZone: 'Europe/Paris' })]);
    const itemId = placed.items[0]!.id;
    await app.services.deliveries.runDue();

    // Never into the past, never beyond a year, never a day that is not one.
    for (const day of ['2026-12-01', '2028-01-01', '2026-13-01', 'tomorrow']) {
      const { body } = await app.graphql(CHANGE_DATE, { itemId, day }, ada);
      expect(body.errors?.[0]?.extensions, day).toMatchObject({ code: 'BAD_USER_INPUT', field: 'deliveryDate' });
    }
    // Another user's card does not exist for them.
    expect((await app.graphql(CHANGE_DATE, { itemId, day: '2026-12-08' }, bob)).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    const { body } = await app.graphql(CHANGE_DATE, { itemId, day: '2026-12-08' }, ada);
    expect(body.errors).toBeUndefined();
    // 09:00 in Paris is 08:00 UTC.
    expect(body.data.changeCardDate.deliverAt).toBe('2026-12-08T08:00:00.000Z');
    expect(await app.sql(`select due_at from mail_job where ref = 'card:' || $1 and kind = 'card'`, [itemId])).toEqual([{ due_at: new Date('2026-12-08T08:00:00Z') }]);

    clock.set('2026-12-05T12:00:00Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('moved@example.com')).toHaveLength(0);
    clock.set('2026-12-08T08:00:00Z');
    await Promise.all([app.services.deliveries.runDue(), app.services.deliveries.runDue()]);
    await app.services.deliveries.runDue();
    expect(emailsTo('moved@example.com')).toHaveLength(1);

    // Once sent, the date is history.
    const late = await app.graphql(CHANGE_DATE, { itemId, day: '2026-12-20' }, ada);
    expect(late.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });

  it('can bring a card forward to today, which sends it now', async () => {
    clock.set('2026-12-10T09:00:00Z');
    const placed = await order(ada, [cardLine({ recipientEmail: 'sooner@example.com', deliveryDate: '2026-12-20' })]);
    const { body } = await app.graphql(CHANGE_DATE, { itemId: placed.items[0]!.id, day: '2026-12-10' }, ada);
    expect(body.data.changeCardDate.deliverAt).toBe('2026-12-10T09:00:00.000Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('sooner@example.com')).toHaveLength(1);
  });
});

describe('Resend', () => {
  it('sends a sent card again, only for its owner and at most three times', async () => {
    clock.set('2026-12-11T09:00:00Z');
    const placed = await order(ada, [cardLine({ recipientEmail: 'again@example.com', deliveryDate: '2026-12-12' })]);
    const itemId = placed.items[0]!.id;
    expect((await app.graphql(RESEND, { itemId }, ada)).body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    clock.set('2026-12-12T09:00:00Z');
    await app.services.deliveries.runDue();
    expect(emailsTo('again@example.com')).toHaveLength(1);

    expect((await app.graphql(RESEND, { itemId }, bob)).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await app.graphql(RESEND, { itemId })).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    for (let i = 0; i < 3; i += 1) {
      const { body } = await app.graphql(RESEND, { itemId }, ada);
      expect(body.errors).toBeUndefined();
      await app.services.deliveries.runDue();
    }
    expect(emailsTo('again@example.com')).toHaveLength(4);
    expect((await app.graphql(RESEND, { itemId }, ada)).body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });
});

describe('resends', () => {
  it("counts the purchaser's own resends only: an admin's take none of the three, and resendsLeft says what is left", async () => {
    clock.set('2026-12-13T09:00:00Z');
    const admin = await app.login();
    const placed = await order(ada, [cardLine({ recipientEmail: 'admin-too@example.com' })]);
    const itemId = placed.items[0]!.id;
    await app.services.deliveries.runDue();
    const left = async () => {
      const { body } = await app.graphql(`query { myOrders(first: 50) { edges { node { items { id resendsLeft } } } } }`, {}, ada);
      return body.data.myOrders.edges.flatMap((e: { node: { items: { id: number; resendsLeft: number | null }[] } }) => e.node.items).find((i: { id: number }) => i.id === itemId).resendsLeft;
    };
    const adminResend = async () => {
      const { body } = await app.graphql(`mutation($itemId: Int!) { resendCardEmail(itemId: $itemId) { id } }`, { itemId }, admin);
      expect(body.errors).toBeUndefined();
      await app.services.deliveries.runDue();
    };
    expect(await left()).toBe(3);
    await adminResend();
    await adminResend();
    expect(await left()).toBe(3);
    for (const expected of [2, 1, 0]) {
      const { body } = await app.graphql(`mutation($itemId: Int!) { resendMyCard(itemId: $itemId) { id resendsLeft } }`, { itemId }, ada);
      expect(body.data.resendMyCard.resendsLeft).toBe(expected);
      await app.services.deliveries.runDue();
    }
    expect((await app.graphql(RESEND, { itemId }, ada)).body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    // The admin still can, as often as needed.
    await adminResend();
    expect(emailsTo('admin-too@example.com')).toHaveLength(1 + 2 + 3 + 1);
    expect(await left()).toBe(0);
    // The confirmation page's anonymous view says nothing of it.
    const anonymous = await app.graphql(`query($id: ID!) { order(id: $id) { items { resendsLeft } } }`, { id: placed.id });
    expect(anonymous.body.data.order.items[0].resendsLeft).toBeNull();
  });
});

describe('Thank-you replies on My orders', () => {
  it('shows a card\'s replies to its owner only', async () => {
    clock.set('2026-12-14T09:00:00Z');
    const placed = await order(ada, [cardLine({ recipientEmail: 'thanks@example.com' })]);
    const uuid = placed.items[0]!.itemUrlUuid;
    await app.services.deliveries.runDue();
    const res = await app.request(`/api/ecards/${uuid}/replies`, { method: 'POST', json: { name: 'Grace', message: 'Thank you!\nIt made my day.' } });
    expect(res.status).toBe(201);
    const mine = (await app.graphql(MY_ORDERS, { first: 1 }, ada)).body.data.myOrders.edges[0].node;
    expect(mine.id).toBe(placed.id);
    expect(mine.items[0].replies).toEqual([expect.objectContaining({ name: 'Grace', message: 'Thank you!\nIt made my day.', createdAt: '2026-12-14T09:00:00.000Z' })]);
    // Someone with only the order number sees the confirmation page, not the replies.
    const { body } = await app.graphql(`query($id: ID!) { order(id: $id) { items { replies { id } remindedAt } } }`, { id: placed.id });
    expect(body.data.order.items[0].replies).toEqual([]);
  });
});
