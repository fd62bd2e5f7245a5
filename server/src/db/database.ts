import path from 'node:path';
import type { AppConfig } from '../config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

export interface DatabaseHandle {
  url: string;
  embedded?: EmbeddedDatabase;
  /** Stops the embedded server when there is one; an external database is left alone. */
  stop(): Promise<void>;
}

/** `DATABASE_URL` when given, otherwise an embedded PostgreSQL under `DATA_DIR/pg`. */
export async function openDatabase(config: AppConfig, onLog?: (line: string) => void): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), { onLog });
  await embedded.createDatabase('artsong');
  return { url: embedded.url('artsong'), embedded, stop: () => embedded.stop() };
}
