import { badInput } from '../../core/errors.js';
import { parseInput } from '../../core/input.js';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../rules/locales.js';
import { cartLinesSchema, paymentCardSchema, idempotencyKeySchema, personalisationSchema } from '../../rules/schemas.js';
import type { CardDetails } from '../payments/index.js';
import type { CardRecipient } from '../../rules/recipients.js';

/** Checks of what a shopper sends with a cart or an order; each throws BAD_USER_INPUT on the field. */

export { deliveryInstant } from '../orders/index.js';
export { dayIn, MAX_CART_LINES, MAX_DELIVERY_DAYS, MAX_MESSAGE_LENGTH, MAX_PERSON_NAME, MAX_QUANTITY, startOfDay } from '../../rules/index.js';

export interface CartLine {
  productId: number;
  quantity: number;
  personalisation: unknown;
}

export interface Personalisation {
  /** Whom the line's cards go to: one card each (one recipient when the line named `recipientName`). */
  recipients: CardRecipient[];
  /** The first recipient. */
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  /** The message as written: `{name}` becomes each recipient's name on their card. */
  message: string;
  /** When the cards' e-mails are due: now, or the chosen day and hour (09:00 by default) in the shopper's zone. */
  deliverAt: Date;
  timeZone: string;
}

/** The lines of a cart: product ids and quantities checked; personalisation is checked when ordering. */
export function cleanCartLines(value: unknown, field = 'lines'): CartLine[] {
  return parseInput(cartLinesSchema, value, field);
}

/** A card's personalisation; `now` is the shop's clock. */
export function cleanPersonalisation(value: unknown, field: string, now: Date): Personalisation {
  // The schema depends on the clock only: made once per checkout, not once per card.
  if (lastSchema?.at !== now.getTime()) lastSchema = { at: now.getTime(), schema: personalisationSchema(now) };
  return parseInput(lastSchema.schema, value, field);
}
let lastSchema: { at: number; schema: ReturnType<typeof personalisationSchema> } | null = null;

/** The card details of a payment, checked for shape (the provider decides whether they pay). */
export function cleanCard(value: unknown, now: Date, field = 'payment'): CardDetails {
  // The schema depends on the clock's month only (an expiry is a month): made once a month, not once
  // per checkout (making one cost 30 times as much as the check itself).
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (cardSchema?.month !== month) cardSchema = { month, schema: paymentCardSchema(now) };
  return parseInput(cardSchema.schema, value, field);
}
let cardSchema: { month: number; schema: ReturnType<typeof paymentCardSchema> } | null = null;

export function cleanIdempotencyKey(value: unknown): string {
  return parseInput(idempotencyKeySchema, value, 'idempotencyKey');
}

/** The language an order is bought in: one the shop speaks, English when left out (BAD_USER_INPUT on locale otherwise). */
export function orderLocale(value: unknown): Locale {
  if (value === undefined || value === null || value === '') return DEFAULT_LOCALE;
  if (!isLocale(value)) throw badInput(`The shop speaks ${LOCALES.join(', ')}; "${String(value).slice(0, 20)}" is not one of them.`, 'locale');
  return value;
}
