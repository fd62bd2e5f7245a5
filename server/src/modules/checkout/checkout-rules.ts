import { badInput } from '../../core/errors.js';
import { normaliseEmail } from '../auth/auth.validation.js';
import { singleLine } from '../../core/input.js';
import type { CardDetails } from './payment/payment-provider.js';

/** Checks of what a shopper sends with a cart or an order; each throws BAD_USER_INPUT on the field. */

export const MAX_CART_LINES = 50;
export const MAX_QUANTITY = 99;
export const MAX_MESSAGE_LENGTH = 500;
export const MAX_PERSON_NAME = 100;
/** How far ahead a card may be scheduled. */
export const MAX_DELIVERY_DAYS = 366;

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

const record = (value: unknown, field: string, what: string): Record<string, unknown> => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badInput(`${what} is missing.`, field);
  return value as Record<string, unknown>;
};

/** The lines of a cart: product ids and quantities checked; personalisation is checked when ordering. */
export function cleanCartLines(value: unknown, field = 'lines'): CartLine[] {
  if (!Array.isArray(value)) throw badInput('The cart lines must be a list.', field);
  if (value.length > MAX_CART_LINES) throw badInput(`A cart holds at most ${MAX_CART_LINES} lines.`, field);
  return value.map((raw, index) => {
    const line = record(raw, `${field}.${index}`, 'A cart line');
    const productId = line.productId;
    if (typeof productId !== 'number' || !Number.isSafeInteger(productId) || productId <= 0) throw badInput('productId must be a positive integer.', `${field}.${index}.productId`);
    const quantity = line.quantity ?? 1;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
      throw badInput(`The quantity must be between 1 and ${MAX_QUANTITY}.`, `${field}.${index}.quantity`);
    }
    return { productId, quantity, personalisation: line.personalisation ?? null };
  });
}

function cleanText(value: unknown, field: string, label: string, max: number, required = true): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (required && !text) throw badInput(`${label} is required.`, field);
  if (text.length > max) throw badInput(`${label} must be at most ${max} characters.`, field);
  return text;
}

/** A card's personalisation; `now` is the shop's clock. */
export function cleanPersonalisation(value: unknown, field: string, now: Date): Personalisation {
  const input = record(value, field, "The card's personalisation");
  const timeZone = cleanTimeZone(input.timeZone, `${field}.timeZone`);
  return {
    // Names go into e-mail subjects and greetings: one line, no control characters.
    recipientName: singleLine(input.recipientName, `${field}.recipientName`, "The recipient's name", MAX_PERSON_NAME),
    recipientEmail: normaliseEmail(input.recipientEmail, `${field}.recipientEmail`),
    senderName: singleLine(input.senderName, `${field}.senderName`, 'Your name', MAX_PERSON_NAME),
    // The message keeps its line breaks; only the ends are trimmed.
    message: cleanText(input.message, `${field}.message`, 'The message', MAX_MESSAGE_LENGTH, false),
    deliverAt: deliveryInstant(input.deliveryDate, timeZone, now, `${field}.deliveryDate`),
    timeZone,
  };
}

function cleanTimeZone(value: unknown, field: string): string {
  if (value === undefined || value === null || value === '') return 'UTC';
  if (typeof value !== 'string') throw badInput('Unknown time zone.', field);
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw badInput('Unknown time zone.', field);
  }
}

/** The day it is in a time zone, as YYYY-MM-DD. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** How far a zone's wall clock is ahead of UTC at an instant, in ms. */
function zoneOffset(instant: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a day starts in a time zone (daylight-saving changes included). */
export function startOfDay(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const guess = Date.UTC(y!, m! - 1, d!);
  let instant = guess - zoneOffset(new Date(guess), timeZone);
  instant = guess - zoneOffset(new Date(instant), timeZone);
  return new Date(instant);
}

export function deliveryInstant(value: unknown, timeZone: string, now: Date, field: string): Date {
  if (value === undefined || value === null || value === '') return now;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw badInput('The delivery date must be a day like 2026-12-24.', field);
  }
  const today = dayIn(now, timeZone);
  if (value < today) throw badInput('The delivery date cannot be in the past.', field);
  if (value === today) return now;
  const latest = dayIn(new Date(now.getTime() + MAX_DELIVERY_DAYS * 86_400_000), timeZone);
  if (value > latest) throw badInput('The delivery date can be at most a year ahead.', field);
  return startOfDay(value, timeZone);
}

/** The card details of a payment, checked for shape (the provider decides whether they pay). */
export function cleanCard(value: unknown, now: Date, field = 'payment'): CardDetails {
  const input = record(value, field, 'The payment');
  const number = typeof input.cardNumber === 'string' ? input.cardNumber.replace(/[\s-]/g, '') : '';
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) throw badInput('Please enter a valid card number.', `${field}.cardNumber`);
  const expiry = typeof input.expiry === 'string' ? /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry) : null;
  const month = expiry ? Number(expiry[1]) : 0;
  if (!expiry || month < 1 || month > 12) throw badInput('Please enter the expiry date as MM/YY.', `${field}.expiry`);
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) throw badInput('The card has expired.', `${field}.expiry`);
  const cvc = typeof input.cvc === 'string' ? input.cvc.trim() : '';
  if (!/^\d{3,4}$/.test(cvc)) throw badInput('The security code is 3 or 4 digits.', `${field}.cvc`);
  const holder = typeof input.cardholderName === 'string' ? input.cardholderName.trim().slice(0, 100) : '';
  return { number, expiryMonth: month, expiryYear: year, cvc, holderName: holder || null };
}

function luhn(digits: string): boolean {
  let total = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    total += digit;
  }
  return total % 10 === 0;
}

export function cleanIdempotencyKey(value: unknown): string {
  const key = typeof value === 'string' ? value.trim() : '';
  if (!/^[A-Za-z0-9_-]{16,100}$/.test(key)) throw badInput('The idempotency key must be 16 to 100 letters, digits, "-" or "_" (a UUID is ideal).', 'idempotencyKey');
  return key;
}
