import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateLimits } from '../limits/index.js';
import type { MailQueue } from '../mail/index.js';
import type { GiftCard, GiftCardStatus } from './gift-card.entity.js';

/** What a balance look-up answers: what its holder may see (the page of a bought card shows it all). */
export interface GiftCardBalance {
  balance: string;
  currency: string;
  expiresAt: Date | null;
  last4: string;
  initialAmount: string;
  status: GiftCardStatus;
  designPath: string | null;
  senderName: string | null;
  recipientName: string | null;
  message: string | null;
}

/** A gift card line of an order just paid (see issuePurchased). */
export interface PurchasedGiftCard {
  itemId: number;
  productId: number | null;
  amount: string;
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  message: string | null;
}

export interface GiftCardOptions {
  clock: () => Date;
  limits: RateLimits;
  /** Sends a bought card to its recipient. */
  mail: MailQueue;
  /** The shop's address, for the card's page. */
  baseUrl: string;
  /** The design of a gift card product (its main image's path), for the card's page. */
  designOf?: (em: EntityManager, productId: number | null) => Promise<string | null>;
}

/** A page of the admin's list, with the shop's liability (what every active card still holds). */
export interface GiftCardPage {
  items: GiftCard[];
  totalCount: number;
  outstanding: string;
}

/** What a gift card paid of an order (checkout records it on the order). */
export interface GiftCardPayment {
  giftCardId: number;
  last4: string;
  amount: string;
}
