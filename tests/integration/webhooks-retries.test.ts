import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_RETRY_MS, MAX_RETRY_MS, nextAttemptAt } from '../../server/src/modules/webhooks/webhook-deliveries.js';
import { manualClock, outbox } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhook retries on the shop's clock (contract section 19), moved by the test instead of waited for:
 * a delivery answered 500 is tried again 30 s later, then after twice as long each time, at most an
 * hour apart, for three days after its event, always with the same event id; a redelivery too. An
 * endpoint whose deliveries all failed for three days is turned off and its admins are e-mailed.
 */

const MINUTE = 60_000;
const DAY = 24 * 3_600_000;
const clock = manualClock(new Date().toISOString());
let app: TestApp;
let admin: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // Answered 500 the first time, 200 after; always 500.
  const flaky = new Set<string>();
  receiver.status = (delivery) => (delivery.path === '/down' ? 500 : delivery.path === '/flaky' && !flaky.has(delivery.eventId) && flaky.add(delivery.eventId) ? 500 : 200);
  app = await startTestApp({ webhookAllowPrivate: true }, { clock: clock.now });
  admin = await app.login();
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
});

const createEndpoint = async (path: string, events: string[]) => {
  const res = await app.request('/api/admin/webhooks', { method: 'POST', token: admin, json: { url: `${receiver.url}${path}`, events } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; secret: string };
};
const deliveriesOf = (endpointId: number) =>
  app.sql<{ id: number; event_id: string; status: string; attempts: number; last_status_code: number | null; last_error: string | null; next_attempt_at: Date | null; last_attempt_at: Date | null }>(
    'select id, event_id, status, attempts, last_status_code, last_error, next_attempt_at, last_attempt_at from webhook_delivery where endpoint_id = $1 order by id',
    [endpointId],
  );
const later = (ms: number) => clock.set(new Date(clock.now().getTime() + ms).toISOString());
const seconds = (header: unknown) => Number(/^t=(\d+),/.exec(String(header))![1]);

describe('a failed delivery', () => {
  let endpoint: { id: number };
  let deliveryId: number;

  it('is tried again 30 s later with the same event id, until a 2xx', async () => {
    endpoint = await createEndpoint('/flaky', ['customer.created']);
    const first = clock.now();
    await app.customer('retrying');
    await expect.poll(async () => (await deliveriesOf(endpoint.id))[0]?.attempts).toBe(1);
    const [failed] = await deliveriesOf(endpoint.id);
    deliveryId = failed!.id;
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'The endpoint answered 500', last_attempt_at: first, next_attempt_at: new Date(first.getTime() + FIRST_RETRY_MS) });

    // Not due before its time.
    later(FIRST_RETRY_MS - 1000);
    await app.services.webhookDeliveries.runDue();
    expect(receiver.to('/flaky')).toHaveLength(1);
    later(1000);
    await app.services.webhookDeliveries.runDue();
    await expect.poll(async () => (await deliveriesOf(endpoint.id))[0]?.status).toBe('succeeded');
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ attempts: 2, last_status_code: 200, last_error: null, next_attempt_at: null });

    const [one, two] = receiver.to('/flaky');
    expect(two!.eventId).toBe(one!.eventId);
    expect(two!.headers['artsong-event-id']).toBe(one!.eventId);
    expect(two!.body).toBe(one!.body);
    // Each attempt is signed at its own time.
    expect(seconds(two!.headers['artsong-signature']) - seconds(one!.headers['artsong-signature'])).toBe(FIRST_RETRY_MS / 1000);
  });

  it('is redelivered now, with the same event id, over REST and GraphQL', async () => {
    const res = await app.request(`/api/admin/webhooks/deliveries/${deliveryId}/redeliver`, { method: 'POST', token: admin });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ id: deliveryId, status: 'pending' });
    await expect.poll(() => receiver.to('/flaky').length).toBe(3);
    const graphql = await app.graphql(`mutation { redeliverWebhook(deliveryId: ${deliveryId}) { id eventId status } }`, {}, admin);
    expect(graphql.body.data.redeliverWebhook).toMatchObject({ id: deliveryId, status: 'PENDING' });
    await expect.poll(() => receiver.to('/flaky').length).toBe(4);
    expect(new Set(receiver.to('/flaky').map((delivery) => delivery.eventId))).toEqual(new Set([graphql.body.data.redeliverWebhook.eventId]));
    await expect.poll(async () => (await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'succeeded', attempts: 4 });
    await app.request(`/api/admin/webhooks/${endpoint.id}`, { method: 'DELETE', token: admin });
  });

  it('backs off 30 s, then twice as long each time, at most an hour apart, until three days after its event', () => {
    const event = new Date('2026-12-01T00:00:00Z');
    const until = new Date(event.getTime() + 3 * DAY);
    // Each attempt's time, the one at the event first: attempt n failed at attempts[n - 1].
    const attempts = [event];
    for (let next = nextAttemptAt(1, event, until); next; next = nextAttemptAt(attempts.length, next, until)) attempts.push(next);
    const gaps = attempts.slice(1).map((at, i) => at.getTime() - attempts[i]!.getTime());
    expect(gaps.slice(0, 8)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, MAX_RETRY_MS]);
    expect(Math.max(...gaps)).toBe(MAX_RETRY_MS);
    expect(gaps[0]).toBeLessThan(MINUTE);
    // The last try is at the end of the three days, and nothing after.
    expect(attempts.at(-1)).toEqual(until);
    expect(nextAttemptAt(attempts.length, until, until)).toBeNull();
    // The first try, seven growing retries (63.5 minutes), 70 hourly ones, and the last at 72 hours.
    expect(attempts.length).toBe(79);
  });
});

