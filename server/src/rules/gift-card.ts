/** Gift cards sold in the shop: what makes a product one, and what one may hold. */

/** The product type whose products are gift cards (made by a migration; found by its name). */
export const GIFT_CARD_TYPE_NAME = 'Gift Card';
/** What a gift card bought in the shop may hold. */
export const GIFT_CARD_MIN_AMOUNT = 10;
export const GIFT_CARD_MAX_AMOUNT = 500;
/** The amounts the product page offers first (any amount in the range may be typed). */
export const GIFT_CARD_AMOUNTS = [10, 25, 50, 100, 250] as const;

/** Whether a product type is the gift card type (its name, in any case). */
export const isGiftCardType = (name: string | null | undefined): boolean => (name ?? '').trim().toLowerCase() === GIFT_CARD_TYPE_NAME.toLowerCase();
