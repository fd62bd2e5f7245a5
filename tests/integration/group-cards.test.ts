import crypto from 'node:crypto';
import { parseRef } from '../../server/src/modules/mail/mail-queue.js';
import { DEFAULT_SHOP_IDENTITY } from '../../server/src/modules/mail/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAddress, placeGroupCard, sign, type PlacedGroupCard } from '../helpers/group-card-fixtures.js';
import { mailHeader } from '../helpers/account-mail.js';
import { manualClock, orderInput, outbox, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { recordQueries, selects } from '../helpers/queries.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Group cards (issue 28, contract section 14): the whole flow with the shop's clock in the test's
 * hand: checkout, signing, changing and removing one's own signature, the deadline, the 100th and
 * 101st signature, a refund closing signing, the purchaser's view, and the delivered card.
 */
let app: TestApp;
let admin: string;
let shop: Shop;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  // TRUST_PROXY=1: each test signer comes from an address of its own (X-Forwarded-For), as people do.
  app = await startTestApp({ trustProxy: 1, publicUrl: 'https://cards.example', deliveryPollSeconds: 3600 }, { clock: clock.now });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const view = async (token: string) => (await app.request(`/api/sign/${token}`)).json();
const signatureRows = (token: string) => app.sql<{ id: number; name: string; message: string }>('select s.id, s.name, s.message from group_card_signature s join group_card g on g.id = s.group_card_id where g.signing_token = $1 order by s.id', [token]);
const put = (token: string, id: number, editToken: string | undefined, json: unknown, headers: Record<string, string> = {}) =>
  app.request(`/api/sign/${token}/signatures/${id}`, { method: 'PUT', json, headers: { ...(editToken === undefined ? {} : { 'x-edit-token': editToken }), ...headers } });
const del = (token: string, id: number, editToken: string | undefined) => app.request(`/api/sign/${token}/signatures/${id}`, { method: 'DELETE', headers: editToken === undefined ? {} : { 'x-edit-token': editToken } });

let n = 0;
/** A signature from an address of its own; returns the answer's body. */
async function signAs(card: PlacedGroupCard, name: string, message: string, headers: Record<string, string> = {}) {
  const res = await sign(app, card.token, { name, message }, { ...fromAddress(++n), ...headers });
  return { status: res.status, body: await res.json() };
}

describe('making a card a group card at checkout', () => {
  it('gives the item a signing token, unguessable and unrelated to the card\'s own address', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z' });
    expect(card.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(card.token).not.toContain(card.uuid);
    expect(card.uuid.replace(/-/g, '')).not.toContain(card.token.slice(0, 8));
    const [row] = await app.sql<{ collect_until: Date }>('select collect_until from group_card where item_id = $1', [card.itemId]);
    expect(row!.collect_until.toISOString()).toBe('2026-12-09T18:00:00.000Z');
    // The signing answer names neither the card's address nor its order.
    const text = await (await app.request(`/api/sign/${card.token}`)).text();
    expect(text).not.toContain(card.uuid);
    expect(text).not.toContain(card.orderId);
    const page = await (await app.request(`/sign/${card.token}`)).text();
    expect(page).not.toContain(card.uuid);
    expect(page).not.toContain(card.orderId);
    // An ordinary card has none.
    const { body } = await placeOrder(app, orderInput(shop));
    const plain = await app.graphql(`query($id: ID!) { order(id: $id) { items { signingToken groupCard { signingToken } } } }`, { id: body.data.placeOrder.id });
    expect(plain.body.data.order.items.map((item: { signingToken: string | null }) => item.signingToken)).toEqual([null, null]);
  });

  it("suggests a sample message that suits the card's category, and fills {firstName} with the recipient's first name", async () => {
    clock.set('2026-12-01T10:00:00Z');
    const birthday = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', recipientName: 'Frank Ocean', message: 'Merry Christmas {firstName}! Love from {name}\'s team.' });
    const placeholder = async (token: string) => (await (await app.request(`/sign/${token}`)).text()).match(/<textarea name="message"[^>]*placeholder="([^"]*)"/)?.[1];
    expect(await placeholder(birthday.token)).toBe('Happy birthday! It has been a joy to work with you.');
    const [item] = await app.sql<{ message: string }>('select message from order_item where id = $1', [birthday.itemId]);
    expect(item!.message).toBe("Merry Christmas Frank! Love from Frank Ocean's team.");
    // The same card filed under Christmas (a category under "Seasons"): a Christmas sample.
    const seasons = await app.sql<{ id: number }>(`insert into category (name) values ('Seasons') returning id`);
    await app.sql(`update category set name = 'Christmas', parent_id = $1 where id = (select category_id from product where id = $2)`, [seasons[0]!.id, shop.cardId]);
    expect(await placeholder(birthday.token)).toBe('Merry Christmas! Wishing you a wonderful holiday season.');
    await app.sql(`update category set name = 'Birthday', parent_id = null where id = (select category_id from product where id = $1)`, [shop.cardId]);
  });

  it.each([
    // The card goes out at 09:00 on its day (the default hour, in the shopper's zone: UTC here).
    ['a deadline after the delivery', { deliveryDate: '2026-12-10', groupCard: { collectUntil: '2026-12-10T09:00:01Z' } }, 'lines.0.personalisation.groupCard.collectUntil', /before the card is delivered/],
    ['a deadline in the past', { deliveryDate: '2026-12-10', groupCard: { collectUntil: '2026-12-01T09:00:00Z' } }, 'lines.0.personalisation.groupCard.collectUntil', /in the future/],
    ['a deadline that is no date', { deliveryDate: '2026-12-10', groupCard: { collectUntil: 'next friday' } }, 'lines.0.personalisation.groupCard.collectUntil', /ISO 8601/],
  ])('refuses %s (400 on the field, nothing written)', async (_name, extra, field, message) => {
    clock.set('2026-12-01T10:00:00Z');
    const before = await app.sql('select count(*)::int as n from group_card');
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation(extra) }] }));
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(body.errors![0]!.message).toMatch(message);
    expect(await app.sql('select count(*)::int as n from group_card')).toEqual(before);
  });

  it('takes a deadline right at the delivery; without a later day the card goes out when signing closes', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-10T00:00:00Z' });
    expect(card.token).toBeTruthy();
    const { body } = await placeOrder(app, orderInput(shop, { lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ groupCard: { collectUntil: '2026-12-04T17:00:00Z' } }) }] }));
    const item = body.data.placeOrder.items[0];
    expect(item.deliverAt).toBe('2026-12-04T17:00:00.000Z');
    expect(await app.sql(`select due_at from mail_job where ref = 'card:' || $1 and kind = 'card'`, [item.id])).toEqual([{ due_at: new Date('2026-12-04T17:00:00Z') }]);
  });
});

