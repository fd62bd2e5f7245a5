import type { CardPersonalisation } from '../cart/cart-lines';
import { isEmail, isSingleLine } from '../../common/text-rules';

export const MAX_MESSAGE = 500;
export const MAX_NAME = 100;

export type PersonalisationErrors = Partial<Record<'recipientName' | 'recipientEmail' | 'senderName' | 'message' | 'deliveryDate', string>>;

/** A day as YYYY-MM-DD in the browser's own time zone. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);

/** The shopper's checks of a card's personalisation (the shop checks again); empty when all is well. */
export function validatePersonalisation(p: CardPersonalisation, today: Date): PersonalisationErrors {
  const errors: PersonalisationErrors = {};
  if (!p.recipientName.trim()) errors.recipientName = "Enter the recipient's name.";
  else if (p.recipientName.trim().length > MAX_NAME) errors.recipientName = `At most ${MAX_NAME} characters.`;
  else if (!isSingleLine(p.recipientName)) errors.recipientName = 'One line, without special characters.';
  if (!isEmail(p.recipientEmail)) errors.recipientEmail = "Enter the recipient's e-mail address.";
  if (!p.senderName.trim()) errors.senderName = 'Enter your name.';
  else if (p.senderName.trim().length > MAX_NAME) errors.senderName = `At most ${MAX_NAME} characters.`;
  else if (!isSingleLine(p.senderName)) errors.senderName = 'One line, without special characters.';
  if (p.message.trim().length > MAX_MESSAGE) errors.message = `At most ${MAX_MESSAGE} characters.`;
  if (p.deliveryDate !== null) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(p.deliveryDate)) errors.deliveryDate = 'Choose a day.';
    else if (p.deliveryDate <= localDay(today)) errors.deliveryDate = 'Choose a day after today, or send it now.';
    else if (p.deliveryDate > localDay(addDays(today, 365))) errors.deliveryDate = 'Choose a day within a year.';
  }
  return errors;
}

export const emptyPersonalisation = (timeZone: string): CardPersonalisation => ({ recipientName: '', recipientEmail: '', senderName: '', message: '', deliveryDate: null, timeZone });

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
