import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import client from 'prom-client';
import type { ReadCache } from '../../server/src/core/read-cache.js';

/** What the metrics read from the running shop. */
export interface MetricsSources {
  orm: MikroORM;
  cache: ReadCache | null;
  /** E-mails sent and failed by this process's queue (counters kept by the delivery service). */
  mail?: { sent: number; failed: number } | null;
  /** Webhook deliveries this process's worker made: answered 2xx, and attempts that failed. */
  webhooks?: { succeeded: number; failed: number } | null;
}

/** Request latency buckets, in seconds: a cached read takes a millisecond, an upload seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The shop's Prometheus metrics (`GET /metrics`, prom-client's text format): HTTP requests by route
 * template and status with latency histograms, the read cache's hits and misses, the mail queue's
 * depth and the age of its oldest due e-mail, e-mails sent and failed, webhook deliveries made and
 * failed with the outbox's pending ones and the endpoints turned off, the database pool, and the
 * process (memory, event-loop lag, CPU: prom-client's default metrics). Gauges that cost a query are
 * read when Prometheus scrapes, never on a timer.
 */
export class Metrics {
  readonly registry = new client.Registry();
  private readonly requests: client.Counter<'method' | 'route' | 'status'>;
  private readonly latency: client.Histogram<'method' | 'route' | 'status'>;

  constructor(private readonly sources: MetricsSources) {
    const registry = this.registry;
    client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
    this.requests = new client.Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route template and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
    this.latency = new client.Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by method, route template and status.', labelNames: ['method', 'route', 'status'], buckets: LATENCY_BUCKETS, registers: [registry] });

    const cache = sources.cache;
    const total = (name: string, help: string, read: () => number) =>
      new client.Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    if (cache) {
      total('read_cache_hits_total', 'Storefront reads answered from the read cache.', () => cache.stats.hits);
      total('read_cache_misses_total', 'Storefront reads loaded from the database because the read cache did not hold them.', () => cache.stats.misses);
      new client.Gauge({ name: 'read_cache_entries', help: 'Answers held in the read cache.', registers: [registry], collect() { this.set(cache.size); } });
      new client.Gauge({ name: 'read_cache_bytes', help: 'Memory taken by the read cache.', registers: [registry], collect() { this.set(cache.bytes); } });
    }
    if (sources.mail) {
      const mail = sources.mail;
      total('mail_sent_total', 'E-mails this process sent.', () => mail.sent);
      total('mail_failed_total', 'Attempts of this process to send an e-mail that failed (each is retried, then shown to admins).', () => mail.failed);
    }

    if (sources.webhooks) {
      const webhooks = sources.webhooks;
      total('webhook_deliveries_succeeded_total', 'Webhook deliveries this process sent that were answered with a 2xx.', () => webhooks.succeeded);
      total('webhook_delivery_attempts_failed_total', 'Attempts of this process to deliver a webhook that failed (each is retried for 3 days).', () => webhooks.failed);
    }

    this.sharedGauges(
      `select count(*) filter (where status in ('queued', 'sending')) as depth,
              count(*) filter (where status = 'queued' and due_at <= now()) as due,
              extract(epoch from now() - min(due_at) filter (where status = 'queued' and due_at <= now()))::float8 as oldest,
              count(*) filter (where status = 'failed') as failed
         from mail_job where status <> 'sent'`,
      {
        depth: ['mail_queue_depth', 'E-mails waiting in the queue (due now or later, or being sent), shop-wide.'],
        due: ['mail_queue_due', 'E-mails due now and not sent yet, shop-wide.'],
        oldest: ['mail_queue_oldest_due_age_seconds', 'How long the oldest due e-mail has waited (0 when none is due).'],
        failed: ['mail_queue_failed', 'E-mails given up after retrying (shown to admins under E-mail), shop-wide.'],
      },
    );
    this.sharedGauges(
      `select (select count(*) from webhook_delivery where status = 'pending') as pending,
              (select extract(epoch from now() - min(next_attempt_at))::float8 from webhook_delivery where status = 'pending' and next_attempt_at <= now()) as oldest,
              (select count(*) from webhook_endpoint where disabled_at is not null) as off`,
      {
        pending: ['webhook_deliveries_pending', 'Webhook deliveries not answered with a 2xx yet (due now, waiting to be retried, or being sent), shop-wide.'],
        oldest: ['webhook_deliveries_oldest_due_age_seconds', 'How long the oldest due webhook delivery has waited (0 when none is due).'],
        off: ['webhook_endpoints_turned_off', 'Webhook endpoints turned off after failing for 3 days, shop-wide.'],
      },
    );

    const pool = () => (sources.orm.em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> }).getNativeClient();
    const poolGauge = (name: string, help: string, read: (p: pg.Pool) => number) =>
      new client.Gauge({ name, help, registers: [registry], async collect() { this.set(read(await pool())); } });
    poolGauge('db_pool_connections', 'Database connections open in this process’s pool.', (p) => p.totalCount);
    poolGauge('db_pool_idle_connections', 'Open database connections not in use.', (p) => p.idleCount);
    poolGauge('db_pool_waiting_requests', 'Queries waiting for a free database connection.', (p) => p.waitingCount);
  }

  /**
   * Gauges filled by one query per scrape (the registry collects them in parallel: the first to be
   * collected runs the query, the others wait for it); each column of its one row is a gauge, a null
   * one 0.
   */
  private sharedGauges<K extends string>(sql: string, gauges: Record<K, [name: string, help: string]>): Record<K, client.Gauge> {
    let reading: Promise<void> | null = null;
    const made = {} as Record<K, client.Gauge>;
    const read = (): Promise<void> =>
      (reading ??= (async () => {
        try {
          const [row] = await this.sources.orm.em.getConnection().execute<Record<K, string | number | null>[]>(sql);
          for (const column of Object.keys(gauges) as K[]) made[column].set(Math.max(0, Number(row?.[column] ?? 0)));
        } finally {
          reading = null;
        }
      })());
    for (const column of Object.keys(gauges) as K[]) {
      const [name, help] = gauges[column];
      made[column] = new client.Gauge({ name, help, registers: [this.registry], collect: read });
    }
    return made;
  }

  /** Counts a request and its latency when its answer has gone out, under its route template (see RouteTemplates). */
  observe(req: IncomingMessage, res: ServerResponse, route: () => string): void {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { method: req.method ?? 'GET', route: route(), status: String(res.statusCode) };
      this.requests.inc(labels);
      this.latency.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    });
  }

  /**
   * `GET /metrics`: 404 when no token is configured (the address does not exist), 401 without the
   * right bearer token, else the text format.
   */
  async serve(req: IncomingMessage, res: ServerResponse, token: string | undefined): Promise<void> {
    if (!token) return plain(res, 404, 'Not found');
    const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const a = crypto.createHash('sha256').update(given).digest();
    const b = crypto.createHash('sha256').update(token).digest();
    if (!given || !crypto.timingSafeEqual(a, b)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      return plain(res, 401, 'Unauthorized');
    }
    try {
      const body = await this.registry.metrics();
      res.writeHead(200, { 'Content-Type': this.registry.contentType, 'Cache-Control': 'no-store' });
      res.end(body);
    } catch (error) {
      plain(res, 503, `Metrics unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}
