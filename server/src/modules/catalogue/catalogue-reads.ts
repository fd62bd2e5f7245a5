import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonColumn } from '../../db/json-column.js';
import { preparedRead, runPrepared } from '../../db/prepared.js';
import { CARD_MEDIA_SLOTS, slotStem } from './e-greeting-card.entity.js';
import { E_GREETING_CARD_TYPE_ID } from './product-type.entity.js';
import type { Locale } from '../../rules/locales.js';

/**
 * The storefront's hot reads in their REST shapes, each one SQL query that builds the JSON in
 * PostgreSQL (a prepared statement, planned once per connection): no entities are hydrated. The indexes they walk (product by id, product by category
 * and sort name, product_image by product and position, the category table) keep each read's cost
 * independent of the catalogue's size. The JSON goes through JSON.stringify once, so its bytes are
 * the ones the entity-based answers had.
 */

const cardSlots = CARD_MEDIA_SLOTS.map((slot) => slotStem(slot));

const PRODUCT_DETAIL = preparedRead('product_detail', `
select json_build_object(
  'product', json_build_object(
    'id', p.id, 'name', coalesce(nullif(tr.name, ''), p.name), 'description', coalesce(nullif(tr.description, ''), p.description), 'sku', p.sku, 'price', p.shop_price::float8, 'compare_at_price', p.shop_compare_at::float8, 'status', p.status,
    'category_id', p.category_id, 'product_type_id', p.product_type_id, 'main_image_id', p.main_image_id),
  'main_image_path', mi.file_path,
  'tags', p.tags,
  'associated_images', coalesce((
    select json_agg(json_build_object('media_id', f.id, 'file_path', f.file_path, 'friendly_name', f.friendly_name) order by pi.position)
    from product_image pi join media_file f on f.id = pi.file_id where pi.product_id = p.id), '[]'::json),
  'translations', coalesce((
    select json_agg(json_build_object('locale', t.locale, 'name', t.name, 'description', t.description, 'default_message', t.default_message) order by t.locale)
    from product_translation t where t.product_id = p.id), '[]'::json),
  'e_greeting_card_data', case when p.product_type_id = ${E_GREETING_CARD_TYPE_ID} and c.product_id is not null then json_build_object(
    'message_location', c.message_location, 'font_name', c.font_name, 'default_message', coalesce(nullif(tr.default_message, ''), c.default_message),
    ${cardSlots.map((stem) => `'${stem}_id', c.${stem}_id, '${stem}_path', (select file_path from media_file where id = c.${stem}_id)`).join(',\n    ')}) end
) as json
from product p
left join media_file mi on mi.id = p.main_image_id
left join e_greeting_card c on c.product_id = p.id
left join product_translation tr on tr.product_id = p.id and tr.locale = $3
where p.id = $1 and ($2::boolean or p.status = 'active')`);

const CATEGORY_PRODUCTS = preparedRead('category_products', `
select exists (select 1 from category where id = $1) as found, coalesce((
  select json_agg(json_build_object('id', p.id, 'name', coalesce(nullif(t.name, ''), p.name), 'description', coalesce(nullif(t.description, ''), p.description), 'main_image_path', f.file_path) order by p.sort_name, p.id)
  from product p left join media_file f on f.id = p.main_image_id left join product_translation t on t.product_id = p.id and t.locale = $2
  where p.category_id = $1 and p.status = 'active'), '[]'::json) as json`);

const CATEGORY_TREE = preparedRead('category_tree', `
select coalesce(json_agg(json_build_object('id', c.id, 'parent_id', c.parent_id, 'name', c.name, 'media_id', c.media_id) order by c.name, c.id), '[]'::json) as json
from category c`);

const asJson = (value: unknown): string => JSON.stringify(jsonColumn(value));

/**
 * The REST detail of a product (`GET /api/products/{id}?lang=`), its name, description and default
 * message in `locale` (English where not translated), or null when there is none (or it is not in
 * the shop, unless `anyStatus`).
 */
export async function productDetailJson(em: EntityManager, id: number, locale: Locale, anyStatus = false): Promise<string | null> {
  const [row] = await runPrepared<{ json: unknown }>(em, PRODUCT_DETAIL, [id, anyStatus, locale]);
  return row ? asJson(row.json) : null;
}

/** Every product in the shop of a category by name, in `locale` (`GET /api/products/category/{id}?lang=`), or null when the category does not exist. */
export async function categoryProductsJson(em: EntityManager, categoryId: number, locale: Locale): Promise<string | null> {
  const [row] = await runPrepared<{ found: boolean; json: unknown }>(em, CATEGORY_PRODUCTS, [categoryId, locale]);
  return row?.found ? asJson(row.json) : null;
}

/** The whole category tree as a flat list by name (`GET /api/categories/all`). */
export async function categoryTreeJson(em: EntityManager): Promise<string> {
  const [row] = await runPrepared<{ json: unknown }>(em, CATEGORY_TREE, []);
  return asJson(row!.json);
}
