import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import { runsJobs, servesHttp, type AppConfig } from '../../server/src/config.js';
import { startRuntime, type Runtime } from '../../server/src/runtime.js';
import { buildSchema } from '../../server/src/schema/build-schema.js';
import type { ServiceDeps, Services } from '../../server/src/services.js';
import { createGateway, requestIdOf, securityHeaders } from './app.js';
import { CachedReads } from './cached-reads.js';
import { catalogueKey, knownQuota } from './api-rate-limit.js';
import { createWorkerGateway } from './health.js';
import { startBackgroundPages } from './background-pages.js';
import { createApolloServer } from './graphql.js';
import { GraphqlDocuments } from './graphql-cache.js';
import { Metrics } from './metrics.js';
import { RouteTemplates } from './route-templates.js';
import { logSerializers } from './log-serializers.js';

/** The time a client has to send a request's headers. */
export const HEADERS_TIMEOUT_MS = 15_000;
/** The time a client has to send a whole request (a 25 MB upload on a slow line fits). */
export const REQUEST_TIMEOUT_MS = 120_000;
/**
 * How long an idle connection is kept open for the client's next request: longer than the idle
 * timeouts of proxies and HTTP clients (60 s for common load balancers, 4 s for Node's fetch), so
 * that they close an idle connection before the shop does. With Node's 5 s, a client could send a
 * request on a connection the shop was closing at that moment, and get a reset (a proxy answers 502).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface RunningApp {
  url: string;
  port: number;
  orm: MikroORM;
  services: Services;
  server: http.Server;
  /** The Express app alone (no cached-read fast path in front of it), when the process serves HTTP. */
  gateway: http.RequestListener | null;
  /** The cached-read fast path in front of Express, when the process serves HTTP. */
  cachedReads: CachedReads | null;
  /** Moves the shop's prices when a sale starts or ends (a test that moves the clock wakes it). */
  saleClock: Runtime['saleClock'];
  /** Stops taking requests, then closes the ORM, then stops the embedded database. */
  stop(): Promise<void>;
}

/**
 * Starts the back end (see `startRuntime`: database, migrations, admin, demo catalogue, change feed,
 * jobs where `APP_ROLE` runs them) and serves what `APP_ROLE` asks for over HTTP: the shop (`web`,
 * `all`) or health checks only (`worker`).
 */
export async function startApp(config: AppConfig, given: Logger, deps: Omit<ServiceDeps, 'log'> = {}, options: { templates?: RouteTemplates } = {}): Promise<RunningApp> {
  // Every line of the app writes requests, answers and errors the same way, without the secrets of
  // links (see log-serializers.ts), whatever logger it was given. The templates are filled as the
  // gateway mounts its routes (the process's own logger may share them: see createLogger).
  const templates = options.templates ?? new RouteTemplates();
  const log = given.child({}, { serializers: logSerializers(templates) });
  const runtime = await startRuntime(config, log, deps);
  const { orm, services } = runtime;
  try {
    let app: http.RequestListener;
    let gateway: http.RequestListener | null = null;
    let cachedReads: CachedReads | null = null;
    const metrics = new Metrics({ orm, cache: services.cache, mail: services.deliveries.stats, webhooks: services.webhookDeliveries.stats });
    const schema = buildSchema(services);
    // The processes that run the jobs draw the product pages when the catalogue changes (a worker's requests are health checks alone).
    if (runsJobs(config.appRole) && config.backgroundPages) await startBackgroundPages(config, runtime, schema, log);
    if (servesHttp(config.appRole)) {
      const apollo = createApolloServer(schema, { introspection: config.graphqlIntrospection, log });
      await apollo.start();
      runtime.onStop(() => apollo.stop());
      const graphqlDocuments = new GraphqlDocuments(schema);
      const express = createGateway({ config, orm, services, apollo, schema, graphqlDocuments, log, templates });
      gateway = express;
      // Anonymous reads already in the read cache are answered before Express (same bytes, same headers).
      const fast = new CachedReads(services.cache, graphqlDocuments, securityHeaders(config), requestIdOf, log, catalogueKey(services), config.apiRequestLimit ? knownQuota(services, config.trustProxy) : () => []);
      fast.start();
      runtime.onStop(async () => fast.stop());
      runtime.onStop(async () => services.apiRequests.stop());
      cachedReads = fast;
      app = (req, res) => {
        if (req.url === '/metrics' && req.method === 'GET') return void metrics.serve(req, res, config.metricsToken);
        services.foreground.track(req, res);
        metrics.observe(req, res, () => templates.of(req));
        if (!fast.handle(req, res, express)) express(req, res);
      };
    } else {
      const worker = createWorkerGateway(orm, services.media.storage);
      app = (req, res) => {
        if (req.url === '/metrics' && req.method === 'GET') return void metrics.serve(req, res, config.metricsToken);
        worker(req, res);
      };
    }
    const server = http.createServer(
      {
        // A client has this long to send its headers, and its whole request (uploads included).
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
      },
      app,
    );
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    runtime.onStop(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    const url = `http://localhost:${port}`;
    log.info({ url, role: config.appRole, media: services.media.storage.kind, startupMs: Math.round(process.uptime() * 1000) }, 'Art & Song Cards is listening');
    return { url, port, orm, services, server, gateway, cachedReads, saleClock: runtime.saleClock, stop: runtime.stop };
  } catch (error) {
    await runtime.stop();
    throw error;
  }
}

/** Stops accepting connections, lets requests in flight finish, then drops idle keep-alive sockets. */
function closeServer(server: http.Server, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
