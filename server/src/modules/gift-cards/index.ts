/** The gift cards module's front door: what other modules may use of it. Everything else in this folder is its own. */
export type { GiftCardPayment, GiftCardService, PurchasedGiftCard } from './gift-card.service.js';
export { codeDigest, formatGiftCardCode, newGiftCardCode, normaliseGiftCardCode } from './gift-card-codes.js';