describe('signing by the link', () => {
  it('signs, shows the signature, changes and removes it only with its edit token (403 with another, nothing changed)', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', recipientName: 'Grace' });
    expect(await view(card.token)).toEqual({ product_name: 'Balloon Birthday', recipient_name: 'Grace', closes_at: '2026-12-09T18:00:00.000Z', status: 'open', signature_count: 0, max_signatures: 100, signatures: [] });

    const first = await signAs(card, '  Linus  ', 'Happy birthday!\r\nFrom the whole team.');
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(['edit_token', 'id']);
    expect(first.body.edit_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect((await view(card.token)).signatures).toEqual([{ id: first.body.id, name: 'Linus', message: 'Happy birthday!\nFrom the whole team.' }]);
    // The edit token is kept only as a hash.
    const stored = JSON.stringify(await app.sql('select * from group_card_signature where id = $1', [first.body.id]));
    expect(stored).not.toContain(first.body.edit_token);

    const other = await signAs(card, 'Margaret', 'Many happy returns.');
    for (const token of [other.body.edit_token, undefined, '', 'x'.repeat(43)]) {
      expect((await put(card.token, first.body.id, token, { name: 'Mallory', message: 'pwned' })).status).toBe(403);
      expect((await del(card.token, first.body.id, token)).status).toBe(403);
    }
    expect((await signatureRows(card.token)).map((row) => row.name)).toEqual(['Linus', 'Margaret']);

    const changed = await put(card.token, first.body.id, first.body.edit_token, { name: 'Linus T.', message: 'Happy birthday, Grace!' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ id: first.body.id, name: 'Linus T.', message: 'Happy birthday, Grace!' });
    expect((await put(card.token, first.body.id, first.body.edit_token, { name: 'Linus\nT.', message: 'x' })).status).toBe(400);

    expect((await del(card.token, first.body.id, first.body.edit_token)).status).toBe(204);
    expect((await view(card.token)).signatures.map((s: { name: string }) => s.name)).toEqual(['Margaret']);
    expect((await del(card.token, first.body.id, first.body.edit_token)).status).toBe(404);
    // A signature of another card is not found through this one.
    const elsewhere = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z' });
    expect((await del(elsewhere.token, other.body.id, other.body.edit_token)).status).toBe(404);
    expect((await view(card.token)).signature_count).toBe(1);
  });

  it('refuses bad input with 400 and an unknown link with 404', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z' });
    const bad = [
      [{ name: '', message: 'Hello' }, 'name'],
      [{ name: 'Line\nbreak', message: 'Hello' }, 'name'],
      [{ name: 'Bell\u0007', message: 'Hello' }, 'name'],
      [{ name: 'x'.repeat(101), message: 'Hello' }, 'name'],
      [{ name: 'Ann', message: '   ' }, 'message'],
      [{ name: 'Ann', message: 'x'.repeat(501) }, 'message'],
      [{ name: 42, message: ['a'] }, 'name'],
    ] as const;
    for (const [json, field] of bad) {
      const res = await sign(app, card.token, json, fromAddress(++n));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    expect((await sign(app, card.token, { name: 'Ann', message: 'x'.repeat(500) }, fromAddress(++n))).status).toBe(201);
    expect((await sign(app, card.token, { name: 'Ann', message: 'Hi' }, { ...fromAddress(++n), 'idempotency-key': 'short' })).status).toBe(400);
    for (const token of ['nope', 'A'.repeat(43), card.uuid]) {
      expect((await app.request(`/api/sign/${token}`)).status).toBe(404);
      expect((await sign(app, token, { name: 'Ann', message: 'Hi' })).status).toBe(404);
      expect((await app.request(`/sign/${token}`)).status).toBe(404);
    }
  });

  it('stores a double-clicked signature once: by its idempotency key, and by the same words from one address', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z' });
    const key = crypto.randomUUID();
    const twice = await Promise.all([0, 1].map(() => sign(app, card.token, { name: 'Ann', message: 'Congratulations!' }, { ...fromAddress(900), 'idempotency-key': key })));
    const answers = await Promise.all(twice.map((res) => res.json()));
    expect(twice.map((res) => res.status)).toEqual([201, 201]);
    expect(answers[0]).toEqual(answers[1]);
    // Without a key (a plain double click on a page without the script): one stored, the other refused.
    const bare = await Promise.all([0, 1].map(() => sign(app, card.token, { name: 'Bob', message: 'Well done!' }, fromAddress(901))));
    expect(bare.map((res) => res.status).sort()).toEqual([201, 409]);
    expect((await signatureRows(card.token)).map((row) => row.name)).toEqual(['Ann', 'Bob']);
    // The key names that one signature: sent with other words it is refused.
    expect((await sign(app, card.token, { name: 'Ann', message: 'Something else' }, { ...fromAddress(900), 'idempotency-key': key })).status).toBe(409);
    // Another person with the same words from another address is another signature.
    expect((await sign(app, card.token, { name: 'Bob', message: 'Well done!' }, fromAddress(902))).status).toBe(201);
  });

  it('closes at the deadline: 409 for signing, changing and removing; the page says "Signing has closed."', async () => {
    clock.set('2026-12-02T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-05T12:00:00Z' });
    const mine = await signAs(card, 'Ann', 'See you soon');
    clock.set('2026-12-05T11:59:59Z');
    expect((await put(card.token, mine.body.id, mine.body.edit_token, { name: 'Ann', message: 'See you very soon' })).status).toBe(200);
    clock.set('2026-12-05T12:00:00Z');
    const late = await signAs(card, 'Late Larry', 'Sorry I am late');
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ code: 'CONFLICT', message: 'Signing has closed.' });
    expect((await put(card.token, mine.body.id, mine.body.edit_token, { name: 'Ann', message: 'changed' })).status).toBe(409);
    expect((await del(card.token, mine.body.id, mine.body.edit_token)).status).toBe(409);
    expect(await view(card.token)).toMatchObject({ status: 'closed', signatures: [{ name: 'Ann', message: 'See you very soon' }] });
    const page = await (await app.request(`/sign/${card.token}`)).text();
    expect(page).toContain('Signing has closed.');
    expect(page).not.toMatch(/<form class="sign-form" novalidate>/);
  });

  it('takes the 100th signature and refuses the 101st (409); the signers may still change theirs', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z' });
    let first: { id: number; edit_token: string } | null = null;
    for (let i = 1; i <= 99; i += 1) {
      const signed = await signAs(card, `Signer ${i}`, `Message number ${i}`);
      expect(signed.status).toBe(201);
      first ??= signed.body;
    }
    // The last places go to whoever comes first: of three at once, one gets the 100th.
    const race = await Promise.all([100, 101, 102].map((i) => signAs(card, `Signer ${i}`, `Message number ${i}`)));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(race.find((r) => r.status === 409)!.body.message).toBe('This card has 100 signatures, as many as it can hold.');
    expect(await signatureRows(card.token)).toHaveLength(100);
    expect(await view(card.token)).toMatchObject({ status: 'full', signature_count: 100 });
    expect((await signAs(card, 'Signer 103', 'One more')).status).toBe(409);
    expect((await put(card.token, first!.id, first!.edit_token, { name: 'Signer 1', message: 'Changed my mind' })).status).toBe(200);
    expect((await del(card.token, first!.id, first!.edit_token)).status).toBe(204);
    expect((await signAs(card, 'Signer 104', 'A place came free')).status).toBe(201);
    expect(await signatureRows(card.token)).toHaveLength(100);
  });

  it('counts 20 signatures an hour per client address (429 with Retry-After), kept in PostgreSQL', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z' });
    const address = fromAddress(50_000);
    for (let i = 1; i <= 20; i += 1) expect((await sign(app, card.token, { name: `Same desk ${i}`, message: 'Hello' }, address)).status).toBe(201);
    const refused = await sign(app, card.token, { name: 'Same desk 21', message: 'Hello' }, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await app.sql(`select count(*)::int as n from rate_limit where key like 'signature%'`)).not.toEqual([{ n: 0 }]);
    expect((await sign(app, card.token, { name: 'Next desk', message: 'Hello' }, fromAddress(50_001))).status).toBe(201);
  });

  it('closes on a refund (409, withdrawn), and for a refunded card only', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z' });
    const mine = await signAs(card, 'Ann', 'Hello');
    expect((await app.request(`/api/admin/orders/${card.orderId}/refund`, { method: 'POST', token: admin })).status).toBe(200);
    const after = await signAs(card, 'Bob', 'Hello');
    expect(after.status).toBe(409);
    expect(after.body.message).toBe('Signing has closed. This card was withdrawn.');
    expect((await put(card.token, mine.body.id, mine.body.edit_token, { name: 'Ann', message: 'Bye' })).status).toBe(409);
    expect(await view(card.token)).toMatchObject({ status: 'withdrawn' });
    expect(await (await app.request(`/sign/${card.token}`)).text()).toContain('Signing has closed. This card was withdrawn.');
  });
});

