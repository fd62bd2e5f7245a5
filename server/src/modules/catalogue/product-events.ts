import type { EntityManager } from '@mikro-orm/postgresql';
import { isoTimeSql } from '../../db/iso-time.js';
import type { WebhookData, WebhookEvents } from '../webhooks/index.js';

/**
 * A product as the shop's webhook events show it (`{product: {...}}`), built in PostgreSQL from its
 * row: the same shape whether it was created, changed alone or in bulk, or is about to be deleted.
 */
const PRODUCT_JSON = `json_build_object(
    'id', p.id, 'name', p.name, 'description', p.description, 'sku', p.sku, 'status', p.status,
    'price', p.price::text, 'compare_at_price', p.compare_at_price::text, 'category_id', p.category_id,
    'product_type_id', p.product_type_id, 'tags', p.tags,
    'created_at', ${isoTimeSql('p.created_at')}, 'updated_at', ${isoTimeSql('p.updated_at')})`;

async function productData(em: EntityManager, where: string, ids: readonly number[]): Promise<WebhookData[]> {
  if (!ids.length) return [];
  const rows = await em.execute<{ product: WebhookData }[]>(`select ${PRODUCT_JSON} as product from product p where ${where} = any(?::int[]) order by p.id`, [`{${ids.join(',')}}`]);
  return rows.map((row) => ({ product: row.product }));
}

/** Tells the endpoints of products created, changed or about to be deleted, in the caller's transaction (read only when some endpoint takes the event). */
export function emitProducts(webhooks: WebhookEvents, em: EntityManager, type: 'product.created' | 'product.updated' | 'product.deleted', ids: readonly number[]): Promise<void> {
  return webhooks.emit(em, type, () => productData(em, 'p.id', ids));
}

/** Tells the endpoints of the products of categories about to be deleted with them. */
export function emitProductsOfCategories(webhooks: WebhookEvents, em: EntityManager, categoryIds: readonly number[]): Promise<void> {
  return webhooks.emit(em, 'product.deleted', () => productData(em, 'p.category_id', categoryIds));
}
