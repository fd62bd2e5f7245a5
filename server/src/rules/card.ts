/** What makes a product an e-greeting card: its type, its media slots and its message placements. */

/** The built-in product type whose products carry greeting-card data (seed: type 1). */
export const E_GREETING_CARD_TYPE_ID = 1;
/** The built-in product types that the shop's screens rely on; they cannot be deleted. */
export const BUILT_IN_PRODUCT_TYPES = [
  { id: 1, name: 'E-Greeting Card' },
  { id: 2, name: 'Music Album' },
  { id: 3, name: 'Image Collection' },
] as const;
export const BUILT_IN_PRODUCT_TYPE_IDS: ReadonlySet<number> = new Set(BUILT_IN_PRODUCT_TYPES.map((type) => type.id));

/** The song slots of a card, in order, with the form's labels. */
export const SONG_SLOTS = ['song1', 'song2', 'song3'] as const;
/** The image slots of a card. */
export const IMAGE_SLOTS = ['coverImage', 'greetingImage', 'backImage', 'extraImage1', 'extraImage2', 'extraImage3'] as const;
export type SongSlot = (typeof SONG_SLOTS)[number];
export type ImageSlot = (typeof IMAGE_SLOTS)[number];
export type CardMediaSlot = SongSlot | ImageSlot;
export const CARD_MEDIA_SLOTS: readonly CardMediaSlot[] = [...SONG_SLOTS, ...IMAGE_SLOTS];

/** A slot's label in forms: `extraImage1` → "Extra Image 1". */
export const slotLabel = (slot: CardMediaSlot): string =>
  slot.replace(/([A-Z])/g, ' $1').replace(/(\d)/g, ' $1').replace(/^./, (c) => c.toUpperCase());

/** The eight places of the personal message on the greeting image (no bottom centre: the card's controls sit there). */
export const MESSAGE_LOCATIONS = ['top-left', 'top-center', 'top-right', 'middle-left', 'middle-center', 'middle-right', 'bottom-left', 'bottom-right'] as const;
export type MessageLocationValue = (typeof MESSAGE_LOCATIONS)[number];
export const DEFAULT_MESSAGE_LOCATION: MessageLocationValue = 'middle-center';

/** A placement's label in forms: `top-left` → "Top Left". */
export const placementLabel = (location: MessageLocationValue): string => location.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');

/** The GraphQL enum name of a placement: `top-left` → `TOP_LEFT`. */
export const placementEnumName = (location: MessageLocationValue): string => location.toUpperCase().replace('-', '_');

/** A song as shoppers and recipients see it: its file's friendly name without the extension ("Happy Birthday.wav" → "Happy Birthday"). */
export function songTitle(friendlyName: string): string {
  const title = friendlyName.trim().replace(/\.(wav|mp3|m4a|aac|ogg|oga|opus|flac|webm|weba|mp4)$/i, '').trim();
  return title || friendlyName.trim() || 'Song';
}

/** A song's length or position as a player shows it: "2:05", "1:02:05" past an hour; "0:00" when unknown. */
export function playTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const whole = Math.floor(seconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}
