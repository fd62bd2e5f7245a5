import { MikroORM, defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../entities.js';
import { migrationsList } from '../../../migrations/index.js';

/** How long taking a new connection may wait for PostgreSQL. */
export const DB_CONNECT_TIMEOUT_MS = 5_000;
/** The longest a single SQL statement may run (PostgreSQL cancels it). */
export const DB_STATEMENT_TIMEOUT_MS = 30_000;

export function ormConfig(clientUrl: string, options: { debug?: boolean } = {}) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    // Relations read by field resolvers are batched by the request's own loaders (ctx.loader), not by the ORM.
    // Pages of data are read through request-scoped forks; the global manager is never used directly.
    allowGlobalContext: false,
    debug: options.debug ?? false,
    migrations: {
      path: 'migrations',
      pathTs: 'migrations',
      migrationsList,
      snapshot: false,
      silent: true,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: 10 },
    driverOptions: {
      // An unreachable database fails a request within seconds (answered 503) instead of hanging it,
      // and no statement can hold a connection for long.
      connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS,
      statement_timeout: DB_STATEMENT_TIMEOUT_MS,
      // The storefront's prepared reads (db/prepared.ts) are planned once per connection: left to
      // choose, PostgreSQL planned a read of `id = any($1)` afresh every time, which took longer
      // than running it. Only named statements are affected (the ORM sends its queries as text).
      options: '-c plan_cache_mode=force_generic_plan',
      keepAlive: true,
    },
  });
}

export async function initOrm(clientUrl: string): Promise<MikroORM> {
  return MikroORM.init(ormConfig(clientUrl));
}

/**
 * Applies every pending migration; returns the names applied. A database that has them all (every
 * start but the first after an upgrade) is recognised with one query, without the migrator's set-up.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  if (await allApplied(orm)) return [];
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

async function allApplied(orm: MikroORM): Promise<boolean> {
  const [{ table }] = await orm.em.getConnection().execute<{ table: string | null }[]>(`select to_regclass('mikro_orm_migrations')::text as "table"`);
  if (!table) return false;
  const rows = await orm.em.getConnection().execute<{ name: string }[]>('select name from mikro_orm_migrations');
  const executed = new Set(rows.map((row) => row.name));
  return migrationsList.every((migration) => executed.has(migration.name));
}
