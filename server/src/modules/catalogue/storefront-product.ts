import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonColumn } from '../../db/json-column.js';
import { idArray, preparedRead, runPrepared } from '../../db/prepared.js';
import { MediaFile } from '../media/index.js';
import { CARD_MEDIA_SLOTS, EGreetingCard, slotStem } from './e-greeting-card.entity.js';
import { ProductType } from './product-type.entity.js';
import { Product } from './product.entity.js';

/**
 * A product as the storefront shows it, read in one SQL query: the product, its type, its category's
 * name, its main and associated images and its card data with every file the card uses. The rows are
 * mapped onto the entities (no query building, no further round trip), so GraphQL's field resolvers
 * and the product page read them as they would read populated entities.
 */
export interface StorefrontProduct {
  product: Product;
  /** The associated images, in order. */
  images: MediaFile[];
  /** The card data (e-greeting cards only). */
  card: EGreetingCard | null;
  categoryName: string;
}

const slotColumns = CARD_MEDIA_SLOTS.map((slot) => `g.${slotStem(slot)}_id`).join(', ');

/**
 * Planned once (a generic plan, which cannot know how many ids it is given): each joined row is a
 * lateral key lookup (`limit 1` keeps the planner from turning it into a join that reads every card
 * or category), and the files are read by their ids, so the read costs the same in a shop of any size.
 */
const STOREFRONT_PRODUCTS = preparedRead('storefront_products', `
select p.id, p.name, p.description, p.sku, p.price, p.compare_at_price, p.shop_price, p.shop_compare_at, p.status, p.category_id, p.product_type_id, p.main_image_id, p.tags, p.created_at, p.updated_at,
  cat.name as category_name, t.name as type_name,
  coalesce((select json_agg(pi.file_id order by pi.position) from product_image pi where pi.product_id = p.id), '[]'::json) as image_ids,
  case when g.product_id is null then null else to_json(g) end as card,
  coalesce((select json_agg(f) from media_file f
    where f.id = any(array[p.main_image_id, ${slotColumns}] || array(select file_id from product_image where product_id = p.id))), '[]'::json) as files
from product p
cross join lateral (select name from category where id = p.category_id limit 1) cat
cross join lateral (select name from product_type where id = p.product_type_id limit 1) t
left join lateral (select * from e_greeting_card where product_id = p.id limit 1) g on true
where p.id = any($1::int[])`);

interface Row {
  id: number;
  name: string;
  description: string;
  sku: string | null;
  price: string;
  compare_at_price: string | null;
  shop_price: string;
  shop_compare_at: string | null;
  status: string;
  category_id: number;
  product_type_id: number;
  main_image_id: number | null;
  tags: string[];
  created_at: Date;
  updated_at: Date;
  category_name: string;
  type_name: string;
  image_ids: number[];
  card: Record<string, unknown> | null;
  files: (Record<string, unknown> & { id: number; created_at: string })[];
}

/** The storefront products with these ids (missing ids are absent from the map), in one query. */
export async function loadStorefrontProducts(em: EntityManager, ids: readonly number[]): Promise<Map<number, StorefrontProduct>> {
  const rows = await runPrepared<Row>(em, STOREFRONT_PRODUCTS, [idArray(ids)]);
  const products = new Map<number, StorefrontProduct>();
  for (const row of rows) {
    // Files first: the product's and the card's references then find them in the identity map, loaded.
    const files = new Map<number, MediaFile>();
    for (const file of jsonColumn(row.files)) files.set(file.id, em.map(MediaFile, { ...file, created_at: new Date(file.created_at) } as never));
    em.map(ProductType, { id: row.product_type_id, name: row.type_name } as never);
    const { category_name: categoryName, type_name: _type, image_ids: imageIds, card, files: _files, ...columns } = row;
    const product = em.map(Product, columns as never);
    const cardRow = jsonColumn(card);
    products.set(row.id, {
      product,
      images: jsonColumn(imageIds).map((id) => files.get(id)!),
      card: cardRow ? em.map(EGreetingCard, cardRow as never) : null,
      categoryName,
    });
  }
  return products;
}