describe('the purchaser', () => {
  const DETAILS = `groupCard { signingToken signingPath collectUntil latestCollectUntil status signatureCount signatures { id name message } invitations { email } }`;
  const myOrders = (token: string) => app.graphql(`{ myOrders(first: 5) { edges { node { id items { id signingToken ${DETAILS} } } } } }`, {}, token);

  it('sees the signing link and every signature in My orders, removes any, and extends the deadline up to the delivery', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('groupbuyer');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-04T18:00:00Z', buyer });
    const a = await signAs(card, 'Ann', 'One');
    await signAs(card, 'Bob', 'Two');

    const { body } = await myOrders(buyer);
    const item = body.data.myOrders.edges[0].node.items[0];
    expect(item.signingToken).toBe(card.token);
    expect(item.groupCard).toMatchObject({ signingToken: card.token, signingPath: `/sign/${card.token}`, collectUntil: '2026-12-04T18:00:00.000Z', latestCollectUntil: '2026-12-10T09:00:00.000Z', status: 'OPEN', signatureCount: 2 });
    expect(item.groupCard.signatures.map((s: { name: string }) => s.name)).toEqual(['Ann', 'Bob']);

    // Someone else: neither the token nor the signatures, and no changes.
    const stranger = await app.customer('groupstranger');
    const seen = await app.graphql(`query($id: ID!) { order(id: $id) { items { signingToken groupCard { signingToken } } } }`, { id: card.orderId }, stranger);
    expect(seen.body.data.order.items[0]).toEqual({ signingToken: null, groupCard: null });
    const anonymous = await app.graphql(`query($id: ID!) { order(id: $id) { items { signingToken } } }`, { id: card.orderId });
    expect(anonymous.body.data.order.items[0].signingToken).toBeNull();
    const remove = `mutation($orderId: ID!, $id: Int!) { removeGroupCardSignature(orderId: $orderId, signatureId: $id) { signatureCount } }`;
    expect((await app.graphql(remove, { orderId: card.orderId, id: a.body.id }, stranger)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await app.graphql(remove, { orderId: card.orderId, id: a.body.id })).body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect((await view(card.token)).signature_count).toBe(2);

    const removed = await app.graphql(remove, { orderId: card.orderId, id: a.body.id }, buyer);
    expect(removed.body.data.removeGroupCardSignature.signatureCount).toBe(1);
    expect((await view(card.token)).signatures.map((s: { name: string }) => s.name)).toEqual(['Bob']);

    const extend = `mutation($orderId: ID!, $itemId: Int!, $at: String!) { extendSigningDeadline(orderId: $orderId, itemId: $itemId, collectUntil: $at) { collectUntil status } }`;
    const tooLate = await app.graphql(extend, { orderId: card.orderId, itemId: card.itemId, at: '2026-12-10T09:00:01Z' }, buyer);
    expect(tooLate.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'collectUntil' });
    const earlier = await app.graphql(extend, { orderId: card.orderId, itemId: card.itemId, at: '2026-12-03T00:00:00Z' }, buyer);
    expect(earlier.body.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect((await app.graphql(extend, { orderId: card.orderId, itemId: card.itemId, at: '2026-12-08T00:00:00Z' }, stranger)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');

    // Past the deadline, extending it opens signing again (until the card goes out).
    clock.set('2026-12-05T09:00:00Z');
    expect((await signAs(card, 'Cy', 'Three')).status).toBe(409);
    const extended = await app.graphql(extend, { orderId: card.orderId, itemId: card.itemId, at: '2026-12-10T00:00:00Z' }, buyer);
    expect(extended.body.data.extendSigningDeadline).toEqual({ collectUntil: '2026-12-10T00:00:00.000Z', status: 'OPEN' });
    expect((await signAs(card, 'Cy', 'Three')).status).toBe(201);
  });

  it('keeps the deadline no later than the card\'s day when the purchaser moves the card earlier', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('earlymover');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', buyer });
    const moved = await app.graphql(`mutation($id: Int!) { changeCardDate(itemId: $id, deliveryDate: "2026-12-05") { deliverAt groupCard { collectUntil latestCollectUntil } } }`, { id: card.itemId }, buyer);
    expect(moved.body.data.changeCardDate).toEqual({ deliverAt: '2026-12-05T09:00:00.000Z', groupCard: { collectUntil: '2026-12-05T09:00:00.000Z', latestCollectUntil: '2026-12-05T09:00:00.000Z' } });
    // Moved later again, the deadline stays where it is (the purchaser extends it if they wish).
    await app.graphql(`mutation($id: Int!) { changeCardDate(itemId: $id, deliveryDate: "2026-12-12") { id } }`, { id: card.itemId }, buyer);
    expect((await view(card.token)).closes_at).toBe('2026-12-05T09:00:00.000Z');
  });

  it('reads My orders in a bounded number of queries whatever the number of group cards', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('manycards');
    let answer: any;
    // The request's own reads (the mail worker settling the receipts meanwhile is not part of them).
    const read = async () => (await recordQueries(app, async () => {
      await app.services.deliveries.runDue();
      answer = await app.graphql(`{ myOrders(first: 20) { edges { node { id items { id signingToken groupCard { signingToken status signatureCount signatures { id name } invitations { email } } } } } } }`, {}, buyer);
    })).filter((query) => !/mail_job|for update/.test(query));
    // Work of the process's own in the background (its e-mail queue rendering what a request's end let
    // go, a cached setting read again) can only add queries to a read: the fewer of two reads is the
    // request's own, and a query per card would be in both.
    const fewest = async () => Math.min(selects(await read()).length, selects(await read()).length);
    await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', buyer });
    await read();
    const one = await fewest();
    for (let i = 0; i < 4; i += 1) {
      const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', buyer });
      await signAs(card, 'Ann', `Card ${i}`);
    }
    const five = await fewest();
    expect(answer.body.data.myOrders.edges).toHaveLength(5);
    expect(five).toBe(one);
  });

  it('manages a guest order\'s group card by its order number (the confirmation page)', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', purchaserEmail: 'guest@example.com' });
    const confirmation = await app.graphql(`query($id: ID!) { order(id: $id) { items { signingToken groupCard { signingPath } } } }`, { id: card.orderId });
    expect(confirmation.body.data.order.items[0]).toEqual({ signingToken: card.token, groupCard: { signingPath: `/sign/${card.token}` } });
    const a = await signAs(card, 'Ann', 'Hello');
    const removed = await app.graphql(`mutation($orderId: ID!, $id: Int!) { removeGroupCardSignature(orderId: $orderId, signatureId: $id) { signatureCount } }`, { orderId: card.orderId, id: a.body.id });
    expect(removed.body.data.removeGroupCardSignature.signatureCount).toBe(0);
  });

  it('sees signing tokens in the admin orders list (REST signing_token)', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', purchaserEmail: 'restlist@example.com' });
    const list = await (await app.request('/api/admin/orders?search=restlist', { token: admin })).json();
    expect(list[0].items[0]).toMatchObject({ item_url_uuid: card.uuid, signing_token: card.token });
  });
});

