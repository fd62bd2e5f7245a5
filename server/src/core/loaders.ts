import DataLoader from 'dataloader';
import { wrap, type EntityClass } from '@mikro-orm/core';
import type { RequestContext } from './context.js';

/**
 * Request-scoped batch loaders: every lookup made by the field resolvers of one request in the same
 * tick goes out as one query, so a page costs the same number of queries whatever its size.
 */
const perRequest = new WeakMap<RequestContext, Map<unknown, DataLoader<unknown, unknown>>>();

/**
 * The loader `key` of this request, made on first use. `load` answers a batch of keys with a map;
 * a key missing from the map loads as null.
 */
export function requestLoader<K, V>(ctx: RequestContext, key: unknown, load: (keys: readonly K[]) => Promise<Map<K, V>>): DataLoader<K, V | null> {
  let loaders = perRequest.get(ctx);
  if (!loaders) perRequest.set(ctx, (loaders = new Map()));
  let loader = loaders.get(key) as DataLoader<K, V | null> | undefined;
  if (!loader) {
    loader = new DataLoader<K, V | null>(async (keys) => {
      const found = await load(keys);
      return keys.map((k) => found.get(k) ?? null);
    });
    loaders.set(key, loader as DataLoader<unknown, unknown>);
  }
  return loader;
}

/** Entities of one class by id, batched per request. */
export function entityLoader<T extends { id: number }>(ctx: RequestContext, entity: EntityClass<T>): DataLoader<number, T | null> {
  return requestLoader<number, T>(ctx, entity, async (ids) => {
    const rows = (await ctx.em.find(entity, { id: { $in: [...ids] } } as never)) as T[];
    return new Map(rows.map((row) => [row.id, row]));
  });
}

/**
 * A many-to-one reference, loaded: as it is when the query that read its owner populated it,
 * otherwise through the batched loader of its class.
 */
export async function loadRef<T extends { id: number }>(ctx: RequestContext, entity: EntityClass<T>, ref: T | null | undefined): Promise<T | null> {
  if (!ref) return null;
  if (wrap(ref).isInitialized()) return ref;
  return entityLoader(ctx, entity).load(ref.id);
}
