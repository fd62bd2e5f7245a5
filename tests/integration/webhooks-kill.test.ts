import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startAppProcess, stopAllAppProcesses, type AppProcess } from '../helpers/app-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { CONCURRENCY, SETTLE_EVERY } from '../../server/src/modules/webhooks/webhook-deliveries.js';
import { claimSize } from '../../server/src/modules/webhooks/webhook-delivery-sql.js';

/**
 * Contract section 19 with real processes: two worker processes (APP_ROLE=worker) deliver the webhook
 * outbox of one database, and one of them is killed with SIGKILL half way. Nothing is lost: every
 * event reaches the endpoint (at least once, always with its own id and body), and every delivery is
 * recorded as succeeded, those the dead worker held included once their lease ran out.
 */
const EVENTS = 600;
let app: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // Slow enough an endpoint that the kill lands mid-way.
  receiver.delayMs = 60;
  // The test's own process writes the events and delivers nothing: only the workers do.
  app = await startTestApp({ webhookAllowPrivate: true });
  await app.services.webhookDeliveries.stop();
});
afterAll(async () => {
  await stopAllAppProcesses();
  await app?.stop();
  await receiver?.stop();
});

const worker = (name: string) => startAppProcess(name, { APP_ROLE: 'worker', DATABASE_URL: app.config.databaseUrl!, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_LEASE_SECONDS: '3', PAYMENT_PROVIDER: 'test' });
const one = async (sql: string) => (await app.sql<Record<string, number>>(sql))[0]!;

describe('webhook workers with one killed half way', () => {
  it('deliver every event: none lost, each with its own id and body', { timeout: 240_000 }, async () => {
    const admin = await app.login();
    const res = await app.request('/api/admin/webhooks', { method: 'POST', token: admin, json: { url: `${receiver.url}/orders`, events: ['order.paid'] } });
    expect(res.status).toBe(201);
    const workers: AppProcess[] = [await worker('webhooks-a'), await worker('webhooks-b')];
    onTestFailed(() => workers.forEach((w) => console.log(`${w.name}:`, w.output().slice(-3000))));

    // The events of 600 orders, committed at once: the workers are woken by their NOTIFY.
    await app.orm.em.fork().transactional((em) => app.services.webhookEvents.emit(em, 'order.paid', () => Array.from({ length: EVENTS }, (_, n) => ({ order: { id: `order-${n}`, total: '4.50' } }))));

    await expect.poll(() => receiver.received.length, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(EVENTS / 3);
    await workers[0]!.stop('SIGKILL');
    expect(receiver.received.length).toBeLessThan(EVENTS);

    const settled = async () => (await one(`select count(*) filter (where status = 'succeeded')::int as n from webhook_delivery`)).n;
    await expect.poll(settled, { timeout: 90_000, interval: 250 }).toBe(EVENTS);
    await workers[1]!.stop();

    expect(await one(`select count(*)::int as deliveries, count(*) filter (where status <> 'succeeded')::int as other, min(attempts)::int as fewest from webhook_delivery`)).toEqual({ deliveries: EVENTS, other: 0, fewest: 1 });
    const events = await app.sql<{ id: string; order_id: string }>(`select id, data -> 'order' ->> 'id' as order_id from webhook_event`);
    expect(new Set(receiver.received.map((delivery) => delivery.eventId))).toEqual(new Set(events.map((event) => event.id)));
    // A delivery the dead worker had on the wire may come again, but as the same event: its id, its body.
    const bodies = new Map<string, Set<string>>();
    for (const delivery of receiver.received) bodies.set(delivery.eventId, (bodies.get(delivery.eventId) ?? new Set()).add(delivery.body));
    expect([...bodies.values()].every((set) => set.size === 1)).toBe(true);
    const byId = new Map(events.map((event) => [event.id, event.order_id]));
    expect(receiver.received.every((delivery) => JSON.parse(delivery.body).data.order.id === byId.get(delivery.eventId))).toBe(true);
    // At most what the dead worker held came twice: its claimed batch not sent yet, and the outcomes it had not written.
    expect(receiver.received.length - EVENTS).toBeLessThanOrEqual(claimSize(CONCURRENCY) + SETTLE_EVERY);
  });
});
