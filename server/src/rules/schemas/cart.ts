/** Carts and cards: a cart's lines, a card's personalisation and recipients, replies. */
import { z } from 'zod';
import { DEFAULT_MESSAGE_LOCATION, MESSAGE_LOCATIONS, type MessageLocationValue } from '../card.js';
import { deliveryMoment, knownTimeZone } from '../delivery.js';
import { MAX_CART_LINES, MAX_MESSAGE_LENGTH, MAX_PERSON_NAME, MAX_QUANTITY } from '../limits.js';
import { MAX_RECIPIENTS_PER_LINE, type CardRecipient } from '../recipients.js';
import { asText, emailSchema, isId, multiLineSchema, record, singleLineSchema } from './fields.js';

export const QUANTITY_MESSAGE = `The quantity must be between 1 and ${MAX_QUANTITY}.`;
/** A line's quantity: up to MAX_QUANTITY copies of a product, or a card's recipients (up to MAX_RECIPIENTS_PER_LINE; checked per product when priced). */
const MAX_LINE_QUANTITY = Math.max(MAX_QUANTITY, MAX_RECIPIENTS_PER_LINE);

export const cartLineSchema = record(
  {
    productId: z.custom<number>(isId, 'productId must be a positive integer.'),
    quantity: z.preprocess((value) => value ?? 1, z.number(QUANTITY_MESSAGE).int(QUANTITY_MESSAGE).min(1, QUANTITY_MESSAGE).max(MAX_LINE_QUANTITY, QUANTITY_MESSAGE)),
    personalisation: z.unknown().transform((value) => value ?? null),
  },
  'A cart line is missing.',
);

/** The lines of a cart: product ids and quantities (a card's personalisation is checked when ordering). */
export const cartLinesSchema = z
  .array(z.unknown(), 'The cart lines must be a list.')
  .max(MAX_CART_LINES, `A cart holds at most ${MAX_CART_LINES} lines.`)
  .pipe(z.array(cartLineSchema));

export const DELIVERY_DAY_MESSAGES = {
  'not-a-day': 'The delivery date must be a day like 2026-12-24.',
  'not-a-time': 'The delivery time must be an hour like 09:00.',
  past: 'The delivery date cannot be in the past.',
  'too-far': 'The delivery date can be at most a year ahead.',
} as const;

/**
 * When a card's e-mail is due for a chosen day (YYYY-MM-DD in `timeZone`) and hour (HH:MM, 09:00
 * unless given): see the shared rule `deliveryMoment`. A message (and its field) when they are not allowed.
 */
export function deliveryInstant(value: unknown, timeZone: string, now: Date, time?: unknown): Date | { problem: string; field: 'deliveryDate' | 'deliveryTime' } {
  const day = value === undefined || value === null || value === '' ? null : typeof value === 'string' ? value : '';
  const hour = time === undefined || time === null || time === '' ? null : typeof time === 'string' ? time : '';
  const moment = deliveryMoment(day, hour, timeZone, now);
  if (moment.kind === 'now') return now;
  if (moment.kind === 'later') return moment.at;
  return { problem: DELIVERY_DAY_MESSAGES[moment.kind], field: moment.kind === 'not-a-time' ? 'deliveryTime' : 'deliveryDate' };
}

export const timeZoneSchema = z.preprocess(
  (value) => (value === undefined || value === null || value === '' ? 'UTC' : value),
  z.string('Unknown time zone.').transform((value, ctx) => {
    const zone = knownTimeZone(value);
    if (zone) return zone;
    ctx.addIssue({ code: 'custom', message: 'Unknown time zone.', input: value });
    return z.NEVER;
  }),
);

/** A recipient's name: one line, no control characters. */
const recipientNameSchema = singleLineSchema("The recipient's name", MAX_PERSON_NAME);

/** One recipient of a card line: a single-line name and one e-mail address. */
export const recipientSchema = record({ name: recipientNameSchema, email: emailSchema }, 'A recipient needs a name and an e-mail address.');

/** A card line's list of recipients (made once: a schema is compiled on its first use, so not per card). */
const recipientListSchema = z
  .array(z.unknown(), 'The recipients must be a list.')
  .min(1, 'Add at least one recipient.')
  .max(MAX_RECIPIENTS_PER_LINE, `A card goes to at most ${MAX_RECIPIENTS_PER_LINE} recipients at once; add it again for more.`)
  .pipe(z.array(recipientSchema));

