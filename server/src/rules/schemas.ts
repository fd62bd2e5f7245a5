import { z } from 'zod';
import { DEFAULT_MESSAGE_LOCATION, MESSAGE_LOCATIONS, type MessageLocationValue } from './card.js';
import { deliveryMoment, knownTimeZone } from './delivery.js';
import { MAX_RECIPIENTS_PER_LINE, type CardRecipient } from './recipients.js';
import {
  MAX_CART_LINES,
  MAX_DESCRIPTION_LENGTH,
  MAX_FONT_NAME_LENGTH,
  MAX_SKU_LENGTH,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  MAX_TITLE_LENGTH,
  MAX_TYPED_SLUG_LENGTH,
  MAX_DISCOUNT_CODE_LENGTH,
  MAX_DISCOUNT_USES,
  MAX_EMAIL_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_PERSON_NAME,
  MAX_QUANTITY,
} from './limits.js';
import { SLUG_PATTERN } from './slug.js';
import { DISCOUNT_CODE_PATTERN, EMAIL_PATTERN, isSingleLine, MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from './text.js';

/**
 * The shapes of what clients send, as zod schemas: the server parses its input with them (errors
 * become BAD_USER_INPUT on the issue's path, see server/src/core/input.ts) and the web's forms check
 * with the same ones. The messages are the shop's exact texts.
 */

/** Anything that is not a string reads as the empty string (a missing field is an empty one). */
const asText = (value: unknown) => (typeof value === 'string' ? value : '');

export const EMAIL_MESSAGE = 'Please enter a valid e-mail address.';

/** A single e-mail address, trimmed and lower-cased. */
export const emailSchema = z.preprocess(
  (value) => asText(value).trim().toLowerCase(),
  z.string().max(MAX_EMAIL_LENGTH, EMAIL_MESSAGE).regex(EMAIL_PATTERN, EMAIL_MESSAGE),
);

/**
 * A trimmed single-line text (a name of a person, a product, a folder...): control characters and
 * line breaks are refused, so that a name can never add a line to an e-mail, a header or a log.
 */
export const singleLineSchema = (label: string, max: number, required = true, requiredMessage = `${label} is required.`) =>
  z.preprocess(
    (value) => asText(value).trim(),
    z
      .string()
      .refine((text) => !required || text.length > 0, requiredMessage)
      .refine(isSingleLine, `${label} must be a single line without control characters.`)
      .max(max, `${label} must be at most ${max} characters.`),
  );

/** A trimmed text that keeps its line breaks (a card's message). */
export const multiLineSchema = (label: string, max: number, required = true) =>
  z.preprocess(
    (value) => asText(value).trim(),
    z
      .string()
      .refine((text) => !required || text.length > 0, `${label} is required.`)
      .max(max, `${label} must be at most ${max} characters.`),
  );

export const usernameSchema = z.preprocess(
  (value) => asText(value).trim(),
  z.string().regex(USERNAME_PATTERN, "Username must be 3 to 32 characters: letters, digits, '_', '.' or '-'."),
);

export const passwordSchema = z
  .string(`Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`)
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`);

const readId = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
const isId = (id: unknown): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id > 0;

/** A positive integer id; digit strings are read as numbers. */
export const idSchema = (message: string) => z.preprocess(readId, z.custom<number>(isId, message));

/**
 * An object of known fields; anything else gets `message`. A field left out is read like one sent
 * empty (undefined), so each field's own rule decides (a default, "is required"...).
 */
const record = <T extends z.ZodRawShape>(shape: T, message: string) => {
  const blank = Object.fromEntries(Object.keys(shape).map((key) => [key, undefined]));
  return z.preprocess((value) => (value && typeof value === 'object' && !Array.isArray(value) ? { ...blank, ...value } : value), z.object(shape, message));
};

// ---------------------------------------------------------------------------------------------
// Carts and cards

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

// ---------------------------------------------------------------------------------------------
// Discount codes

const CODE_MESSAGE = `A discount code is 2 to ${MAX_DISCOUNT_CODE_LENGTH} letters, digits, "-" or "_".`;
export const discountCodeSchema = z.preprocess((value) => asText(value).trim(), z.string().regex(DISCOUNT_CODE_PATTERN, CODE_MESSAGE));

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/** An optional date and time (ISO 8601). */
export const optionalDateSchema = z.preprocess(
  (value) => (isEmpty(value) ? null : typeof value === 'string' || value instanceof Date ? new Date(value) : new Date(NaN)),
  z.date('Please give a date and time (ISO 8601).').nullable(),
);

/** An optional count from 1 (maximum uses). */
export const optionalCountSchema = (what: string) =>
  z.preprocess(
    (value) => (isEmpty(value) ? null : value),
    z.number(`${what} must be a whole number from 1.`).int(`${what} must be a whole number from 1.`).min(1, `${what} must be a whole number from 1.`).max(MAX_DISCOUNT_USES, `${what} must be a whole number from 1.`).nullable(),
  );

export const percentOffSchema = z.number('The percentage off is a whole number from 1 to 100.').int('The percentage off is a whole number from 1 to 100.').min(1, 'The percentage off is a whole number from 1 to 100.').max(100, 'The percentage off is a whole number from 1 to 100.');

/**
 * The fields of a discount code but the amount off (a price, read by the server's price rule):
 * exactly one of percentOff and amountOff; an end after the start.
 */
export const discountFieldsSchema = record(
  {
    code: discountCodeSchema,
    percentOff: z.unknown(),
    amountOff: z.unknown(),
    startsAt: optionalDateSchema,
    endsAt: optionalDateSchema,
    maxUses: optionalCountSchema('The maximum uses'),
  },
  'The discount code is missing.',
)
  .superRefine((input, ctx) => {
    const hasPercent = !isEmpty(input.percentOff);
    if (hasPercent === !isEmpty(input.amountOff)) {
      ctx.addIssue({ code: 'custom', message: 'Give either a percentage or an amount off, not both.', path: [hasPercent ? 'amountOff' : 'percentOff'], input });
      return;
    }
    if (hasPercent) {
      const percent = percentOffSchema.safeParse(input.percentOff);
      if (!percent.success) ctx.addIssue({ code: 'custom', message: percent.error.issues[0]!.message, path: ['percentOff'], input: input.percentOff });
    }
    if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) ctx.addIssue({ code: 'custom', message: 'The end must be after the start.', path: ['endsAt'], input });
  });

// ---------------------------------------------------------------------------------------------

/** The first issue of a failed parse: its message and its path joined with dots (empty for the whole value). */
export function firstIssue(error: z.ZodError): { message: string; path: string } {
  const issue = error.issues[0]!;
  return { message: issue.message, path: issue.path.map(String).join('.') };
}

/** Every field's first issue, in the order of the fields (for forms). */
export function issuesByField(error: z.ZodError): Record<string, z.core.$ZodIssue> {
  const byField: Record<string, z.core.$ZodIssue> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    if (!(key in byField)) byField[key] = issue;
  }
  return byField;
}

export { z };

// ---------------------------------------------------------------------------------------------
// Products

/** Tags trimmed, empty ones dropped, and each kept once whatever its case (the first spelling wins). */
export const tagsSchema = z.preprocess(
  (value) => value ?? [],
  z
    .custom<string[]>((value) => Array.isArray(value) && value.every((tag) => typeof tag === 'string'), 'Tags must be a list of texts.')
    .transform((raw) => raw.map((tag) => tag.trim().replace(/\s+/g, ' ')).filter(Boolean))
    .refine((tags) => tags.every((tag) => tag.length <= MAX_TAG_LENGTH), `A tag must be at most ${MAX_TAG_LENGTH} characters.`)
    .transform((tags) => {
      const seen = new Set<string>();
      return tags.filter((tag) => {
        const key = tag.toLocaleLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    })
    .refine((tags) => tags.length <= MAX_TAGS, `A product can have at most ${MAX_TAGS} tags.`),
);

/** Optional text: null/undefined become the empty string. */
export const descriptionSchema = z.preprocess(
  (value) => value ?? '',
  z.string('The description must be a text.').trim().max(MAX_DESCRIPTION_LENGTH, `The description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`),
);

/** An optional SKU: trimmed, empty means none. */
export const skuSchema = z.preprocess(
  (value) => (value === null || value === undefined ? '' : typeof value === 'number' ? String(value) : value),
  z
    .string('The SKU must be a text.')
    .trim()
    .max(MAX_SKU_LENGTH, `The SKU must be at most ${MAX_SKU_LENGTH} characters.`)
    .refine((sku) => !/[\u0000-\u001f]/.test(sku), 'The SKU must not contain control characters.')
    .transform((sku) => sku || null),
);

/**
 * A font family name of the font service: letters, digits and single spaces. It ends up in the
 * card page's stylesheet link and CSS, so nothing else may pass.
 */
export const fontNameSchema = z.preprocess(
  (value) => (value === null || value === undefined ? '' : value),
  z
    .string('The font must be a font family name.')
    .transform((name) => name.trim().replace(/\s+/g, ' '))
    .refine((name) => !name || (name.length <= MAX_FONT_NAME_LENGTH && /^[A-Za-z0-9][A-Za-z0-9 ]*$/.test(name)), 'The font must be a font family name (letters, digits and spaces).')
    .transform((name) => name || null),
);

/** A list of ids (duplicates dropped, order kept). */
export const idListSchema = (max: number) =>
  z.preprocess(
    (value) => value ?? [],
    z
      .array(z.unknown(), 'Give a list of ids.')
      .transform((items) => items.map(readId))
      .refine((ids) => ids.every(isId), 'Every id must be a positive integer.')
      .transform((ids) => [...new Set(ids as number[])])
      .refine((ids) => ids.length <= max, `At most ${max} are allowed.`),
  );

// ---------------------------------------------------------------------------------------------
// Blog posts

export const postTitleSchema = z.preprocess(
  (value) => asText(value).trim(),
  z.string().min(1, 'A post needs a title.').max(MAX_TITLE_LENGTH, `The title must be at most ${MAX_TITLE_LENGTH} characters.`),
);

/** An address typed by the author: lowercase words joined by single dashes, not only digits (those are ids). */
export const postSlugSchema = z.preprocess(
  (value) => asText(value).trim().toLowerCase(),
  z.string().refine((slug) => SLUG_PATTERN.test(slug) && slug.length <= MAX_TYPED_SLUG_LENGTH && !/^\d+$/.test(slug), 'The address must be lowercase letters, digits and single dashes (not only digits).'),
);

/** An optional text of a post (null is empty); the body keeps its spaces, the others are trimmed. */
export const postTextSchema = (field: string, max: number) =>
  z.preprocess(
    (value) => (value === null ? '' : value),
    z
      .string(`${field} must be text.`)
      .max(max, `${field} must be at most ${max} characters.`)
      .transform((text) => (field === 'body' ? text : text.trim())),
  );

// ---------------------------------------------------------------------------------------------
// Card payments (checked for shape; the payment provider decides whether they pay)

function luhn(digits: string): boolean {
  let total = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    total += digit;
  }
  return total % 10 === 0;
}

const EXPIRY = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/;

/** A payment card's details: digits only, expiry this month or later (by `now`), a 3–4 digit code. */
export const paymentCardSchema = (now: Date) =>
  record(
    {
      cardNumber: z.preprocess(
        (value) => asText(value).replace(/[\s-]/g, ''),
        z.string().refine((number) => /^\d{12,19}$/.test(number) && luhn(number), 'Please enter a valid card number.'),
      ),
      expiry: z
        .preprocess((value) => EXPIRY.exec(asText(value)), z.custom<RegExpExecArray>((match) => match instanceof Array && Number(match[1]) >= 1 && Number(match[1]) <= 12, 'Please enter the expiry date as MM/YY.'))
        .transform((match) => ({ month: Number(match[1]), year: match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]) }))
        .refine(({ month, year }) => year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1, 'The card has expired.'),
      cvc: z.preprocess((value) => asText(value).trim(), z.string().regex(/^\d{3,4}$/, 'The security code is 3 or 4 digits.')),
      cardholderName: z.unknown().transform((value) => asText(value).trim().slice(0, MAX_PERSON_NAME) || null),
    },
    'The payment is missing.',
  )
    .transform(({ cardNumber, expiry, cvc, cardholderName }) => ({ number: cardNumber, expiryMonth: expiry.month, expiryYear: expiry.year, cvc, holderName: cardholderName }));
