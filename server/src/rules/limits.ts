/**
 * The shop's limits, as the server enforces them and the forms show them. Pure values: this folder
 * is imported by the server and by the web client (web/vite.config.ts alias `@rules`).
 */

/** A cart (and an order) holds at most this many lines. */
export const MAX_CART_LINES = 50;
/** Copies of one product on one line. */
export const MAX_QUANTITY = 99;
/** A card's personal message (contract: up to 500 characters). */
export const MAX_MESSAGE_LENGTH = 500;
/** A person's name on a card (recipient, sender). */
export const MAX_PERSON_NAME = 100;
/** A name of a thing (product, category, folder...). */
export const MAX_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PASSWORD_LENGTH = 256;

export const MAX_PRICE = '1000000.00';
export const MAX_TAGS = 30;
export const MAX_TAG_LENGTH = 50;
export const MAX_ASSOCIATED_IMAGES = 20;
export const MAX_DESCRIPTION_LENGTH = 10_000;
export const MAX_SKU_LENGTH = 64;
export const MAX_FONT_NAME_LENGTH = 100;

export const MAX_DISCOUNT_CODE_LENGTH = 40;
export const MAX_DISCOUNT_USES = 1_000_000_000;
/** A scheduled sale's name, its banner, and how many products or categories it may name. */
export const MAX_SALE_NAME_LENGTH = 120;
export const MAX_SALE_BANNER_LENGTH = 200;
export const MAX_SALE_TARGETS = 10_000;

/** A blog post's address. */
export const MAX_SLUG_LENGTH = 100;

/** Files in one upload request. */
export const MAX_FILES_PER_UPLOAD = 20;
/** A media file's or folder's name. */
export const MAX_FILE_NAME_LENGTH = 255;

/** A blog post's title. */
export const MAX_TITLE_LENGTH = 200;
/** An address typed by the author (one made from a title is at most MAX_SLUG_LENGTH). */
export const MAX_TYPED_SLUG_LENGTH = 120;

/** Thank-you replies per sent card. */
export const MAX_REPLIES_PER_CARD = 3;
/** Times a purchaser may send one of their sent cards again from My orders (an admin's resends are not counted). */
export const MAX_OWNER_RESENDS = 3;

/** Orders are counted up to this many: a longer list's total is this and one more, shown as "more than 10,000". */
export const ORDERS_COUNTED_UP_TO = 10_000;
