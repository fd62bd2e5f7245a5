import { classifyDeliveryDay, isEmail, isSingleLine, MAX_MESSAGE_LENGTH, MAX_PERSON_NAME } from '@rules';
import type { CardPersonalisation } from '../cart/cart-lines';
import { groupCardErrors } from '../group-card/group-card-rules';

export const MAX_MESSAGE = MAX_MESSAGE_LENGTH;
export const MAX_NAME = MAX_PERSON_NAME;

export type PersonalisationErrors = Partial<Record<'recipientName' | 'recipientEmail' | 'senderName' | 'message' | 'deliveryDate' | 'collectUntil', string>>;

/** A day as YYYY-MM-DD in the browser's own time zone. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A name's problem for the form: missing, too long, or not one line (the limits and the line rule are the server's). */
function nameError(name: string, missing: string): string | undefined {
  const text = name.trim();
  if (!text) return missing;
  if (text.length > MAX_PERSON_NAME) return `At most ${MAX_PERSON_NAME} characters.`;
  if (!isSingleLine(text)) return 'One line, without special characters.';
  return undefined;
}

/**
 * The shopper's checks of a card's personalisation (the shop checks again with its schema); empty
 * when all is well. The storefront checks with the shared rules' predicates rather than the zod
 * schemas, which would add their library to the product page.
 */
export function validatePersonalisation(p: CardPersonalisation, today: Date): PersonalisationErrors {
  const errors: PersonalisationErrors = {};
  const recipientName = nameError(p.recipientName, "Enter the recipient's name.");
  if (recipientName) errors.recipientName = recipientName;
  if (!isEmail(p.recipientEmail)) errors.recipientEmail = "Enter the recipient's e-mail address.";
  const senderName = nameError(p.senderName, 'Enter your name.');
  if (senderName) errors.senderName = senderName;
  if (p.message.trim().length > MAX_MESSAGE) errors.message = `At most ${MAX_MESSAGE} characters.`;
  if (p.deliveryDate !== null) {
    // "Later" is a day after today: for today the shopper picks "now".
    const day = classifyDeliveryDay(p.deliveryDate, localDay(today));
    if (day === 'not-a-day') errors.deliveryDate = 'Choose a day.';
    else if (day === 'past' || day === 'today') errors.deliveryDate = 'Choose a day after today, or send it now.';
    else if (day === 'too-far') errors.deliveryDate = 'Choose a day within a year.';
  }
  return { ...groupCardErrors(p, today), ...errors };
}

export const emptyPersonalisation = (timeZone: string): CardPersonalisation => ({ recipientName: '', recipientEmail: '', senderName: '', message: '', deliveryDate: null, timeZone });

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
