import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../core/errors.js';
import { MediaKind, checkedMediaFiles, type WantedMedia, type MediaUsageProvider } from '../media/index.js';
import { CARD_MEDIA_SLOTS, EGreetingCard, MessageLocation, SONG_SLOTS, slotStem, type CardMediaSlot } from './e-greeting-card.entity.js';
import { Product, ProductImage } from './product.entity.js';
import { E_GREETING_CARD_TYPE_ID } from './product-type.entity.js';
import type { ProductTranslationValues } from '../../rules/schemas.js';

/** The id field of each card media slot, as clients name it (`song1Id`, `coverImageId`, ...). */
export const slotField = (slot: CardMediaSlot) => `${slot}Id`;
export const CARD_FIELD = 'eGreetingCard';

/** Card data as cleaned from a client: a key left out keeps its value, null clears it. */
export type CleanCard = Partial<Record<CardMediaSlot, number | null>> & { messageLocation?: MessageLocation; fontName?: string | null; defaultMessage?: string };

/** What a product points at, as cleaned from a client (undefined keeps the current value). */
export interface ProductReferences {
  mainImageId?: number | null;
  associatedImageIds?: number[];
  card?: CleanCard | null;
  /** Every translation the product has from now on (undefined keeps them). */
  translations?: ProductTranslationValues[];
}

/**
 * Sets the main image, the associated images and the card data, checking every referenced file in
 * one query: it must exist, images must be images and songs must be audio.
 */
export async function applyProductReferences(em: EntityManager, product: Product, fields: ProductReferences, existingCard: EGreetingCard | null): Promise<void> {
  const isCard = product.type.id === E_GREETING_CARD_TYPE_ID;
  if (fields.card && !isCard) throw badInput('Greeting-card data belongs to e-greeting cards (product type 1) only.', CARD_FIELD);

  const wanted = new Map<string, WantedMedia>();
  if (fields.mainImageId) wanted.set('mainImageId', { id: fields.mainImageId, kind: MediaKind.IMAGE });
  fields.associatedImageIds?.forEach((id, i) => wanted.set(`associatedImageIds.${i}`, { id, kind: MediaKind.IMAGE }));
  for (const slot of CARD_MEDIA_SLOTS) {
    const id = fields.card?.[slot];
    if (id) wanted.set(`${CARD_FIELD}.${slotField(slot)}`, { id, kind: (SONG_SLOTS as readonly string[]).includes(slot) ? MediaKind.AUDIO : MediaKind.IMAGE });
  }
  const files = await checkedMediaFiles(em, wanted);

  if (fields.mainImageId !== undefined) product.mainImage = fields.mainImageId === null ? null : files.get(fields.mainImageId)!;
  product.searchText = [product.name, product.description, ...product.tags].join(' ').toLowerCase();
  await em.flush(); // the product needs its id before its images and card point at it

  if (fields.associatedImageIds !== undefined) {
    await em.nativeDelete(ProductImage, { product: product.id });
    fields.associatedImageIds.forEach((id, position) => em.create(ProductImage, { product, file: files.get(id)!, position }));
  }

  if (!isCard) {
    if (existingCard) em.remove(existingCard);
  } else {
    const card = existingCard ?? em.create(EGreetingCard, { product });
    if (fields.card) {
      if (fields.card.messageLocation !== undefined) card.messageLocation = fields.card.messageLocation;
      if (fields.card.fontName !== undefined) card.fontName = fields.card.fontName;
      if (fields.card.defaultMessage !== undefined) card.defaultMessage = fields.card.defaultMessage;
      for (const slot of CARD_MEDIA_SLOTS) {
        const id = fields.card[slot];
        if (id !== undefined) card[slot] = id === null ? null : files.get(id)!;
      }
    } else if (fields.card === null) {
      Object.assign(card, { messageLocation: MessageLocation.MIDDLE_CENTER, fontName: null, defaultMessage: '' }, Object.fromEntries(CARD_MEDIA_SLOTS.map((s) => [s, null])));
    }
  }
  await em.flush();
  if (fields.translations !== undefined) await replaceTranslations(em, product.id, fields.translations);
}

/** A product's translations as they are now (plain rows: the writer compares and replaces them). */
export async function currentTranslations(em: EntityManager, productId: number): Promise<ProductTranslationValues[]> {
  return em.execute<ProductTranslationValues[]>(`select locale, name, description, default_message as "defaultMessage" from product_translation where product_id = ? order by locale`, [productId]);
}

/** Gives a product exactly these translations (in the caller's transaction). */
async function replaceTranslations(em: EntityManager, productId: number, translations: readonly ProductTranslationValues[]): Promise<void> {
  await em.execute(`delete from product_translation where product_id = ?`, [productId]);
  if (!translations.length) return;
  await em.execute(
    `insert into product_translation (product_id, locale, name, description, default_message) values ${translations.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    translations.flatMap((t) => [productId, t.locale, t.name, t.description, t.defaultMessage]),
  );
}

/** Which products use the given files (main image, associated image, card): for the media library. */
export const productMediaUsages: MediaUsageProvider = async (ctx, fileIds) => {
  const rows = await ctx.em.execute<{ file_id: number; id: number; name: string }[]>(
    `select distinct u.file_id, p.id, p.name from (
       select id as product_id, main_image_id as file_id from product where main_image_id in (${fileIds.map(() => '?').join(',')})
       union all select product_id, file_id from product_image where file_id in (${fileIds.map(() => '?').join(',')})
       union all select product_id, unnest(array[${CARD_MEDIA_SLOTS.map((s) => `${slotStem(s)}_id`).join(', ')}]) from e_greeting_card
     ) u join product p on p.id = u.product_id where u.file_id in (${fileIds.map(() => '?').join(',')})`,
    [...fileIds, ...fileIds, ...fileIds],
  );
  return rows.map((row) => ({ fileId: Number(row.file_id), kind: 'product', id: Number(row.id), label: row.name }));
};
