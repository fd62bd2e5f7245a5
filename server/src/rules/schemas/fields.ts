/** The building blocks of the input schemas: texts, e-mail addresses, passwords, ids and records of known fields. */
import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '../limits.js';
import { EMAIL_PATTERN, isSingleLine, MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from '../text.js';

/** Anything that is not a string reads as the empty string (a missing field is an empty one). */
export const asText = (value: unknown) => (typeof value === 'string' ? value : '');

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

export const readId = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
export const isId = (id: unknown): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id > 0;

/** A positive integer id; digit strings are read as numbers. */
export const idSchema = (message: string) => z.preprocess(readId, z.custom<number>(isId, message));

/**
 * An object of known fields; anything else gets `message`. A field left out is read like one sent
 * empty (undefined), so each field's own rule decides (a default, "is required"...).
 */
export const record = <T extends z.ZodRawShape>(shape: T, message: string) => {
  const blank = Object.fromEntries(Object.keys(shape).map((key) => [key, undefined]));
  return z.preprocess((value) => (value && typeof value === 'object' && !Array.isArray(value) ? { ...blank, ...value } : value), z.object(shape, message));
};