describe('invitations by e-mail', () => {
  const INVITE = `mutation($orderId: ID!, $itemId: Int!, $emails: [String!]!) { inviteSigners(orderId: $orderId, itemId: $itemId, emails: $emails) { invited alreadyInvited groupCard { invitations { email signedAt remindedAt } } } }`;
  const mails = (kind: string, to?: string) => [...outbox(app).entries()].filter(([name, eml]) => name.startsWith(`${kind}-`) && (!to || eml.includes(`To: ${to}`)));
  /** How many such e-mails were sent, waited for: `runDue()` leaves a job the queue's own run (woken meanwhile) holds to that run. */
  const sent = (kind: string, to?: string) => expect.poll(() => mails(kind, to).length, { timeout: 30_000 });
  const inviteLink = (eml: string) => /https:\/\/cards\.example\/sign\/([A-Za-z0-9_-]{43})\?invite=([A-Za-z0-9_-]+)/.exec(eml)!;

  it('sends one invitation per address, and one reminder a day before the deadline to those who have not signed, once', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('inviter');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-08T18:00:00Z', buyer, recipientName: 'Grace <Hopper>' });
    await app.sql(`update order_item set sender_name = 'Ada <b>&' where id = $1`, [card.itemId]);
    const first = await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['ann@team.example', 'BOB@team.example', 'cy@team.example', 'ann@team.example'] }, buyer);
    expect(first.body.data.inviteSigners).toMatchObject({ invited: ['ann@team.example', 'bob@team.example', 'cy@team.example'], alreadyInvited: [] });
    await app.services.deliveries.runDue();
    await sent('group-card-invitation').toBe(3);
    const [, annMail] = mails('group-card-invitation', 'ann@team.example')[0]!;
    expect(annMail).toContain('Subject: Ada <b>& invites you to sign a card for Grace <Hopper>');
    // Names are escaped in the HTML part.
    expect(annMail).toContain('Ada &lt;b&gt;&amp; is collecting messages for Grace &lt;Hopper&gt;');
    expect(annMail).not.toContain('<b>&amp;');
    // To people who never signed up: an unsubscribe link with one click (contract section 11).
    expect(mailHeader(annMail, 'List-Unsubscribe')).toMatch(/^<https:\/\/cards\.example\/unsubscribe\?token=[\w-]+>$/);
    expect(mailHeader(annMail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const [, token, code] = inviteLink(annMail);
    expect(token).toBe(card.token);

    // An address invited again gets nothing more; a new one its invitation.
    const again = await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['ann@team.example', 'dee@team.example'] }, buyer);
    expect(again.body.data.inviteSigners).toMatchObject({ invited: ['dee@team.example'], alreadyInvited: ['ann@team.example'] });
    await app.services.deliveries.runDue();
    await sent('group-card-invitation').toBe(4);

    // Ann signs through her invitation.
    expect((await sign(app, card.token, { name: 'Ann', message: 'Yes!', invite: code }, fromAddress(++n))).status).toBe(201);

    clock.set('2026-12-07T17:59:00Z');
    await app.services.deliveries.runDue();
    expect(mails('group-card-reminder')).toHaveLength(0);
    clock.set('2026-12-07T18:00:00Z');
    await app.services.deliveries.runDue();
    await sent('group-card-reminder').toBe(3);
    expect(mails('group-card-reminder').map(([, eml]) => /^To: (.*)$/m.exec(eml)![1]).sort()).toEqual(['bob@team.example', 'cy@team.example', 'dee@team.example']);
    expect(mails('group-card-reminder')[0]![1]).toContain('Subject: A day left to sign the card for Grace <Hopper>');
    const seen = await app.graphql(`query($id: ID!) { order(id: $id) { items { groupCard { invitations { email signedAt remindedAt } } } } }`, { id: card.orderId }, buyer);
    expect(seen.body.data.order.items[0].groupCard.invitations).toEqual([
      { email: 'ann@team.example', signedAt: expect.any(String), remindedAt: null },
      { email: 'bob@team.example', signedAt: null, remindedAt: '2026-12-07T18:00:00.000Z' },
      { email: 'cy@team.example', signedAt: null, remindedAt: '2026-12-07T18:00:00.000Z' },
      { email: 'dee@team.example', signedAt: null, remindedAt: '2026-12-07T18:00:00.000Z' },
    ]);

    // Once: neither another run nor a later deadline reminds them again.
    const extended = await app.graphql(`mutation($o: ID!, $i: Int!) { extendSigningDeadline(orderId: $o, itemId: $i, collectUntil: "2026-12-09T23:00:00Z") { collectUntil } }`, { o: card.orderId, i: card.itemId }, buyer);
    expect(extended.body.errors).toBeUndefined();
    clock.set('2026-12-08T23:30:00Z');
    await app.services.deliveries.runDue();
    expect(mails('group-card-reminder')).toHaveLength(3);
  });

  it('withholds the invitation of an address that unsubscribed, and says why', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('inviter_no');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-08T18:00:00Z', buyer });
    const link = new URL(await app.services.recipients.unsubscribeUrl(app.orm.em.fork(), 'no@team.example'));
    expect((await app.request(`${link.pathname}${link.search}`, { method: 'POST' })).status).toBe(200);
    await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['no@team.example', 'yes@team.example'] }, buyer);
    await app.services.deliveries.runDue();
    await sent('group-card-invitation', 'yes@team.example').toBe(1);
    expect(mails('group-card-invitation', 'no@team.example')).toHaveLength(0);
    expect(await app.sql(`select status, last_error from mail_job where subject = 'order:' || $1 and recipient = 'no@team.example' and kind = 'group-card-invitation'`, [card.orderId])).toEqual([
      { status: 'withheld', last_error: 'Not delivered: the recipient unsubscribed' },
    ]);
  });

  it('moves a reminder not sent yet with the deadline, and reminds no one invited within the last day', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('mover');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-03T12:00:00Z', buyer });
    const extend = (at: string) => app.graphql(`mutation($o: ID!, $i: Int!, $at: String!) { extendSigningDeadline(orderId: $o, itemId: $i, collectUntil: $at) { collectUntil } }`, { o: card.orderId, i: card.itemId, at }, buyer);
    const reminders = async () => (await app.sql<{ recipient: string; due_at: Date; status: string }>(`select recipient, due_at, status from mail_job where kind = 'group-card-reminder' and subject = 'order:' || $1 order by recipient`, [card.orderId])).map((r) => [r.recipient, r.due_at.toISOString(), r.status]);
    await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['early@team.example'] }, buyer);
    expect(await reminders()).toEqual([['early@team.example', '2026-12-02T12:00:00.000Z', 'queued']]);
    // The deadline moves a day: the reminder not sent yet moves with it.
    await extend('2026-12-04T12:00:00Z');
    expect(await reminders()).toEqual([['early@team.example', '2026-12-03T12:00:00.000Z', 'queued']]);
    clock.set('2026-12-03T13:00:00Z');
    await app.services.deliveries.runDue();
    await sent('group-card-reminder', 'early@team.example').toBe(1);
    // Invited within the last day of the deadline: the invitation only.
    await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['late@team.example'] }, buyer);
    expect((await reminders()).map(([to]) => to)).toEqual(['early@team.example']);
    // With days to spare again, the late one gets a reminder; the early one was reminded already.
    await extend('2026-12-06T12:00:00Z');
    expect(await reminders()).toEqual([
      ['early@team.example', '2026-12-03T12:00:00.000Z', 'sent'],
      ['late@team.example', '2026-12-05T12:00:00.000Z', 'queued'],
    ]);
    clock.set('2026-12-05T12:00:00Z');
    await app.services.deliveries.runDue();
    await sent('group-card-reminder', 'late@team.example').toBe(1);
    expect(mails('group-card-reminder', 'early@team.example')).toHaveLength(1);
  });

  it('takes at most 50 addresses per card, refuses bad ones whole, and withholds what a refund withdrew', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('manyinvites');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-08T18:00:00Z', buyer });
    const many = (from: number, count: number) => Array.from({ length: count }, (_, i) => `person${from + i}@team.example`);
    const bad = await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['ok@team.example', 'a@b.example, c@d.example'] }, buyer);
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'emails.1' });
    expect((await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: many(0, 51) }, buyer)).body.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect((await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: many(0, 48) }, buyer)).body.data.inviteSigners.invited).toHaveLength(48);
    const over = await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: many(100, 3) }, buyer);
    expect(over.body.errors![0]!.message).toBe('At most 50 addresses can be invited to one card; 2 more can be.');
    expect(await app.sql(`select count(*)::int as n from group_card_invitation i join group_card g on g.id = i.group_card_id where g.item_id = $1`, [card.itemId])).toEqual([{ n: 48 }]);
    // Someone else may not invite through this card.
    expect((await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['x@team.example'] }, await app.customer('notmine'))).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');

    expect((await app.request(`/api/admin/orders/${card.orderId}/refund`, { method: 'POST', token: admin })).status).toBe(200);
    // An invitation still waiting to go out when the card is withdrawn is not sent, and says why (asked
    // of its renderer directly: the queue sends invitations the moment they are written).
    const [job] = await app.sql<{ id: number; kind: string; recipient: string; payload: Record<string, unknown>; subject: string; ref: string; due_at: Date; created_at: Date }>(
      `select id, kind, recipient, payload, subject, ref, due_at, created_at from mail_job where subject = 'order:' || $1 and kind = 'group-card-invitation' order by id limit 1`,
      [card.orderId],
    );
    const queued = { id: job!.id, kind: job!.kind, to: job!.recipient, payload: job!.payload, subject: parseRef(job!.subject), ref: parseRef(job!.ref), attempts: 1, dueAt: job!.due_at, createdAt: job!.created_at };
    const outcome = await app.services.mail.definition('group-card-invitation')!.render([queued], { em: app.orm.em.fork(), now: clock.now(), shop: DEFAULT_SHOP_IDENTITY });
    expect(outcome).toEqual([{ withheld: true, reason: 'Not sent: the card was withdrawn.' }]);
    clock.set('2026-12-07T18:00:00Z');
    await app.services.deliveries.runDue();
    expect(mails('group-card-reminder', 'person0@team.example')).toHaveLength(0);
    expect((await app.graphql(INVITE, { orderId: card.orderId, itemId: card.itemId, emails: ['y@team.example'] }, buyer)).body.errors![0]!.extensions!.code).toBe('CONFLICT');
  });
});

