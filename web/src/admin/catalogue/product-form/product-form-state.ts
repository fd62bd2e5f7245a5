import type { MessageLocation, PickedMediaFieldsFragment, ProductFormFieldsFragment, ProductInput, ProductStatus } from '../../../apollo/generated/graphql';
import { E_GREETING_CARD_TYPE_ID, IMAGE_SLOTS as CARD_IMAGE_SLOTS, SONG_SLOTS as CARD_SONG_SLOTS, slotLabel, type ImageSlot, type SongSlot } from '@rules';
import { TRANSLATION_LOCALES, type TranslationLocale } from '@rules/schemas';
import { DEFAULT_PICKER_FONT, NEW_CARD_FONT } from '../../../common/fonts/font-types';

/** The type whose products carry greeting-card data (seed: sent only for type 1). */
export const E_GREETING_CARD_TYPE = E_GREETING_CARD_TYPE_ID;

export type PickedMedia = PickedMediaFieldsFragment;

export type { ImageSlot, SongSlot };
export type CardSlot = ImageSlot | SongSlot;

export const IMAGE_SLOTS: readonly { slot: ImageSlot; label: string }[] = CARD_IMAGE_SLOTS.map((slot) => ({ slot, label: slotLabel(slot) }));

export const SONG_SLOTS: readonly { slot: SongSlot; label: string }[] = CARD_SONG_SLOTS.map((slot) => ({ slot, label: slotLabel(slot) }));

const ALL_SLOTS: readonly CardSlot[] = [...IMAGE_SLOTS.map((s) => s.slot), ...SONG_SLOTS.map((s) => s.slot)];

/** What the product form holds while it is edited. */
export interface ProductFormState {
  name: string;
  price: string;
  /** The regular price of a product on sale (struck through in the shop); empty for none. */
  compareAtPrice: string;
  /** Shoppers see ACTIVE products only. */
  status: ProductStatus;
  description: string;
  sku: string;
  tags: string[];
  mainImage: PickedMedia | null;
  associatedImages: PickedMedia[];
  messageLocation: MessageLocation;
  fontName: string;
  /** A card's default message, in English. */
  defaultMessage: string;
  media: Record<CardSlot, PickedMedia | null>;
  /** The content in the other languages; an empty field is not translated (the English is shown). */
  translations: Record<TranslationLocale, TranslatedContent>;
}

export type { TranslationLocale };

export interface TranslatedContent {
  name: string;
  description: string;
  defaultMessage: string;
}

const noTranslations = (): Record<TranslationLocale, TranslatedContent> =>
  Object.fromEntries(TRANSLATION_LOCALES.map((locale) => [locale, { name: '', description: '', defaultMessage: '' }])) as Record<TranslationLocale, TranslatedContent>;

const noMedia = (): Record<CardSlot, PickedMedia | null> => Object.fromEntries(ALL_SLOTS.map((slot) => [slot, null])) as Record<CardSlot, PickedMedia | null>;

/** A new product: empty, and for a card the Roboto font in the middle of the greeting. */
export function emptyProductForm(): ProductFormState {
  return {
    name: '',
    price: '',
    compareAtPrice: '',
    status: 'ACTIVE',
    description: '',
    sku: '',
    tags: [],
    mainImage: null,
    associatedImages: [],
    messageLocation: 'MIDDLE_CENTER',
    fontName: NEW_CARD_FONT,
    defaultMessage: '',
    media: noMedia(),
    translations: noTranslations(),
  };
}

/** A loaded product; a card that has no font shows Open Sans. */
export function productFormFrom(product: ProductFormFieldsFragment): ProductFormState {
  const card = product.eGreetingCard;
  const media = noMedia();
  if (card) for (const slot of ALL_SLOTS) media[slot] = card[slot] ?? null;
  return {
    name: product.name,
    // The form edits the prices the admin set, not a running sale's.
    price: product.regularPrice,
    compareAtPrice: product.regularCompareAtPrice ?? '',
    status: product.status,
    description: product.description,
    sku: product.sku ?? '',
    tags: [...product.tags],
    mainImage: product.mainImage ?? null,
    associatedImages: [...product.associatedImages],
    messageLocation: card?.messageLocation ?? 'MIDDLE_CENTER',
    fontName: card?.fontName || DEFAULT_PICKER_FONT,
    defaultMessage: card?.defaultMessage ?? '',
    media,
    translations: { ...noTranslations(), ...Object.fromEntries((product.translations ?? []).map(({ locale, name, description, defaultMessage }) => [locale, { name, description, defaultMessage }])) },
  };
}

/** The input the server saves; greeting-card data only for the e-greeting card type. */
export function toProductInput(state: ProductFormState, target: { categoryId: number; productTypeId: number }): ProductInput {
  const input: ProductInput = {
    name: state.name.trim(),
    price: state.price.trim(),
    compareAtPrice: state.compareAtPrice.trim() || null,
    status: state.status,
    categoryId: target.categoryId,
    productTypeId: target.productTypeId,
    description: state.description,
    sku: state.sku.trim() || null,
    tags: state.tags,
    mainImageId: state.mainImage?.id ?? null,
    associatedImageIds: state.associatedImages.map((image) => image.id),
    translations: TRANSLATION_LOCALES.map((locale) => ({ locale, ...state.translations[locale] })),
  };
  if (target.productTypeId === E_GREETING_CARD_TYPE) {
    input.eGreetingCard = {
      messageLocation: state.messageLocation,
      fontName: state.fontName,
      defaultMessage: state.defaultMessage,
      ...Object.fromEntries(ALL_SLOTS.map((slot) => [`${slot}Id`, state.media[slot]?.id ?? null])),
    };
  }
  return input;
}
