import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import { servesHttp, type AppConfig } from '../../server/src/config.js';
import { startRuntime } from '../../server/src/runtime.js';
import { buildSchema } from '../../server/src/schema/build-schema.js';
import type { ServiceDeps, Services } from '../../server/src/services.js';
import { createGateway } from './app.js';
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
  /** Stops taking requests, then closes the ORM, then stops the embedded database. */
  stop(): Promise<void>;
}

/**
 * Starts the back end (see `startRuntime`: database, migrations, admin, demo catalogue, change feed,
 * jobs where `APP_ROLE` runs them) and serves what `APP_ROLE` asks for over HTTP: the shop (`web`,
 * `all`) or health checks only (`worker`).
 */
export async function startApp(config: AppConfig, log: Logger, deps: Omit<ServiceDeps, 'log'> = {}): Promise<RunningApp> {
  const runtime = await startRuntime(config, log, deps);
  const { orm, services } = runtime;
  try {
    let app: http.RequestListener;
    if (servesHttp(config.appRole)) {
      const apollo = createApolloServer(buildSchema(services), { introspection: config.graphqlIntrospection, log });
      await apollo.start();
      runtime.onStop(() => apollo.stop());
      app = createGateway({ config, orm, services, apollo, log });
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
    runtime.onStop(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    const url = `http://localhost:${port}`;
    log.info({ url, role: config.appRole, media: services.media.storage.kind, startupMs: Math.round(process.uptime() * 1000) }, 'Art & Song Cards is listening');
    return { url, port, orm, services, server, stop: runtime.stop };
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
