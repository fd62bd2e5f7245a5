import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonColumn } from '../../db/json-column.js';
import { idArray, preparedRead, runPrepared } from '../../db/prepared.js';
import { CARD_MEDIA_SLOTS, SONG_SLOTS, slotStem, E_GREETING_CARD_TYPE_ID, type CardMediaSlot } from '../catalogue/index.js';
import type { CardDesign, CardMedia } from '../orders/index.js';
import { DEFAULT_LOCALE, GIFT_CARD_TYPE_NAME, GIFT_MEMBERSHIP_TYPE_NAME, type Locale } from '../../rules/index.js';

/** What checkout reads of a product it sells: its price and name, and for an e-card its design as sold. */
export interface PricedProduct {
  product: {
    id: number;
    /** Its name in the checkout's language (the English where it has no translation). */
    name: string;
    /** Its own, English, name: what the console searches orders by. */
    englishName: string;
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
  /** A gift card: each line is one card of the amount its personalisation names (no sale prices it). */
  isGiftCard: boolean;
  /** A gift membership: each line gives one period of the plan its personalisation names, at the plan's price. */
  isGiftMembership: boolean;
  /** The plans offered, by id, when it is a gift membership (null otherwise). */
  plans: Map<number, GiftPlan> | null;
  /** The card's design (its media as they are now); null for anything that is not an e-card. */
  card: CardDesign | null;
}

/** A plan a gift membership may give: what it is called, costs and lasts. */
export interface GiftPlan {
  name: string;
  price: string;
  period: 'month' | 'year';
}

interface Row {
  id: number;
  name: string;
  english_name: string;
  price: string;
  compare_at_price: string | null;
  category_id: number;
  sale_id: number | null;
  sale_name: string | null;
  type_id: number;
  gift_card: boolean;
  gift_membership: boolean;
  plans: Record<string, GiftPlan> | null | string;
  message_location: string | null;
  font_name: string | null;
  /** The file of each filled slot, by slot. */
  media: Partial<Record<CardMediaSlot, CardMedia>> | null | string;
}

const SLOT_FILES = CARD_MEDIA_SLOTS.map((slot) => `('${slot}', c.${slotStem(slot)}_id)`).join(', ');

const PRICED_PRODUCTS = preparedRead('checkout_priced_products', `
  select p.id, coalesce(nullif((select pt.name from product_translation pt where pt.product_id = p.id and pt.locale = $3), ''), p.name) as name,
         p.name as english_name, coalesce(rs.sale_price, p.price)::text as price,
         (case when rs.sale_price is not null then p.price else p.compare_at_price end)::text as compare_at_price,
         p.category_id, rs.sale_id, (select name from sale where id = rs.sale_id) as sale_name, p.product_type_id as type_id, c.message_location, c.font_name,
         coalesce(t.type_name = lower('${GIFT_CARD_TYPE_NAME}'), false) as gift_card,
         coalesce(t.type_name = lower('${GIFT_MEMBERSHIP_TYPE_NAME}'), false) as gift_membership,
         case when t.type_name = lower('${GIFT_MEMBERSHIP_TYPE_NAME}') then
           (select json_object_agg(mp.id, json_build_object('name', mp.name, 'price', mp.price::text, 'period', mp.period)) from membership_plan mp where mp.active) end as plans,
         (select json_object_agg(s.slot, json_build_object('path', f.file_path, 'name', f.friendly_name, 'mimeType', f.mime_type, 'width', f.width, 'height', f.height))
            from (values ${SLOT_FILES}) as s(slot, file_id)
            join media_file f on f.id = s.file_id) as media
    from product p
    left join e_greeting_card c on c.product_id = p.id and p.product_type_id = ${E_GREETING_CARD_TYPE_ID}
    left join lateral running_sale_price(p.id, p.category_id, p.price, $2) rs on true
    left join lateral (select lower(name) as type_name from product_type where id = p.product_type_id) t on true
   where p.id = any($1::int[]) and p.status = 'active'`);

/**
 * The products of a checkout with their card designs in one read (the product, its card row and the
 * files of every slot), in the caller's transaction: checkout writes each card's design into its
 * order items and needs no entity of them. Each is priced by the sales running at `at` (the moment
 * the order is placed), exactly: not by the shop's kept sale prices, which follow a start or an end
 * within a moment. Their names are in `locale`, the language the order is bought in.
 */
export async function pricedProducts(em: EntityManager, productIds: readonly number[], at: Date, locale: Locale = DEFAULT_LOCALE): Promise<Map<number, PricedProduct>> {
  const ids = [...new Set(productIds.map((id) => Math.trunc(id)))];
  if (!ids.length) return new Map();
  const rows = await runPrepared<Row>(em, PRICED_PRODUCTS, [idArray(ids), at.toISOString(), locale]);
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
      const isGiftCard = row.gift_card === true;
      const isGiftMembership = row.gift_membership === true;
      const plans = isGiftMembership ? new Map(Object.entries(jsonColumn(row.plans) ?? {}).map(([id, plan]) => [Number(id), plan])) : null;
      // A gift card (or membership) is sold at the amount (or plan) chosen: no sale lowers it and nothing is struck through.
      const product = isGiftCard || isGiftMembership
        ? { id: Number(row.id), name: row.name, englishName: row.english_name, price: row.price, compareAtPrice: null, categoryId: Number(row.category_id), saleId: null, saleName: null }
        : { id: Number(row.id), name: row.name, englishName: row.english_name, price: row.price, compareAtPrice: row.compare_at_price, categoryId: Number(row.category_id), saleId: row.sale_id === null ? null : Number(row.sale_id), saleName: row.sale_name };
      return [Number(row.id), { product, price: product.price, isCard, isGiftCard, isGiftMembership, plans, card }];
    }),
  );
}
