import crypto from 'node:crypto';
import type { RequestContext } from '../../core/context.js';
import { badInput, said } from '../../core/errors.js';
import { fillName } from '../../rules/recipients.js';
import type { CardDesign, NewOrderItem } from '../orders/index.js';
import type { CartLine, Personalisation } from './checkout-rules.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  quantity: { id: 'error.cart.cardQuantity', defaultMessage: '{count, plural, one {A card goes to one recipient: add it again for another, or list several recipients.} other {This card goes to # recipients, so its quantity is #.}}' },
});

/**
 * One card to many (contract section 12): a card line's recipients, each their own order item (own
 * link, own state, own e-mail, own thank-yous), with `{name}` in the message filled for each.
 */

/** A recipient of an order as checkout checks them: who, and the input field that named them (for an error). */
export interface OrderRecipient {
  name: string;
  email: string;
  /** e.g. `lines.0.personalisation.recipients.3.email`, or `lines.0.personalisation.recipientEmail`. */
  field: string;
}

/**
 * A check of every recipient of an order, run in the order's transaction before anything is written:
 * it throws BAD_USER_INPUT on the field of the first recipient it refuses, naming their address (an
 * address that said no to the shop's e-mail, for instance: contract section 11).
 */
export type RecipientCheck = (tx: RequestContext, recipients: readonly OrderRecipient[]) => Promise<void>;

/** The recipients of the card lines of an order, each with their field. */
export function orderRecipients(lines: readonly CartLine[], personalisations: readonly (Personalisation | null)[]): OrderRecipient[] {
  return personalisations.flatMap((personal, index) => (personal ? lineRecipients(lines[index]!, personal, `lines.${index}`) : []));
}

/** The recipients of one card line, each with their field under `field` (`lines.0`; empty for a line of its own). */
export function lineRecipients(line: CartLine, personal: Personalisation, field: string): OrderRecipient[] {
  const base = field ? `${field}.personalisation` : 'personalisation';
  const listed = namesRecipientList(line);
  return personal.recipients.map((recipient, n) => ({ ...recipient, field: listed ? `${base}.recipients.${n}.email` : `${base}.recipientEmail` }));
}

/**
 * Every recipient of an order through every registered check, in the order's transaction: the one
 * place a rule about a single recipient goes (one call for the whole order, so a check that reads
 * the database reads it once).
 */
export async function checkRecipients(tx: RequestContext, recipients: readonly OrderRecipient[], checks: readonly RecipientCheck[]): Promise<void> {
  if (!recipients.length) return;
  for (const check of checks) await check(tx, recipients);
}

/** Whether a cart line named its recipients as a list (errors then point into it). */
export const namesRecipientList = (line: CartLine): boolean =>
  Boolean(line.personalisation && typeof line.personalisation === 'object' && Array.isArray((line.personalisation as { recipients?: unknown }).recipients));

/**
 * A card line's quantity is its number of recipients: 1 (the default) or that number; anything else
 * is refused, so a line is never priced for more or fewer cards than it makes.
 */
export function cardQuantity(line: CartLine, personal: Personalisation, field: string): number {
  const count = personal.recipients.length;
  if (line.quantity !== 1 && line.quantity !== count) {
    throw badInput(said(refusals.quantity, { count }), `${field}.quantity`);
  }
  return count;
}

/**
 * The order items of one card line: one per recipient, each with its own link and its own filled-in
 * message, in consecutive positions from `position` (rows the caller writes with one INSERT).
 */
export function cardItems(args: { product: { id: number; name: string }; design: CardDesign; price: string; sold: Pick<NewOrderItem, 'compareAtPrice' | 'saleId' | 'saleName'>; personal: Personalisation; position: number }): NewOrderItem[] {
  const { product, personal } = args;
  const card = args.design;
  return personal.recipients.map((recipient, n) => ({
    position: args.position + n,
    productId: product.id,
    name: product.name,
    price: args.price,
    ...args.sold,
    quantity: 1,
    itemUrlUuid: crypto.randomUUID(),
    recipientName: recipient.name,
    recipientEmail: recipient.email,
    senderName: personal.senderName,
    message: fillName(personal.message, recipient.name),
    deliverAt: personal.deliverAt,
    timeZone: personal.timeZone,
    card,
  }));
}
