import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import { runsJobs, servesHttp, type AppConfig } from '../../server/src/config.js';
import { withBootLock } from '../../server/src/db/boot-lock.js';
import { openDatabase, type DatabaseHandle } from '../../server/src/db/database.js';
import { initOrm, migrate } from '../../server/src/db/orm.js';
import { resolveJwtSecret } from '../../server/src/modules/auth/token.service.js';
import { DemoSeedService } from '../../server/src/modules/demo/demo-seed.service.js';
import { buildSchema } from '../../server/src/schema/build-schema.js';
import { createMediaStorage, createServices, type ServiceDeps, type Services } from '../../server/src/services.js';
import { createGateway, requestIdOf, securityHeaders } from './app.js';
import { CachedReads } from './cached-reads.js';
import { ChangeFeed } from '../../server/src/core/change-feed.js';
import { CacheKeys } from '../../server/src/core/read-cache.js';
import { createWorkerGateway } from './health.js';
import { createApolloServer } from './graphql.js';

/** The time a client has to send a request's headers. */
export const HEADERS_TIMEOUT_MS = 15_000;
/** The time a client has to send a whole request (a 25 MB upload on a slow line fits). */
export const REQUEST_TIMEOUT_MS = 120_000;

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
  /** Stops taking requests, then closes the ORM, then stops the embedded database. */
  stop(): Promise<void>;
}

/** How often a running process sweeps stale staging files (those older than STALE_STAGING_MS). */
const STAGING_SWEEP_MS = 3600_000;

/**
 * Opens the database and, under the boot lock (processes starting at once take turns), migrates it,
 * settles the signing secret, makes sure there is an admin and adds the demo catalogue once. Then it
 * runs what `APP_ROLE` asks for: HTTP (`web`), the background jobs (`worker`, which serves health
 * checks only), or both (`all`).
 */
export async function startApp(config: AppConfig, log: Logger, deps: Omit<ServiceDeps, 'log'> = {}): Promise<RunningApp> {
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch((error) => log.error({ err: error }, 'shutdown step failed'));
    cleanups.length = 0;
  };
  try {
    const db: DatabaseHandle = await openDatabase(config, (line) => log.debug({ pg: line }));
    cleanups.push(() => db.stop());
    const orm = await initOrm(db.url);
    cleanups.push(() => orm.close());

    const services = await withBootLock(
      db.url,
      async () => {
        const applied = await migrate(orm);
        if (applied.length) log.info({ migrations: applied }, 'migrations applied');
        const storage = deps.storage ?? (await createMediaStorage(config));
        const services = createServices(config, await resolveJwtSecret(config, orm.em.fork()), { ...deps, storage, log });
        await ensureAdmin(services, orm, config, log);
        await new DemoSeedService(services).seedOnStart(config, orm.em.fork(), log);
        return services;
      },
      () => log.info('another process is starting on this database; waiting for it'),
    );
    cleanups.push(async () => services.media.storage.destroy?.());
    // The abuse limits count in the database, through the ORM's own connection pool.
    services.limits.connect(await orm.em.getConnection().getNativeClient());
    // The read cache works only while it hears every process's writes.
    const feed = new ChangeFeed(db.url, services.cache, (sql, params) => orm.em.getConnection().execute(sql, params), log);
    await feed.start();
    cleanups.push(() => feed.stop());
    // What this process wrote before it listened (the demo catalogue, on a first start) reaches the others now.
    await services.cache.changed([CacheKeys.all]);

    await sweepStaging(services, log);
    const sweeper = setInterval(() => void sweepStaging(services, log), STAGING_SWEEP_MS);
    sweeper.unref();
    cleanups.push(async () => {
      clearInterval(sweeper);
      await services.media.closeStaging();
    });

    // New mail queued by a web-only process wakes the processes that send it (no wait for their poll).
    const MAIL_QUEUED = 'mail-queued';
    if (runsJobs(config.appRole)) feed.onSignal(MAIL_QUEUED, () => services.deliveries.kick());
    else services.deliveries.wakeWorkers = () => void feed.signal(MAIL_QUEUED);
    if (runsJobs(config.appRole)) {
      services.deliveries.start(orm, config.deliveryPollSeconds);
      cleanups.push(() => services.deliveries.stop());
    }

    let app: http.RequestListener;
    let gateway: http.RequestListener | null = null;
    let cachedReads: CachedReads | null = null;
    if (servesHttp(config.appRole)) {
      const apollo = createApolloServer(buildSchema(services), { introspection: config.graphqlIntrospection, log });
      await apollo.start();
      cleanups.push(() => apollo.stop());
      const express = createGateway({ config, orm, services, apollo, log });
      gateway = express;
      // Anonymous reads already in the read cache are answered before Express (same bytes, same headers).
      const fast = new CachedReads(services.cache, securityHeaders(config), requestIdOf, log);
      fast.start();
      cleanups.push(async () => fast.stop());
      cachedReads = fast;
      app = (req, res) => {
        if (!fast.handle(req, res)) express(req, res);
      };
    } else {
      app = createWorkerGateway(orm, services.media.storage);
    }
    const server = http.createServer(
      {
        // A client has this long to send its headers, and its whole request (uploads included).
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
      },
      app,
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    cleanups.push(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    const url = `http://localhost:${port}`;
    log.info({ url, role: config.appRole, media: services.media.storage.kind, startupMs: Math.round(process.uptime() * 1000) }, 'Art & Song Cards is listening');
    return { url, port, orm, services, server, gateway, cachedReads, stop: cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function ensureAdmin(services: Services, orm: MikroORM, config: AppConfig, log: Logger): Promise<void> {
  const admin = await services.auth.ensureAdmin(orm.em.fork(), config.admin);
  if (!admin.created) return;
  log.info({ username: config.admin.username }, 'admin user created');
  if (admin.generatedPassword) {
    // Printed once, on the console only: it is never stored anywhere in clear text.
    process.stdout.write(
      `\n  Admin account created: username "${config.admin.username}", password "${admin.generatedPassword}"\n  Keep it safe; it will not be shown again.\n\n`,
    );
  }
}

async function sweepStaging(services: Services, log: Logger): Promise<void> {
  try {
    const removed = await services.media.sweepStaging();
    if (removed) log.info({ files: removed }, 'stale half-received uploads removed');
  } catch (error) {
    log.warn({ err: error }, 'could not sweep the upload staging folder');
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