describe('the delivered card', () => {
  it('shows the purchaser\'s message and every signature, escaped, and drops its kept page when a signature changes', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('deliveredbuyer');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', buyer, message: 'From all of us, <with love>' });
    const ann = await signAs(card, 'Ann <b>', 'Happy <script>alert(1)</script> birthday!');
    await signAs(card, 'Bob', 'Two\nlines');
    clock.set('2026-12-10T00:00:00Z');
    await app.services.deliveries.runDue();
    const page = async () => (await app.request(`/ecards/${card.uuid}.html`)).text();
    const first = await page();
    expect(first).toContain('From all of us, &lt;with love&gt;');
    expect(first).toContain('Happy &lt;script&gt;alert(1)&lt;/script&gt; birthday!');
    expect(first).toContain('— Ann &lt;b&gt;');
    expect(first).toContain('Two\nlines');
    expect(first).not.toContain('<script>alert');
    expect(first).toContain('Page <span class="page-at">1</span> of <span class="page-total">2</span> · 2 signatures');
    // Served from the read cache now; the purchaser removing a signature drops it (the database says so).
    expect((await app.request(`/ecards/${card.uuid}.html`)).headers.get('etag')).toBeTruthy();
    const remove = await app.graphql(`mutation($orderId: ID!, $id: Int!) { removeGroupCardSignature(orderId: $orderId, signatureId: $id) { signatureCount } }`, { orderId: card.orderId, id: ann.body.id }, buyer);
    expect(remove.body.data.removeGroupCardSignature.signatureCount).toBe(1);
    await expect.poll(async () => (await page()).includes('Ann &lt;b&gt;'), { timeout: 30_000 }).toBe(false);
    // Signing closed with the delivery.
    expect((await signAs(card, 'Cy', 'Too late')).status).toBe(409);
  });
});

