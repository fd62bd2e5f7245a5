import type { EntityManager } from '@mikro-orm/postgresql';
import { E_GREETING_CARD_TYPE_ID } from '../catalogue/product-type.entity.js';
import type { CardDesign, CardMedia } from '../orders/card-design.js';

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
  media: Partial<Record<'cover' | 'greeting' | 'back' | 'extra1' | 'extra2' | 'extra3' | 'song1' | 'song2' | 'song3', CardMedia>> | null;
}

/**
 * The products of a checkout with their card designs in one read (the product, its card row and the
 * files of every slot), in the caller's transaction: checkout writes each card's design into its
 * order items and needs no entity of them.
 */
export async function pricedProducts(em: EntityManager, productIds: readonly number[]): Promise<Map<number, PricedProduct>> {
  const ids = [...new Set(productIds.map((id) => Math.trunc(id)))];
  if (!ids.length) return new Map();
  const rows = await em.execute<Row[]>(
    `select p.id, p.name, p.price::text as price, p.product_type_id as type_id, c.message_location, c.font_name,
            (select json_object_agg(s.slot, json_build_object('path', f.file_path, 'name', f.friendly_name, 'mimeType', f.mime_type, 'width', f.width, 'height', f.height))
               from (values ('cover', c.cover_image_id), ('greeting', c.greeting_image_id), ('back', c.back_image_id),
                            ('extra1', c.extra_image_1_id), ('extra2', c.extra_image_2_id), ('extra3', c.extra_image_3_id),
                            ('song1', c.song_1_id), ('song2', c.song_2_id), ('song3', c.song_3_id)) as s(slot, file_id)
               join media_file f on f.id = s.file_id) as media
       from product p
       left join e_greeting_card c on c.product_id = p.id and p.product_type_id = ?
      where p.id = any(?::int[])`,
    [E_GREETING_CARD_TYPE_ID, `{${ids.join(',')}}`],
  );
  return new Map(
    rows.map((row) => {
      const isCard = Number(row.type_id) === E_GREETING_CARD_TYPE_ID;
      const media = typeof row.media === 'string' ? (JSON.parse(row.media) as Row['media']) : row.media;
      const m = media ?? {};
      const present = (list: (CardMedia | undefined)[]) => list.filter((item): item is CardMedia => item !== undefined);
      const card: CardDesign | null =
        isCard && row.message_location !== null
          ? {
              messageLocation: row.message_location,
              fontName: row.font_name,
              cover: m.cover ?? null,
              greeting: m.greeting ?? null,
              back: m.back ?? null,
              extras: present([m.extra1, m.extra2, m.extra3]),
              songs: present([m.song1, m.song2, m.song3]),
            }
          : null;
      return [Number(row.id), { product: { id: Number(row.id), name: row.name, price: row.price }, isCard, card }];
    }),
  );
}
