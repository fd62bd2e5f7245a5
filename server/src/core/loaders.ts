import { wrap, type EntityClass } from '@mikro-orm/core';
import type { RequestContext } from './context.js';

/**
 * A many-to-one reference, loaded: as it is when the query that read its owner populated it,
 * otherwise through the request's batch loader of its class (`ctx.loader`), so the references of a
 * whole page are read in one query. Services call it for their field resolvers.
 */
export async function loadRef<T extends { id: number }>(ctx: RequestContext, entity: EntityClass<T>, ref: T | null | undefined): Promise<T | null> {
  if (!ref) return null;
  if (wrap(ref).isInitialized()) return ref;
  const loader = ctx.loader<number, T>(`entity:${entity.name}`, async (ids) => {
    const rows = (await ctx.em.find(entity, { id: { $in: [...ids] } } as never)) as T[];
    return new Map(rows.map((row) => [row.id, row]));
  });
  return loader.load(ref.id);
}

/** Rows of a one-to-many relation grouped by owner, in the order read (a batch loader's answer). */
export function groupBy<K, T, V = T>(rows: readonly T[], keyOf: (row: T) => K, valueOf: (row: T) => V = (row) => row as unknown as V): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(valueOf(row));
    else groups.set(key, [valueOf(row)]);
  }
  return groups;
}
