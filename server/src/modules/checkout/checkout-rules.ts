import { badInput } from '../../core/errors.js';
import { parseInput } from '../../core/input.js';
import { cartLinesSchema, paymentCardSchema, deliveryInstant as deliveryInstantOf, idempotencyKeySchema, personalisationSchema } from '../../rules/schemas.js';
import type { CardDetails } from './payment/payment-provider.js';

/** Checks of what a shopper sends with a cart or an order; each throws BAD_USER_INPUT on the field. */

export { dayIn, MAX_CART_LINES, MAX_DELIVERY_DAYS, MAX_MESSAGE_LENGTH, MAX_PERSON_NAME, MAX_QUANTITY, startOfDay } from '../../rules/index.js';

export interface CartLine {
  productId: number;
  quantity: number;
  personalisation: unknown;
}

export interface Personalisation {
  recipientName: string;
  recipientEmail: string;
  senderName: string;
  message: string;
  /** When the card's e-mail is due: now, or the start of the chosen day in the shopper's zone. */
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

/** When a card chosen for a day (YYYY-MM-DD in `timeZone`) is due: see the shared delivery rule. */
export function deliveryInstant(value: unknown, timeZone: string, now: Date, field: string): Date {
  const at = deliveryInstantOf(value, timeZone, now);
  if (at instanceof Date) return at;
  throw badInput(at.problem, field);
}

/** The card details of a payment, checked for shape (the provider decides whether they pay). */
export function cleanCard(value: unknown, now: Date, field = 'payment'): CardDetails {
  return parseInput(paymentCardSchema(now), value, field);
}

export function cleanIdempotencyKey(value: unknown): string {
  return parseInput(idempotencyKeySchema, value, 'idempotencyKey');
}
