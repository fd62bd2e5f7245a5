import { MikroORM, defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../entities.js';
import { migrationsList } from '../../../migrations/index.js';

export function ormConfig(clientUrl: string, options: { debug?: boolean } = {}) {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    // Relations in field resolvers are batched into one query per relation and request.
    dataloader: true,
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
  });
}

export async function initOrm(clientUrl: string): Promise<MikroORM> {
  return MikroORM.init(ormConfig(clientUrl));
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
