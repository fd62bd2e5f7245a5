import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonColumn } from '../../db/json-column.js';
import { idArray, preparedRead, runPrepared } from '../../db/prepared.js';
import { CARD_MEDIA_SLOTS, SONG_SLOTS, slotStem, E_GREETING_CARD_TYPE_ID, Product, ProductStatus, type CardMediaSlot } from '../catalogue/index.js';
import type { CartLine } from './checkout-rules.js';
import type { CardDesign, CardMedia } from '../orders/index.js';

/** What checkout reads of a product it sells: its price and name, and for an e-card its design as sold. */
export interface PricedProduct {
  product: { id: number; name: string; price: string };
  isCard: boolean;
  /** The card's design (its media as they are now); null for anything that is not an e-card. */
  card: CardDesign | null;
}

interface Row {
  id: number;
  name: string;
  price: string;
  type_id: number;
  message_location: string | null;
  font_name: string | null;
  /** The file of each filled slot, by slot. */
  media: Partial<Record<CardMediaSlot, CardMedia>> | null | string;
}

const SLOT_FILES = CARD_MEDIA_SLOTS.map((slot) => `('${slot}', c.${slotStem(slot)}_id)`).join(', ');

const PRICED_PRODUCTS = preparedRead('checkout_priced_products', `
  select p.id, p.name, p.price::text as price, p.product_type_id as type_id, c.message_location, c.font_name,
         (select json_object_agg(s.slot, json_build_object('path', f.file_path, 'name', f.friendly_name, 'mimeType', f.mime_type, 'width', f.width, 'height', f.height))
            from (values ${SLOT_FILES}) as s(slot, file_id)
            join media_file f on f.id = s.file_id) as media
    from product p
    left join e_greeting_card c on c.product_id = p.id and p.product_type_id = ${E_GREETING_CARD_TYPE_ID}
   where p.id = any($1::int[]) and p.status = 'active'`);

/**
 * The products of a checkout with their card designs in one read (the product, its card row and the
 * files of every slot), in the caller's transaction: checkout writes each card's design into its
 * order items and needs no entity of them.
 */
export async function pricedProducts(em: EntityManager, productIds: readonly number[]): Promise<Map<number, PricedProduct>> {
  const ids = [...new Set(productIds.map((id) => Math.trunc(id)))];
  if (!ids.length) return new Map();
  const rows = await runPrepared<Row>(em, PRICED_PRODUCTS, [idArray(ids)]);
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
      return [Number(row.id), { product: { id: Number(row.id), name: row.name, price: row.price }, isCard, card }];
    }),
  );
}

/** The products of the lines (a cart's quote shows them with their images). */
export async function quoteProducts(em: EntityManager, lines: CartLine[]): Promise<Map<number, { product: Product; isCard: boolean }>> {
  const ids = [...new Set(lines.map((line) => line.productId))];
  if (!ids.length) return new Map();
  // A product that left the shop (deleted, a draft, archived) is dropped from the quote.
  const products = await em.find(Product, { id: { $in: ids }, status: ProductStatus.ACTIVE }, { populate: ['mainImage'] });
  return new Map(products.map((product) => [product.id, { product, isCard: product.type.id === E_GREETING_CARD_TYPE_ID }]));
}
