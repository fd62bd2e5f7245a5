import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../server/src/rules/webhooks.js';
import { systemLookup } from '../../server/src/modules/webhooks/webhook-address.js';
import { buildSchema } from '../../server/src/schema/build-schema.js';
import { isObjectType, isInputObjectType, isEnumType } from 'graphql';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { fewestQueries } from '../helpers/queries.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhooks (contract section 19): endpoints created, listed and deleted by admins over REST and
 * GraphQL; events written in the transaction of the change that makes them, by each of the nine real
 * actions; deliveries signed as the README says to verify them; the addresses refused when an endpoint
 * is created and when it is delivered to. Retries and the three days of failure are in
 * webhooks-retries.test.ts, a worker killed half way in webhooks-kill.test.ts.
 */

let app: TestApp;
let admin: string;
let shop: Shop;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // Deliveries go to this machine's receiver; `hooks.test` is a name that reaches it.
  app = await startTestApp({ webhookAllowPrivate: true, publicUrl: 'https://cards.example' }, { webhookLookup: async (host) => (host === 'hooks.test' ? [{ address: '127.0.0.1', family: 4 }] : systemLookup(host)) });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
});

interface CreatedEndpoint {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  secret: string;
}

const createEndpoint = async (url: string, events: string[], token = admin): Promise<CreatedEndpoint> => {
  const res = await app.request('/api/admin/webhooks', { method: 'POST', token, json: { url, events } });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`endpoint failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
};
const deleteEndpoint = (id: number) => app.request(`/api/admin/webhooks/${id}`, { method: 'DELETE', token: admin });
const eventsOf = async (type: string) => app.sql<{ id: string; data: any; created_at: Date }>('select id, data, created_at from webhook_event where type = $1 order by created_at, id', [type]);
const count = async (sql: string, params: unknown[] = []) => Number((await app.sql<{ n: number }>(sql, params))[0]!.n);

/** The README's verification snippet, exactly as it stands there, loaded as a module. */
async function readmeVerifier(): Promise<(secret: string, header: string, body: string | Buffer) => boolean> {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('**Verifying a delivery.**'));
  const block = /```js\n([\s\S]*?)\n\s*```/.exec(section)![1]!;
  const code = block.replace(/^ {2}/gm, '');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-readme-')), 'verify.mjs');
  fs.writeFileSync(file, code);
  const { verifyWebhook } = (await import(pathToFileURL(file).href)) as { verifyWebhook: (body: string | Buffer, header: string, secret: string) => boolean };
  return (secret, header, body) => verifyWebhook(body, header, secret);
}

describe('endpoints', () => {
  it('are created with a URL and events, the secret shown once and kept to sign; listed and deleted over REST', async () => {
    const created = await createEndpoint(`${receiver.url}/crud`, ['product.updated', 'order.paid', 'order.paid']);
    expect(created).toEqual({ id: expect.any(Number), url: `${receiver.url}/crud`, events: ['order.paid', 'product.updated'], enabled: true, disabled_at: null, disabled_reason: null, created_by: 'admin', created_at: expect.any(String), secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{32}$/) });
    const [row] = await app.sql<{ secret: string }>('select secret from webhook_endpoint where id = $1', [created.id]);
    expect(row!.secret).toBe(created.secret);

    const listed = await (await app.request('/api/admin/webhooks', { token: admin })).json();
    expect(listed.find((endpoint: { id: number }) => endpoint.id === created.id)).toEqual({ ...created, secret: undefined });
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(await (await app.request(`/api/admin/webhooks/${created.id}/deliveries`, { token: admin })).json()).toEqual({ deliveries: [], total: 0, next_after: null });

    expect((await deleteEndpoint(created.id)).status).toBe(204);
    expect((await deleteEndpoint(created.id)).status).toBe(404);
    expect((await app.request(`/api/admin/webhooks/${created.id}/deliveries`, { token: admin })).status).toBe(404);
    const audit = await app.sql<{ action: string; summary: string }>(`select action, summary from audit_entry where entity = 'webhook' and entity_id = $1 order by id`, [String(created.id)]);
    expect(audit.map((entry) => entry.action)).toEqual(['created', 'deleted']);
    expect(audit[0]!.summary).toContain('order.paid, product.updated');
  });

  it('are created, listed, turned on and deleted over GraphQL too', async () => {
    const created = await app.graphql(`mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id url events enabled disabledAt createdBy } } }`, { input: { url: 'https://hooks.example.com/art-song', events: ['customer.created'] } }, admin);
    const { secret, endpoint } = created.body.data.createWebhookEndpoint;
    expect(endpoint).toEqual({ id: expect.any(Number), url: 'https://hooks.example.com/art-song', events: ['customer.created'], enabled: true, disabledAt: null, createdBy: 'admin' });
    expect(secret).toMatch(/^whsec_/);
    const list = await app.graphql('{ webhookEndpoints { id url } }', {}, admin);
    expect(list.body.data.webhookEndpoints).toContainEqual({ id: endpoint.id, url: endpoint.url });
    const deliveries = await app.graphql(`{ webhookDeliveries(endpointId: ${endpoint.id}) { totalCount edges { node { id } } } }`, {}, admin);
    expect(deliveries.body.data.webhookDeliveries).toEqual({ totalCount: 0, edges: [] });
    const enabled = await app.graphql(`mutation { enableWebhookEndpoint(id: ${endpoint.id}) { id enabled } }`, {}, admin);
    expect(enabled.body.data.enableWebhookEndpoint).toEqual({ id: endpoint.id, enabled: true });
    const deleted = await app.graphql(`mutation { deleteWebhookEndpoint(id: ${endpoint.id}) }`, {}, admin);
    expect(deleted.body.data.deleteWebhookEndpoint).toBe(true);
    const again = await app.graphql(`mutation { deleteWebhookEndpoint(id: ${endpoint.id}) }`, {}, admin);
    expect(again.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    const unknown = await app.graphql(`mutation { redeliverWebhook(deliveryId: 999999) { id } }`, {}, admin);
    expect(unknown.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
  });

  it('refuse bad input with 400 naming the field, writing nothing; are for admins only', async () => {
    const before = await count('select count(*)::int as n from webhook_endpoint');
    const bad = async (json: unknown) => {
      const res = await app.request('/api/admin/webhooks', { method: 'POST', token: admin, json });
      return { status: res.status, body: await res.json() };
    };
    expect(await bad({ url: 'ftp://hooks.example.com/x', events: ['order.paid'] })).toMatchObject({ status: 400, body: { code: 'BAD_USER_INPUT', field: 'url', message: 'The URL must start with https:// or http://.' } });
    expect(await bad({ url: 'not a url', events: ['order.paid'] })).toMatchObject({ status: 400, body: { field: 'url' } });
    expect(await bad({ url: '', events: ['order.paid'] })).toMatchObject({ status: 400, body: { field: 'url' } });
    expect(await bad({ url: 'https://hooks.example.com/x', events: [] })).toMatchObject({ status: 400, body: { field: 'events' } });
    expect(await bad({ url: 'https://hooks.example.com/x', events: ['order.paid', 'order.shipped'] })).toMatchObject({ status: 400, body: { field: 'events', message: expect.stringContaining('Unknown event "order.shipped"') } });
    expect(await bad({ url: 'https://hooks.example.com/x', events: 'order.paid' })).toMatchObject({ status: 400, body: { field: 'events' } });
    const graphql = await app.graphql('mutation { createWebhookEndpoint(input: { url: "https://hooks.example.com/x", events: ["everything"] }) { secret } }', {}, admin);
    expect(graphql.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'events' });
    expect(await count('select count(*)::int as n from webhook_endpoint')).toBe(before);

    const staff = (await staffMember(app, admin)).token;
    const shopper = await app.customer();
    for (const token of [staff, shopper]) {
      expect((await app.request('/api/admin/webhooks', { token })).status).toBe(403);
      expect((await app.request('/api/admin/webhooks', { method: 'POST', token, json: { url: 'https://hooks.example.com/x', events: ['order.paid'] } })).status).toBe(403);
      expect((await app.request('/api/admin/webhooks/1/deliveries', { token })).status).toBe(403);
      expect((await app.request('/api/admin/webhooks/deliveries/1/redeliver', { method: 'POST', token })).status).toBe(403);
      expect((await app.graphql('{ webhookEndpoints { id } }', {}, token)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    }
    expect((await app.request('/api/admin/webhooks')).status).toBe(401);
    expect((await app.request('/api/admin/webhooks/1', { method: 'DELETE' })).status).toBe(401);
    expect((await app.request('/api/admin/webhooks/deliveries/1/redeliver', { method: 'POST' })).status).toBe(401);
    expect((await app.request('/api/admin/webhooks/999999', { method: 'DELETE', token: admin })).status).toBe(404);
    expect((await app.request('/api/admin/webhooks/deliveries/999999/redeliver', { method: 'POST', token: admin })).status).toBe(404);
  });

  it('describe every type and field they add to the schema', () => {
    const schema = buildSchema(null);
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap()).filter((t) => /Webhook/.test(t.name))) {
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInputObjectType(type)) for (const field of Object.values(type.getFields())) if (!field.description) missing.push(`${type.name}.${field.name}`);
      if (isEnumType(type)) for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
    }
    for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(root.getFields()).filter((f) => /[wW]ebhook/.test(f.name))) {
        if (!field.description) missing.push(field.name);
        for (const arg of field.args) if (!arg.description) missing.push(`${field.name}(${arg.name})`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('events', () => {
  let endpoint: CreatedEndpoint;
  beforeAll(async () => {
    endpoint = await createEndpoint(`${receiver.url}/everything`, [...WEBHOOK_EVENT_TYPES]);
  });
  afterAll(async () => {
    await deleteEndpoint(endpoint.id);
  });

  it('are written only when their change commits', async () => {
    const before = await count('select count(*)::int as n from webhook_event');
    await expect(
      app.orm.em.fork().transactional(async (em) => {
        await app.services.webhookEvents.emit(em, 'product.updated', () => [{ product: { id: 1 } }]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count('select count(*)::int as n from webhook_event')).toBe(before);
    // A product refused by the database (its SKU taken) tells nobody.
    const product = { category_id: (await app.sql<{ id: number }>('select id from category limit 1'))[0]!.id, name: 'Taken SKU', description: '', price: 3, product_type_id: 2, sku: 'SKU-WEBHOOK' };
    expect((await app.request('/api/products', { method: 'POST', token: admin, json: { product, tags: [], e_greeting_card_data: null } })).status).toBe(201);
    const created = await count(`select count(*)::int as n from webhook_event where type = 'product.created'`);
    expect((await app.request('/api/products', { method: 'POST', token: admin, json: { product: { ...product, name: 'Taken again' }, tags: [], e_greeting_card_data: null } })).status).toBe(409);
    expect(await count(`select count(*)::int as n from webhook_event where type = 'product.created'`)).toBe(created);
    // Outside a transaction an event could part from its change: refused outright.
    await expect(app.services.webhookEvents.emit(app.orm.em.fork(), 'product.updated', () => [{}])).rejects.toThrow(/transaction/);
  });

  it('product.created, product.updated and product.deleted come from the catalogue, alone and in bulk', async () => {
    const categoryId = (await app.sql<{ id: number }>('select id from category limit 1'))[0]!.id;
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { category_id: categoryId, name: 'Webhook Wreath', description: 'Green.', price: 5.25, product_type_id: 2 }, tags: ['winter'], e_greeting_card_data: null } });
    const id = (await res.json()).product.id as number;
    const [created] = (await eventsOf('product.created')).filter((event) => event.data.product.id === id);
    expect(created!.data).toEqual({ product: { id, name: 'Webhook Wreath', description: 'Green.', sku: null, status: 'active', price: '5.25', compare_at_price: null, category_id: categoryId, product_type_id: 2, tags: ['winter'], created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), updated_at: expect.any(String) } });
    expect((await app.request(`/api/products/${id}`, { method: 'PUT', token: admin, json: { product: { price: 6 } } })).status).toBe(200);
    expect((await eventsOf('product.updated')).filter((event) => event.data.product.id === id).map((event) => event.data.product.price)).toEqual(['6.00']);
    const bulk = await app.request('/api/admin/products/bulk', { method: 'POST', token: admin, json: { ids: [id, shop.albumId], action: { type: 'archive' } } });
    expect(bulk.status).toBe(200);
    const archived = (await eventsOf('product.updated')).filter((event) => event.data.product.status === 'archived');
    expect(archived.map((event) => event.data.product.id).sort()).toEqual([id, shop.albumId].sort());
    expect((await app.request(`/api/products/${id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await eventsOf('product.deleted')).map((event) => event.data.product)).toContainEqual(expect.objectContaining({ id, name: 'Webhook Wreath', status: 'archived' }));
    // Each event (created, updated, archived in bulk, deleted) has one delivery, to the endpoint that takes every type.
    expect(await count(`select count(*)::int as n from webhook_delivery d join webhook_event e on e.id = d.event_id where e.data -> 'product' ->> 'id' = $1`, [String(id)])).toBe(4);
  });

  it('customer.created comes from a sign-up, without the password', async () => {
    await app.customer('hookshopper');
    const [event] = (await eventsOf('customer.created')).filter((e) => e.data.customer.username === 'hookshopper');
    expect(event!.data).toEqual({ customer: { id: expect.any(Number), username: 'hookshopper', email: 'hookshopper@example.com', created_at: expect.any(String) } });
  });

  it('order.paid, order.delivered, card.opened, card.replied and order.refunded come from an order and its card', async () => {
    const placed = await placeOrder(app, orderInput(shop, { purchaserEmail: 'hooks@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: 'Grace', message: 'A private message' }) }] }));
    const order = placed.body.data!.placeOrder;
    const [paid] = (await eventsOf('order.paid')).filter((event) => event.data.order.id === order.id);
    expect(paid!.data.order).toMatchObject({ id: order.id, status: 'paid', currency: 'USD', total: '4.50', purchaser_email: 'hooks@example.com', lines: [{ id: order.items[0].id, product_id: shop.cardId, name: 'Balloon Birthday', quantity: 1, unit_price: '4.50', line_total: '4.50', e_card: true, recipient_name: 'Grace', refunded: false }] });
    expect(JSON.stringify(paid!.data)).not.toContain('A private message');
    expect(JSON.stringify(paid!.data)).not.toContain(order.items[0].itemUrlUuid);

    // The card's e-mail goes out (the mail worker): the order is delivered.
    await expect.poll(async () => (await eventsOf('order.delivered')).filter((event) => event.data.order.id === order.id).length, { timeout: 30_000 }).toBe(1);
    const [delivered] = (await eventsOf('order.delivered')).filter((event) => event.data.order.id === order.id);
    expect(delivered!.data.order).toMatchObject({ status: 'delivered', lines: [{ delivered_at: expect.any(String) }] });

    const uuid = order.items[0].itemUrlUuid as string;
    expect((await app.request(`/api/ecards/${uuid}/opened`, { method: 'POST' })).status).toBe(204);
    expect((await app.request(`/api/ecards/${uuid}/opened`, { method: 'POST' })).status).toBe(204);
    const opened = (await eventsOf('card.opened')).filter((event) => event.data.card.order_id === order.id);
    expect(opened.map((event) => event.data)).toEqual([{ card: { id: order.items[0].id, order_id: order.id, product_id: shop.cardId, name: 'Balloon Birthday', recipient_name: 'Grace', delivered_at: expect.any(String), opened_at: expect.any(String) } }]);

    expect((await app.request(`/api/ecards/${uuid}/replies`, { method: 'POST', json: { name: 'Grace', message: 'Thank you!' } })).status).toBe(201);
    const [replied] = (await eventsOf('card.replied')).filter((event) => event.data.card.order_id === order.id);
    expect(replied!.data).toMatchObject({ card: { id: order.items[0].id, opened_at: expect.any(String) }, reply: { id: expect.any(Number), name: 'Grace', message: 'Thank you!' } });

    expect((await app.request(`/api/admin/orders/${order.id}/refund`, { method: 'POST', token: admin })).status).toBe(200);
    const [refunded] = (await eventsOf('order.refunded')).filter((event) => event.data.order.id === order.id);
    expect(refunded!.data).toMatchObject({ order: { id: order.id, status: 'refunded', refunded_amount: '4.50', lines: [{ refunded: true }] }, refund: { amount: '4.50', line_ids: [order.items[0].id] } });
  });

  it('cost nothing while no endpoint takes them, and two statements when one does', async () => {
    await deleteEndpoint(endpoint.id);
    // The worker stays still while the statements are counted (it would claim the events meanwhile).
    await app.services.webhookDeliveries.stop();
    try {
      let price = 7;
      const update = async () => {
        const res = await app.request(`/api/products/${shop.albumId}`, { method: 'PUT', token: admin, json: { product: { price: price++ } } });
        expect(res.status).toBe(200);
      };
      const statements = (queries: string[]) => queries.length;
      const none = await fewestQueries(app, update, statements);
      const other = await createEndpoint(`${receiver.url}/other`, ['card.opened']);
      expect(await fewestQueries(app, update, statements)).toBe(none);
      const taking = await createEndpoint(`${receiver.url}/taking`, ['product.updated']);
      // The product's JSON, and the event with its delivery and wake-up in one statement.
      expect(await fewestQueries(app, update, statements)).toBe(none + 2);
      await deleteEndpoint(other.id);
      await deleteEndpoint(taking.id);
    } finally {
      app.services.webhookDeliveries.start(app.orm, app.config.deliveryPollSeconds);
    }
  });
});

describe('deliveries', () => {
  it('are POSTed signed, as the README verifies them; one changed byte fails the check', async () => {
    const verify = await readmeVerifier();
    // Through a name the shop resolves itself: the connection goes to the address it checked.
    const endpoint = await createEndpoint(`http://hooks.test:${receiver.port}/signed`, ['product.created']);
    const categoryId = (await app.sql<{ id: number }>('select id from category limit 1'))[0]!.id;
    const res = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { category_id: categoryId, name: 'Signed Song', description: '', price: 2, product_type_id: 2 }, tags: [], e_greeting_card_data: null } });
    const productId = (await res.json()).product.id;
    await expect.poll(() => receiver.to('/signed').length, { timeout: 30_000 }).toBe(1);
    const [delivery] = receiver.to('/signed');
    expect(delivery!.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'ArtSong-Webhooks/1', 'artsong-event-id': delivery!.eventId, 'artsong-signature': expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/) });
    const body = JSON.parse(delivery!.body);
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(body).toMatchObject({ type: 'product.created', data: { product: { id: productId, name: 'Signed Song' } } });
    const [event] = await app.sql<{ id: string; created_at: Date }>(`select id, created_at from webhook_event where id = $1`, [body.id]);
    expect(body.created_at).toBe(event!.created_at.toISOString());

    const header = delivery!.headers['artsong-signature'] as string;
    expect(verify(endpoint.secret, header, delivery!.body)).toBe(true);
    expect(verify(endpoint.secret, header, Buffer.from(delivery!.body))).toBe(true);
    const tampered = Buffer.from(delivery!.body);
    tampered[tampered.indexOf('Signed')] ^= 0x01;
    expect(verify(endpoint.secret, header, tampered)).toBe(false);
    expect(verify('whsec_another', header, delivery!.body)).toBe(false);

    await expect.poll(async () => (await (await app.request(`/api/admin/webhooks/${endpoint.id}/deliveries`, { token: admin })).json()).deliveries[0]?.status).toBe('succeeded');
    const listed = await (await app.request(`/api/admin/webhooks/${endpoint.id}/deliveries`, { token: admin })).json();
    expect(listed).toEqual({ deliveries: [{ id: expect.any(Number), event_id: body.id, type: 'product.created', status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, last_attempt_at: expect.any(String), next_attempt_at: null, created_at: expect.any(String) }], total: 1, next_after: null });
    await deleteEndpoint(endpoint.id);
  });
});
