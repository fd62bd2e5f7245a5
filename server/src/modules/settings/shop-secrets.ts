import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Secrets the shop keeps in its `setting` table, shared by every process on one database (the token
 * signing secret, the key of unsubscribe links). Other modules read and make them through here.
 */

/** The secret kept under `key`, or null when there is none. */
export async function readSecret(em: EntityManager, key: string): Promise<string | null> {
  const [row] = await em.execute<{ value: string }[]>(`select "value" from "setting" where "key" = ?`, [key]);
  return row?.value ?? null;
}

/** The secret kept under `key`, made from `candidate` when there is none yet (processes racing agree on the first). */
export async function ensureSecret(em: EntityManager, key: string, candidate: string): Promise<string> {
  await em.execute(`insert into "setting" ("key", "value") values (?, ?) on conflict ("key") do nothing`, [key, candidate]);
  return (await readSecret(em, key))!;
}