/**
 * Whom a card line goes to: `recipients` (1 to 100, each address once) or, for one recipient,
 * `recipientName` and `recipientEmail` (their errors keep those fields' names).
 */
function cardRecipients(input: { recipients: unknown; recipientName: unknown; recipientEmail: unknown }, ctx: z.RefinementCtx): CardRecipient[] | null {
  const report = (error: z.ZodError, path: (string | number)[]) => {
    for (const issue of error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path], input: undefined });
    return null;
  };
  if (input.recipients === undefined || input.recipients === null) {
    const name = recipientNameSchema.safeParse(input.recipientName);
    if (!name.success) return report(name.error, ['recipientName']);
    const email = emailSchema.safeParse(input.recipientEmail);
    if (!email.success) return report(email.error, ['recipientEmail']);
    return [{ name: name.data, email: email.data }];
  }
  const list = recipientListSchema.safeParse(input.recipients);
  if (!list.success) return report(list.error, ['recipients']);
  const seen = new Set<string>();
  for (const [index, recipient] of list.data.entries()) {
    if (seen.has(recipient.email)) return report(new z.ZodError([{ code: 'custom', message: `${recipient.email} is already a recipient of this card.`, path: [index, 'email'], input: recipient.email }]), ['recipients']);
    seen.add(recipient.email);
  }
  return list.data;
}

/** A card's personalisation as written, before its day and hour are read (made once, see below). */
const personalisationFields = record(
  {
    timeZone: timeZoneSchema,
    // Names go into e-mail subjects and greetings: one line, no control characters.
    recipientName: z.unknown(),
    recipientEmail: z.unknown(),
    recipients: z.unknown(),
    senderName: singleLineSchema('Your name', MAX_PERSON_NAME),
    // The message keeps its line breaks; only the ends are trimmed. `{name}` becomes each recipient's name.
    message: multiLineSchema('The message', MAX_MESSAGE_LENGTH, false),
    deliveryDate: z.unknown(),
    deliveryTime: z.unknown(),
  },
  "The card's personalisation is missing.",
);

/**
 * A card's personalisation; `now` is the shop's clock (a day and an hour are read in the shopper's
 * zone). Only the last step depends on the clock: the fields' schema is shared (and compiled once).
 */
export const personalisationSchema = (now: Date) =>
  personalisationFields.transform(({ deliveryDate, deliveryTime, recipientName, recipientEmail, recipients: list, ...rest }, ctx) => {
    const recipients = cardRecipients({ recipients: list, recipientName, recipientEmail }, ctx);
    if (!recipients) return z.NEVER;
    const deliverAt = deliveryInstant(deliveryDate, rest.timeZone, now, deliveryTime);
    if (deliverAt instanceof Date) return { ...rest, recipients, recipientName: recipients[0]!.name, recipientEmail: recipients[0]!.email, deliverAt };
    ctx.addIssue({ code: 'custom', message: deliverAt.problem, path: [deliverAt.field], input: deliverAt.field === 'deliveryTime' ? deliveryTime : deliveryDate });
    return z.NEVER;
  });

export type PersonalisationValue = z.output<ReturnType<typeof personalisationSchema>>;

/** A thank-you's message: plain text of 1 to 500 characters, line breaks kept, control characters removed. */
const REPLY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;
export const replyMessageSchema = z.preprocess(
  (value) => asText(value).replace(/\r\n?/g, '\n').replace(REPLY_CONTROL, '').trim(),
  z.string().min(1, 'Please write a message.').max(MAX_MESSAGE_LENGTH, `The message must be at most ${MAX_MESSAGE_LENGTH} characters.`),
);

export const idempotencyKeySchema = z.preprocess(
  (value) => asText(value).trim(),
  z.string().regex(/^[A-Za-z0-9_-]{16,100}$/, 'The idempotency key must be 16 to 100 letters, digits, "-" or "_" (a UUID is ideal).'),
);

/** One of the eight placements; the labels of the form ("Top Left") are read as their value too. */
export const messageLocationSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s_]+/g, '-') : ''),
  z.enum(MESSAGE_LOCATIONS, `The message placement must be one of ${MESSAGE_LOCATIONS.join(', ')}.`),
) as z.ZodType<MessageLocationValue>;
export { DEFAULT_MESSAGE_LOCATION };
