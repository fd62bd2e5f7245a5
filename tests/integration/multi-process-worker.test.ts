import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesBelow, stopAllAppProcesses } from '../helpers/app-process.js';
import { startCluster, START_TIMEOUT_MS, type Cluster } from '../helpers/cluster.js';
import { PAY_OK, PLACE_ORDER } from '../helpers/order-fixtures.js';

/** A web process and a worker (APP_ROLE=worker) on one database and bucket: the worker sends what the web process queued. */
describe('a worker process (APP_ROLE=worker)', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    // The worker polls its queue only every ten minutes: what it sends at once, it was woken for.
    cluster = await startCluster(['web', 'worker'], { DELIVERY_POLL_SECONDS: '600', METRICS_TOKEN: 'worker-metrics-token' });
  }, START_TIMEOUT_MS + 60_000);
  afterAll(async () => {
    await cluster?.stop();
    await stopAllAppProcesses();
  });

  it('answers health and readiness only, and sends at once the e-mail that a web process queued', async () => {
    const worker = cluster.all[1]!;
    expect(worker.output()).toContain('"role":"worker"');
    expect(await (await worker.request('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await worker.request('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok', media: 'ok' } });
    for (const pathname of ['/api/settings', '/graphql', '/', '/api/categories/all']) {
      const res = await worker.request(pathname);
      expect(res.status, pathname).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }

    const [album] = await cluster.sql<{ id: number }>('select id from product where product_type_id = 2 order by id limit 1');
    const input = { idempotencyKey: crypto.randomUUID(), purchaserEmail: 'worker@example.com', lines: [{ productId: album!.id, quantity: 1 }], payment: PAY_OK };
    const placed = await cluster.web[0]!.request('/graphql', { method: 'POST', json: { query: PLACE_ORDER, variables: { input } } });
    expect(((await placed.json()) as { errors?: unknown }).errors).toBeUndefined();
    await expect.poll(() => filesBelow(path.join(worker.dataDir, 'outbox')).length, { timeout: 30_000 }).toBe(1);
    expect(filesBelow(path.join(cluster.web[0]!.dataDir, 'outbox'))).toEqual([]);

    // The worker answers /metrics too: what it sent, and the queue it works on.
    expect((await worker.request('/metrics')).status).toBe(401);
    const scrape = async () => {
      const scraped = await worker.request('/metrics', { token: 'worker-metrics-token' });
      expect(scraped.status).toBe(200);
      const families = new Map(parsePrometheusTextFormat(await scraped.text()).map((family) => [family.name, family]));
      const value = (name: string) => Number(families.get(name)?.metrics[0]?.value);
      return { sent: value('mail_sent_total'), depth: value('mail_queue_depth'), memory: value('process_resident_memory_bytes') > 0 };
    };
    // Once the send is settled, the queue is empty.
    await expect.poll(scrape, { timeout: 30_000 }).toEqual({ sent: 1, depth: 0, memory: true });
  });
});