describe("the shop and a customer's group card", () => {
  const REMOVE = `mutation($o: ID!, $id: Int!) { removeGroupCardSignature(orderId: $o, signatureId: $id) { signatureCount } }`;
  const EXTEND = `mutation($o: ID!, $i: Int!, $at: String!) { extendSigningDeadline(orderId: $o, itemId: $i, collectUntil: $at) { collectUntil } }`;
  const INVITE = `mutation($o: ID!, $i: Int!, $emails: [String!]!) { inviteSigners(orderId: $o, itemId: $i, emails: $emails) { invited } }`;
  const auditOf = (orderId: string) => app.sql('select actor_name, actor_role, entity, entity_id, action, summary from audit_entry where entity_id = $1 order by id', [orderId]);
  /** Everything a change could touch: the signatures, the deadline, the invitations and their e-mails. */
  const stateOf = async (card: PlacedGroupCard) => ({
    signatures: (await signatureRows(card.token)).map((row) => row.name),
    card: await app.sql('select collect_until from group_card where item_id = $1', [card.itemId]),
    invitations: await app.sql('select i.email from group_card_invitation i join group_card g on g.id = i.group_card_id where g.item_id = $1', [card.itemId]),
    mails: await app.sql(`select kind, recipient from mail_job where kind like 'group-card-%' and subject = 'order:' || $1`, [card.orderId]),
  });

  it('refuses staff every change, on a customer\'s card and on a guest\'s (FORBIDDEN; nothing changes, nothing is sent, nothing audited)', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const staff = (await staffMember(app, admin)).token;
    const buyer = await app.customer('shopbuyer');
    const cards = [
      await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-08T18:00:00Z', buyer }),
      await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-08T18:00:00Z', purchaserEmail: 'guestcard@example.com' }),
    ];
    for (const card of cards) {
      const ann = await signAs(card, 'Ann', 'Hello');
      const before = await stateOf(card);
      for (const [document, variables] of [
        [REMOVE, { o: card.orderId, id: ann.body.id }],
        [EXTEND, { o: card.orderId, i: card.itemId, at: '2026-12-09T18:00:00Z' }],
        [INVITE, { o: card.orderId, i: card.itemId, emails: ['someone@team.example'] }],
      ] as const) {
        const res = await app.graphql(document, variables, staff);
        expect(res.body).toEqual({ data: null, errors: [expect.objectContaining({ message: "Only the card's purchaser can change it.", extensions: { code: 'FORBIDDEN' } })] });
      }
      await app.services.deliveries.runDue();
      expect(await stateOf(card)).toEqual(before);
      expect(await auditOf(card.orderId)).toEqual([]);
    }
  });

  it('lets an admin change it, and records each change in the audit log; the purchaser\'s own changes are not the shop\'s', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('auditedbuyer');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-08T18:00:00Z', buyer });
    const ann = await signAs(card, 'Ann', 'Hello');
    expect((await app.graphql(REMOVE, { o: card.orderId, id: ann.body.id }, admin)).body).toEqual({ data: { removeGroupCardSignature: { signatureCount: 0 } } });
    expect((await app.graphql(EXTEND, { o: card.orderId, i: card.itemId, at: '2026-12-09T18:00:00Z' }, admin)).body).toEqual({ data: { extendSigningDeadline: { collectUntil: '2026-12-09T18:00:00.000Z' } } });
    expect((await app.graphql(INVITE, { o: card.orderId, i: card.itemId, emails: ['ann@team.example', 'bob@team.example'] }, admin)).body).toEqual({ data: { inviteSigners: { invited: ['ann@team.example', 'bob@team.example'] } } });
    const entry = (action: string, summary: string) => ({ actor_name: 'admin', actor_role: 'admin', entity: 'order', entity_id: card.orderId, action, summary });
    expect(await auditOf(card.orderId)).toEqual([
      entry('signature removed', 'Group card “Balloon Birthday”: removed the signature of “Ann”'),
      entry('deadline extended', 'Group card “Balloon Birthday”: signing deadline 2026-12-08 18:00 → 2026-12-09 18:00'),
      entry('signers invited', 'Group card “Balloon Birthday”: invited ann@team.example, bob@team.example'),
    ]);

    // The purchaser's own changes are theirs, not the shop's: nothing more is recorded.
    const bob = await signAs(card, 'Bob', 'Hi');
    expect((await app.graphql(REMOVE, { o: card.orderId, id: bob.body.id }, buyer)).body.errors).toBeUndefined();
    expect((await app.graphql(EXTEND, { o: card.orderId, i: card.itemId, at: '2026-12-09T20:00:00Z' }, buyer)).body.errors).toBeUndefined();
    expect((await app.graphql(INVITE, { o: card.orderId, i: card.itemId, emails: ['cy@team.example'] }, buyer)).body.errors).toBeUndefined();
    expect(await auditOf(card.orderId)).toHaveLength(3);
  });

  it("writes an admin's entry in the change's transaction: when it cannot be written, nothing changes", async () => {
    clock.set('2026-12-01T10:00:00Z');
    const buyer = await app.customer('doomedbuyer');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-08T18:00:00Z', buyer });
    const ann = await signAs(card, 'Ann', 'Hello');
    const before = await stateOf(card);
    await app.sql(`create function refuse_group_card_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`);
    await app.sql(`create trigger refuse_group_card_audit before insert on audit_entry for each row when (new.entity_id = '${card.orderId}') execute function refuse_group_card_audit()`);
    try {
      for (const [document, variables] of [
        [REMOVE, { o: card.orderId, id: ann.body.id }],
        [EXTEND, { o: card.orderId, i: card.itemId, at: '2026-12-09T18:00:00Z' }],
        [INVITE, { o: card.orderId, i: card.itemId, emails: ['someone@team.example'] }],
      ] as const) {
        expect((await app.graphql(document, variables, admin)).body.errors?.map((e) => e.extensions?.code)).toEqual(['INTERNAL_SERVER_ERROR']);
      }
      await app.services.deliveries.runDue();
      expect(await stateOf(card)).toEqual(before);
    } finally {
      await app.sql('drop trigger refuse_group_card_audit on audit_entry; drop function refuse_group_card_audit()');
    }
  });
});
