import type { EntityManager } from '@mikro-orm/postgresql';

/** The time zone an account's browser last said (null until one did): occasion reminders come at 09:00 there. */
export async function accountTimeZone(em: EntityManager, userId: number): Promise<string | null> {
  const [row] = await em.execute<{ time_zone: string | null }[]>('select "time_zone" from "app_user" where "id" = ?', [userId]);
  return row?.time_zone ?? null;
}

/** Keeps a new time zone on the account; answers whether it changed (false when it was the one kept already). */
export async function setAccountTimeZone(em: EntityManager, userId: number, zone: string): Promise<boolean> {
  const changed = await em.execute<{ id: number }[]>('update "app_user" set "time_zone" = ? where "id" = ? and "time_zone" is distinct from ? returning "id"', [zone, userId, zone]);
  return changed.length > 0;
}
