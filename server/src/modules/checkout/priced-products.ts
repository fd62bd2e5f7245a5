import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonColumn } from '../../db/json-column.js';
import { idArray, preparedRead, runPrepared } from '../../db/prepared.js';
import { CARD_MEDIA_SLOTS, SONG_SLOTS, slotStem, E_GREETING_CARD_TYPE_ID, Product, ProductStatus, type CardMediaSlot } from '../catalogue/index.js';
import type { CartLine } from './checkout-rules.js';
import type { CardDesign, CardMedia } from '../orders/index.js';

/** What checkout reads of a product it sells: its price and name, and for an e-card its design as sold. */
export interface PricedProduct {
  product: {
    id: number;
    name: string;
    /** What it sells for at the moment of the checkout (a running sale's price, or its own). */
    price: string;
    /** The price struck through beside it (the regular price during a sale), or null. */
    compareAtPrice: string | null;
    categoryId: number;
    /** The sale that prices it, if any, and its name. */
    saleId: number | null;
    saleName: string | null;
  };
  /** The same as product.price. */
  price: string;
  isCard: boolean;
  /** The card's design (its media as they are now); null for anything that is not an e-card. */
  card: CardDesign | null;
}

interface Row {
  id: number;
  name: string;
  price: string;
  compare_at_price: string | null;
  category_id: number;
  sale_id: number | null;
  sale_name: string | null;
  type_id: number;
  message_location: string | null;
  font_name: string | null;
  /** The file of each filled slot, by slot. */
  media: Partial<Record<CardMediaSlot, CardMedia>> | null | string;
}

const SLOT_FILES = CARD_MEDIA_SLOTS.map((slot) => `('${slot}', c.${slotStem(slot)}_id)`).join(', ');

const PRICED_PRODUCTS = preparedRead('checkout_priced_products', `
  select p.id, p.name, coalesce(rs.sale_price, p.price)::text as price,
         (case when rs.sale_price is not null then p.price else p.compare_at_price end)::text as compare_at_price,
         p.category_id, rs.sale_id, (select name from sale where id = rs.sale_id) as sale_name, p.product_type_id as type_id, c.message_location, c.font_name,
         (select json_object_agg(s.slot, json_build_object('path', f.file_path, 'name', f.friendly_name, 'mimeType', f.mime_type, 'width', f.width, 'height', f.height))
            from (values ${SLOT_FILES}) as s(slot, file_id)
            join media_file f on f.id = s.file_id) as media
    from product p
    left join e_greeting_card c on c.product_id = p.id and p.product_type_id = ${E_GREETING_CARD_TYPE_ID}
    left join lateral running_sale_price(p.id, p.category_id, p.price, $2) rs on true
   where p.id = any($1::int[]) and p.status = 'active'`);

/** The prices of products at a moment: the lowest of the sales running then, or their own. */
const PRODUCT_PRICES = preparedRead('checkout_product_prices', `
  select p.id, coalesce(rs.sale_price, p.price)::text as price
    from product p
    left join lateral running_sale_price(p.id, p.category_id, p.price, $2) rs on true
   where p.id = any($1::int[])`);

/**
 * The products of a checkout with their card designs in one read (the product, its card row and the
 * files of every slot), in the caller's transaction: checkout writes each card's design into its
 * order items and needs no entity of them. Each is priced by the sales running at `at` (the moment
 * the order is placed), exactly: not by the shop's kept sale prices, which follow a start or an end
 * within a moment.
 */
export async function pricedProducts(em: EntityManager, productIds: readonly number[], at: Date): Promise<Map<number, PricedProduct>> {
  const ids = [...new Set(productIds.map((id) => Math.trunc(id)))];
  if (!ids.length) return new Map();
  const rows = await runPrepared<Row>(em, PRICED_PRODUCTS, [idArray(ids), at.toISOString()]);
  return new Map(
    rows.map((row) => {
      const isCard = Number(row.type_id) === E_GREETING_CARD_TYPE_ID;
      const media = jsonColumn(row.media) ?? {};
      const filled = (slots: readonly CardMediaSlot[]) => slots.map((slot) => media[slot]).filter((item): item is CardMedia => item !== undefined);
      const card: CardDesign | null =
        isCard && row.message_location !== null
          ? {
              messageLocation: row.message_location,
              fontName: row.font_name,
              cover: media.coverImage ?? null,
              greeting: media.greetingImage ?? null,
              back: media.backImage ?? null,
              extras: filled(['extraImage1', 'extraImage2', 'extraImage3']),
              songs: filled(SONG_SLOTS),
            }
          : null;
      const product = { id: Number(row.id), name: row.name, price: row.price, compareAtPrice: row.compare_at_price, categoryId: Number(row.category_id), saleId: row.sale_id === null ? null : Number(row.sale_id), saleName: row.sale_name };
      return [Number(row.id), { product, price: row.price, isCard, card }];
    }),
  );
}

/** The products of the lines (a cart's quote shows them with their images), priced at `at` as checkout prices them. */
export async function quoteProducts(em: EntityManager, lines: CartLine[], at: Date): Promise<Map<number, { product: Product; isCard: boolean; price: string }>> {
  const ids = [...new Set(lines.map((line) => line.productId))];
  if (!ids.length) return new Map();
  // A product that left the shop (deleted, a draft, archived) is dropped from the quote.
  const [products, prices] = await Promise.all([
    em.find(Product, { id: { $in: ids }, status: ProductStatus.ACTIVE }, { populate: ['mainImage'] }),
    runPrepared<{ id: number; price: string }>(em, PRODUCT_PRICES, [idArray(ids), at.toISOString()]),
  ]);
  const priceOf = new Map(prices.map((row) => [Number(row.id), row.price]));
  return new Map(products.map((product) => [product.id, { product, isCard: product.type.id === E_GREETING_CARD_TYPE_ID, price: priceOf.get(product.id) ?? product.price }]));
}
