import pg from 'pg';

/** One lock for the whole start-up of every process of one shop (migrations, secrets, admin, demo). */
const BOOT_LOCK = 'art-and-song-cards:boot';

/**
 * Runs `work` while holding a PostgreSQL session advisory lock on a connection of its own, so that
 * processes starting at once on one database take turns: the first migrates and bootstraps, the
 * others wait, then find everything done. The lock goes with the connection, also when the
 * process dies while holding it.
 */
export async function withBootLock<T>(databaseUrl: string, work: () => Promise<T>, onWait?: () => void): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'art-and-song-cards boot' });
  client.on('error', () => {}); // a dropped connection surfaces as a failed query below
  await client.connect();
  try {
    const [{ locked }] = (await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [BOOT_LOCK])).rows;
    if (!locked) {
      onWait?.();
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [BOOT_LOCK]);
    }
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [BOOT_LOCK]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}
