import { OptionalProps, PrimaryKeyProp, type EntityManager } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, OneToOne, Property } from '@mikro-orm/decorators/legacy';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { MediaFile } from '../media/index.js';
import { Product } from './product.entity.js';
import { CARD_MEDIA_SLOTS, IMAGE_SLOTS, MESSAGE_LOCATIONS as SHARED_LOCATIONS, SONG_SLOTS, type CardMediaSlot, type MessageLocationValue } from '../../rules/index.js';

/** Where the personal message sits on the greeting image. */
export enum MessageLocation {
  TOP_LEFT = 'top-left',
  TOP_CENTER = 'top-center',
  TOP_RIGHT = 'top-right',
  MIDDLE_LEFT = 'middle-left',
  MIDDLE_CENTER = 'middle-center',
  MIDDLE_RIGHT = 'middle-right',
  BOTTOM_LEFT = 'bottom-left',
  BOTTOM_RIGHT = 'bottom-right',
}
registerEnumType(MessageLocation, {
  name: 'MessageLocation',
  description: 'Where the personal message sits on the greeting image (there is no bottom centre: the card’s controls sit there).',
  valuesConfig: {
    TOP_LEFT: { description: 'Top left corner.' },
    TOP_CENTER: { description: 'Top, centred.' },
    TOP_RIGHT: { description: 'Top right corner.' },
    MIDDLE_LEFT: { description: 'Middle, on the left.' },
    MIDDLE_CENTER: { description: 'The centre (the default).' },
    MIDDLE_RIGHT: { description: 'Middle, on the right.' },
    BOTTOM_LEFT: { description: 'Bottom left corner.' },
    BOTTOM_RIGHT: { description: 'Bottom right corner.' },
  },
});

/** The placements are the shared rule's (server/src/rules/card.ts): the enum must name the same values. */
export const MESSAGE_LOCATIONS: readonly MessageLocation[] = SHARED_LOCATIONS.map((location) => location as MessageLocation);
type SameValues<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameLocations: SameValues<`${MessageLocation}`, MessageLocationValue> = true;
void sameLocations;

export { CARD_MEDIA_SLOTS, IMAGE_SLOTS, SONG_SLOTS, type CardMediaSlot };

/** The snake_case stem of a slot (`song1` → `song_1`, `coverImage` → `cover_image`): its column is `{stem}_id`. */
export const slotStem = (slot: CardMediaSlot): string => slot.replace(/([A-Z])/g, '_$1').replace(/(\d)/g, '_$1').toLowerCase();

/**
 * What makes a product an e-greeting card: where the message goes, its font, its three songs and its
 * images. Exactly one per product of type 1; a deleted file leaves its slot empty.
 */
@ObjectType('EGreetingCard', { description: 'The card data of an e-greeting card product.' })
@Entity({ tableName: 'e_greeting_card' })
export class EGreetingCard {
  [PrimaryKeyProp]?: 'product';
  [OptionalProps]?: 'messageLocation' | 'fontName' | 'defaultMessage' | CardMediaSlot;

  @OneToOne(() => Product, { primary: true, owner: true, deleteRule: 'cascade' })
  product!: Product;

  @Field(() => MessageLocation, { description: 'Where the personal message sits on the greeting image.' })
  @Enum({ items: () => MessageLocation, nativeEnumName: 'message_location', type: 'string' })
  messageLocation: MessageLocation = MessageLocation.MIDDLE_CENTER;

  @Field(() => String, { nullable: true, description: 'A family of the font service; null when none was chosen.' })
  @Property({ type: 'string', length: 100, nullable: true })
  fontName: string | null = null;

  /** In English; GraphQL answers it in the language asked (see ProductContentResolver). */
  @Field(() => String, { description: 'The message its personalisation form starts from, in the language asked (English where it is not translated); empty: none.' })
  @Property({ type: 'text', default: '' })
  defaultMessage: string = '';

  @Field(() => MediaFile, { nullable: true, description: 'The first of the card’s songs (an audio file), listed first on its page; null: empty slot.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null', fieldName: 'song_1_id' })
  song1: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'The second song (an audio file); null: empty slot.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null', fieldName: 'song_2_id' })
  song2: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'The third song (an audio file); null: empty slot.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null', fieldName: 'song_3_id' })
  song3: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'The front of the card, which opens onto the greeting image (the product’s main image stands in when null).' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null' })
  coverImage: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'The inside of the card, where the message is written.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null' })
  greetingImage: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'The back of the card, shown when it is turned over; null: a blank back.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null' })
  backImage: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'An extra picture shown below the card on its page; null: empty slot.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null', fieldName: 'extra_image_1_id' })
  extraImage1: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'A second extra picture; null: empty slot.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null', fieldName: 'extra_image_2_id' })
  extraImage2: MediaFile | null = null;

  @Field(() => MediaFile, { nullable: true, description: 'A third extra picture; null: empty slot.' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null', fieldName: 'extra_image_3_id' })
  extraImage3: MediaFile | null = null;
}

/**
 * The cards of these products with the file of every media slot, in two plain queries: the cards,
 * then their files by id (which fills in the cards' references). One query joining the nine slots
 * took PostgreSQL longer to plan than to run, at every checkout.
 */
export async function findCardsWithMedia(em: EntityManager, productIds: readonly number[]): Promise<EGreetingCard[]> {
  if (!productIds.length) return [];
  const cards = await em.find(EGreetingCard, { product: { $in: [...productIds] } });
  const fileIds = new Set<number>();
  for (const card of cards) {
    for (const slot of CARD_MEDIA_SLOTS) {
      const file = card[slot];
      if (file) fileIds.add(file.id);
    }
  }
  if (fileIds.size) await em.find(MediaFile, { id: { $in: [...fileIds] } });
  return cards;
}
