import fs from 'node:fs';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import { restCategory } from '../helpers/catalogue-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const TOKEN = 'metrics-token-for-tests';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ metricsToken: TOKEN, deliveryPollSeconds: 3600, webhookAllowPrivate: true });
});
afterAll(async () => {
  await app?.stop();
});

const scrape = async (): Promise<Map<string, PrometheusFamily>> => {
  const res = await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Map(parsePrometheusTextFormat(await res.text()).map((family) => [family.name, family]));
};
const value = (family: PrometheusFamily | undefined, labels: Record<string, string> = {}) =>
  Number(family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? NaN);

describe('GET /metrics', () => {
  it('answers only with the bearer token (401 otherwise)', async () => {
    expect((await app.request('/metrics')).status).toBe(401);
    expect((await app.request('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await app.request('/metrics', { token: TOKEN })).status).toBe(200);
  });

  it('counts requests by route template and status, with latency histograms; parses as Prometheus text', async () => {
    const admin = await app.login();
    const shop = await seedShop(app, admin);
    // Reads: some answered from the read cache; a product that does not exist; a GraphQL call.
    for (let i = 0; i < 3; i++) expect((await app.request(`/api/products/${shop.cardId}`)).status).toBe(200);
    expect((await app.request('/api/products/987654')).status).toBe(404);
    await app.graphql('{ productTypes { id } }');
    const { body } = await placeOrder(app, orderInput(shop));
    expect(body.data.placeOrder.id).toBeTruthy();
    await app.services.deliveries.runDue();

    const metrics = await scrape();
    const requests = metrics.get('http_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    // Templates, never raw paths: one series for every product id.
    expect(value(requests, { route: '/api/products/:id', status: '200', method: 'GET' })).toBe(3);
    expect(value(requests, { route: '/api/products/:id', status: '404' })).toBe(1);
    expect(value(requests, { route: '/api/login', method: 'POST', status: '200' })).toBe(1);
    expect(value(requests, { route: '/graphql', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(2);
    expect(requests.metrics.some((m) => /\d{3,}/.test(m.labels?.route ?? ''))).toBe(false);
    const latency = metrics.get('http_request_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    // (This parser folds a labelled histogram's series into its buckets; the series are checked in the text below.)
    expect(Object.keys(latency.metrics[0]!.buckets!).sort()).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].sort());
    const text = await (await app.request('/metrics', { token: TOKEN })).text();
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/api\/products\/:id",status="200"\} 3$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/products\/:id",status="200"\} 3$/m);

    // The read cache: the first read missed, the next two hit.
    expect(value(metrics.get('read_cache_misses_total'))).toBeGreaterThanOrEqual(1);
    expect(value(metrics.get('read_cache_hits_total'))).toBeGreaterThanOrEqual(2);
    // E-mail: the receipt and the card went out; only the card's reminder waits, days from now.
    expect(value(metrics.get('mail_sent_total'))).toBe(2);
    expect(value(metrics.get('mail_failed_total'))).toBe(0);
    expect(value(metrics.get('mail_queue_depth'))).toBe(1);
    expect(value(metrics.get('mail_queue_due'))).toBe(0);
    expect(value(metrics.get('mail_queue_oldest_due_age_seconds'))).toBe(0);
    // The pool, the process's memory and the event loop.
    expect(value(metrics.get('db_pool_connections'))).toBeGreaterThan(0);
    expect(value(metrics.get('process_resident_memory_bytes'))).toBeGreaterThan(10_000_000);
    expect(metrics.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('has every metric the Grafana dashboard of deploy/ draws', async () => {
    const dashboard = JSON.parse(fs.readFileSync(new URL('../../deploy/grafana/dashboards/art-and-song-cards.json', import.meta.url), 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
    const used = new Set(exprs.flatMap((e) => e.match(/\b(?:http|read_cache|mail|db_pool|process|nodejs)_[a-z0-9_]+/g) ?? []).map((name) => name.replace(/_bucket$/, '')));
    expect(used.size).toBeGreaterThan(10);
    const scraped = await scrape();
    expect([...used].filter((name) => !scraped.has(name))).toEqual([]);
  });

  it('reports the queue depth and how long the oldest due e-mail has waited', async () => {
    const [order] = await app.sql<{ id: string }>('select id from "order" limit 1');
    await app.sql(`insert into mail_job (kind, subject, recipient, due_at, status) values ('receipt-resend', 'order:' || $1, 'payer@example.com', now() - interval '10 minutes', 'queued'), ('receipt-resend', 'order:' || $1, 'payer@example.com', now() + interval '1 day', 'queued')`, [order!.id]);
    const metrics = await scrape();
    expect(value(metrics.get('mail_queue_depth'))).toBe(3);
    expect(value(metrics.get('mail_queue_due'))).toBe(1);
    const age = value(metrics.get('mail_queue_oldest_due_age_seconds'));
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(700);
  });

  it("counts this process's webhook deliveries and reports the outbox: pending, the oldest due, endpoints turned off", async () => {
    const receiver = await startWebhookReceiver();
    receiver.status = (delivery) => (delivery.path === '/down' ? 500 : 200);
    try {
      const admin = await app.login();
      for (const path of ['/ok', '/down']) {
        const res = await app.request('/api/admin/webhooks', { method: 'POST', token: admin, json: { url: `${receiver.url}${path}`, events: ['product.created'] } });
        expect(res.status).toBe(201);
      }
      const before = await scrape();
      expect(value(before.get('webhook_deliveries_pending'))).toBe(0);
      const created = await app.request('/api/products', { method: 'POST', token: admin, json: { product: { category_id: await restCategory(app, admin, 'Metered'), name: 'Metered Melody', description: '', price: 2, product_type_id: 2 }, tags: [], e_greeting_card_data: null } });
      expect(created.status).toBe(201);
      await app.services.webhookDeliveries.runDue();
      await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);

      // One answered 200, one 500 (retried in 30 s: pending, not due yet).
      const after = await scrape();
      expect(value(after.get('webhook_deliveries_succeeded_total')) - value(before.get('webhook_deliveries_succeeded_total'))).toBe(1);
      expect(value(after.get('webhook_delivery_attempts_failed_total')) - value(before.get('webhook_delivery_attempts_failed_total'))).toBe(1);
      expect(value(after.get('webhook_deliveries_pending'))).toBe(1);
      expect(value(after.get('webhook_deliveries_oldest_due_age_seconds'))).toBe(0);
      expect(value(after.get('webhook_endpoints_turned_off'))).toBe(0);

      // Its retry overdue by ten minutes, and its endpoint turned off meanwhile.
      await app.sql(`update webhook_delivery set next_attempt_at = now() - interval '10 minutes' where status = 'pending'`);
      await app.sql(`update webhook_endpoint set disabled_at = now(), disabled_reason = 'test' where url like '%/down'`);
      const late = await scrape();
      expect(value(late.get('webhook_deliveries_oldest_due_age_seconds'))).toBeGreaterThanOrEqual(600);
      expect(value(late.get('webhook_deliveries_oldest_due_age_seconds'))).toBeLessThan(700);
      expect(value(late.get('webhook_endpoints_turned_off'))).toBe(1);
    } finally {
      await receiver.stop();
    }
  });

  it('does not exist without METRICS_TOKEN (404)', async () => {
    const bare = await startTestApp();
    try {
      expect((await bare.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      expect((await bare.request('/metrics')).status).toBe(404);
    } finally {
      await bare.stop();
    }
  });
});
