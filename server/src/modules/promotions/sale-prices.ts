import type { EntityManager } from '@mikro-orm/postgresql';
import { Changes, CacheKeys } from '../../core/read-cache.js';

/** A product whose selling price moved (a sale started, ended or was written). */
export interface RepricedProduct {
  id: number;
  categoryId: number;
}

/**
 * Serialises whatever moves the shop's sale prices (a sale written, a sale's start or end) across
 * every process: two refreshes at once would lock the same products in different orders.
 */
export const SALE_PRICES_LOCK = `select pg_advisory_xact_lock(hashtext('refresh_sale_prices'))`;

/**
 * Moves the products' kept sale prices to the sales running now (see the scheduled-sales migration),
 * in the caller's transaction. `clock` is read once the lock is held: a moment read before waiting for
 * another process's switch would lie behind it and move the shop's prices back.
 */
export async function refreshSalePrices(em: EntityManager, clock: () => Date): Promise<RepricedProduct[]> {
  await em.execute(SALE_PRICES_LOCK);
  const rows = await em.execute<{ changed_id: number; changed_category_id: number }[]>('select * from refresh_sale_prices(?)', [clock()]);
  return rows.map((row) => ({ id: Number(row.changed_id), categoryId: Number(row.changed_category_id) }));
}

/** Past this many repriced products a change drops the catalogue's reads and pages as a whole rather than one by one. */
const ONE_BY_ONE = 200;

/**
 * What a change of sale prices drops from every process's read cache: the repriced products' reads,
 * pages and lists (or the whole catalogue's past ONE_BY_ONE), and the shop's settings with every page
 * when a sale's banner came or went (the announcement bar shows it).
 */
export function salePriceChanges(products: readonly RepricedProduct[], bannerChanged: boolean): string[] {
  const keys = new Set<string>(bannerChanged ? Changes.settings() : []);
  if (products.length > ONE_BY_ONE) {
    for (const key of [CacheKeys.products, CacheKeys.categories, CacheKeys.productPagesAll, CacheKeys.graphql, CacheKeys.shopPages]) keys.add(key);
  } else {
    for (const product of products) for (const key of Changes.product(product.id, [product.categoryId])) keys.add(key);
  }
  return [...keys];
}