describe('an endpoint failing for three days', () => {
  it('is turned off with its pending deliveries, its admins e-mailed; it takes events again once turned back on', async () => {
    const endpoint = await createEndpoint('/down', ['customer.created']);
    const since = clock.now();
    await app.customer('failing1');
    await expect.poll(async () => (await deliveriesOf(endpoint.id))[0]?.attempts).toBe(1);
    // An hour on, a second event: its first try and the first one's second (due since) both fail.
    later(3_600_000);
    await app.customer('failing2');
    await expect.poll(async () => (await deliveriesOf(endpoint.id)).map((d) => d.attempts)).toEqual([2, 1]);
    const [row] = await app.sql<{ failing_since: Date; disabled_at: Date | null }>('select failing_since, disabled_at from webhook_endpoint where id = $1', [endpoint.id]);
    expect(row).toEqual({ failing_since: since, disabled_at: null });

    // A minute short of three days: retried, failing, still on.
    clock.set(new Date(since.getTime() + 3 * DAY - MINUTE).toISOString());
    await app.services.webhookDeliveries.runDue();
    expect((await app.sql('select disabled_at from webhook_endpoint where id = $1', [endpoint.id]))[0]!.disabled_at).toBeNull();

    // Three days after the first failure: the first event's last try fails, and the endpoint goes off.
    clock.set(new Date(since.getTime() + 3 * DAY + MINUTE).toISOString());
    await app.services.webhookDeliveries.runDue();
    const [off] = await app.sql<{ disabled_at: Date; disabled_reason: string }>('select disabled_at, disabled_reason from webhook_endpoint where id = $1', [endpoint.id]);
    expect(off).toEqual({ disabled_at: clock.now(), disabled_reason: 'Every delivery failed for 3 days' });
    expect((await deliveriesOf(endpoint.id)).map((d) => [d.status, d.next_attempt_at])).toEqual([['failed', null], ['failed', null]]);
    const mails = await app.sql<{ recipient: string; payload: { url: string; failingSince: string } }>(`select recipient, payload from mail_job where kind = 'webhook-disabled'`);
    expect(mails).toEqual([{ recipient: 'admin@example.com', payload: { endpointId: endpoint.id, url: `${receiver.url}/down`, failingSince: since.toISOString() } }]);
    await expect.poll(() => [...outbox(app).keys()].filter((name) => name.startsWith('webhook-disabled-')).length).toBe(1);

    const listed = await app.graphql('{ webhookEndpoints { id enabled disabledAt disabledReason } }', {}, admin);
    expect(listed.body.data.webhookEndpoints).toContainEqual({ id: endpoint.id, enabled: false, disabledAt: clock.now().toISOString(), disabledReason: 'Every delivery failed for 3 days' });
    // Off: new events pass it by, and nothing is redelivered to it.
    await app.customer('failing3');
    expect(await deliveriesOf(endpoint.id)).toHaveLength(2);
    const redeliver = await app.request(`/api/admin/webhooks/deliveries/${(await deliveriesOf(endpoint.id))[0]!.id}/redeliver`, { method: 'POST', token: admin });
    expect(redeliver.status).toBe(409);

    const enabled = await app.graphql(`mutation { enableWebhookEndpoint(id: ${endpoint.id}) { enabled disabledAt } }`, {}, admin);
    expect(enabled.body.data.enableWebhookEndpoint).toEqual({ enabled: true, disabledAt: null });
    await app.customer('failing4');
    expect(await deliveriesOf(endpoint.id)).toHaveLength(3);
    // Its list pages newest first.
    const page = await app.graphql(`{ webhookDeliveries(endpointId: ${endpoint.id}, first: 2) { totalCount pageInfo { hasNextPage endCursor } edges { node { id eventType } } } }`, {}, admin);
    const { totalCount, pageInfo, edges } = page.body.data.webhookDeliveries;
    expect(totalCount).toBe(3);
    expect(edges.map((edge: { node: { id: number } }) => edge.node.id)).toEqual((await deliveriesOf(endpoint.id)).map((d) => d.id).reverse().slice(0, 2));
    const rest = await app.request(`/api/admin/webhooks/${endpoint.id}/deliveries?after=${pageInfo.endCursor}`, { token: admin });
    expect((await rest.json()).deliveries.map((d: { id: number }) => d.id)).toEqual([(await deliveriesOf(endpoint.id))[0]!.id]);
  });
});
