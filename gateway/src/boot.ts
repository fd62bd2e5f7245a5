import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppConfig } from '../../server/src/config.js';
import { openDatabase, type DatabaseHandle } from '../../server/src/db/database.js';
import { initOrm, migrate } from '../../server/src/db/orm.js';
import { resolveJwtSecret } from '../../server/src/modules/auth/token.service.js';
import { DemoSeedService } from '../../server/src/modules/demo/demo-seed.service.js';
import { buildSchema } from '../../server/src/schema/build-schema.js';
import { createServices, type ServiceDeps, type Services } from '../../server/src/services.js';
import { createGateway } from './app.js';
import { createApolloServer } from './graphql.js';

export interface RunningApp {
  url: string;
  port: number;
  orm: MikroORM;
  services: Services;
  /** Stops taking requests, then closes the ORM, then stops the embedded database. */
  stop(): Promise<void>;
}

/** Opens the database, migrates it, makes sure there is an admin, and serves HTTP. */
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
    const applied = await migrate(orm);
    if (applied.length) log.info({ migrations: applied }, 'migrations applied');

    const services = createServices(config, resolveJwtSecret(config.jwtSecret, config.dataDir), { ...deps, log });
    await services.media.clearStaging();
    const admin = await services.auth.ensureAdmin(orm.em.fork(), config.admin);
    if (admin.created) {
      log.info({ username: config.admin.username }, 'admin user created');
      if (admin.generatedPassword) {
        // Printed once, on the console only: it is never stored anywhere in clear text.
        process.stdout.write(
          `\n  Admin account created: username "${config.admin.username}", password "${admin.generatedPassword}"\n  Keep it safe; it will not be shown again.\n\n`,
        );
      }
    }
    await new DemoSeedService(services).seedOnStart(config, orm.em.fork(), log);

    services.deliveries.start(orm, config.deliveryPollSeconds);
    cleanups.push(() => services.deliveries.stop());

    const apollo = createApolloServer(buildSchema(services), { introspection: config.graphqlIntrospection, log });
    await apollo.start();
    cleanups.push(() => apollo.stop());
    const app = createGateway({ config, orm, services, apollo, log });
    const server = http.createServer(app);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    cleanups.push(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    const url = `http://localhost:${port}`;
    log.info({ url }, 'Art & Song Cards is listening');
    return { url, port, orm, services, stop: cleanup };
  } catch (error) {
    await cleanup();
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
