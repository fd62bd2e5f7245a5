import type { output, ZodType } from 'zod';
import { EMAIL_PATTERN, isSingleLine, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from '../rules/index.js';
import { emailSchema, firstIssue, idSchema, singleLineSchema } from '../rules/schemas.js';
import { badInput } from './errors.js';

/** Checks of what clients send, shared by every service: each returns the clean value or throws BAD_USER_INPUT on the field. */

/**
 * Parses what a client sent with a schema of the shared rules: the clean value, or BAD_USER_INPUT
 * with the first issue's message on its field (`field` joined with the issue's path by dots).
 */
export function parseInput<T extends ZodType>(schema: T, value: unknown, field = ''): output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { message, path } = firstIssue(result.error);
  throw badInput(message, [field, path].filter(Boolean).join('.') || undefined);
}

export { EMAIL_PATTERN, isSingleLine, MAX_EMAIL_LENGTH };

/**
 * A trimmed single-line text (a name of a person, a product, a folder...): control characters and
 * line breaks are refused, so that a name can never add a line to an e-mail, a header or a log.
 */
export function singleLine(value: unknown, field: string, label: string, max: number, required = true): string {
  return parseInput(singleLineSchema(label, max, required), value, field);
}

/** A trimmed, non-empty, single-line name (400 with the field otherwise). */
export function cleanName(value: unknown, field = 'name', max = MAX_NAME_LENGTH): string {
  return parseInput(singleLineSchema('The name', max, true, 'A name is required.'), value, field);
}

/** A single e-mail address, trimmed and lower-cased (400 with the field otherwise). */
export function cleanEmail(value: unknown, field = 'email'): string {
  return parseInput(emailSchema, value, field);
}

/** An optional id reference: null/undefined for none, a positive integer otherwise (400 with the field). */
export function optionalId(value: unknown, field: string): number | null {
  if (value === null || value === undefined || value === '') return null;
  return parseInput(idSchema(`${field} must be a positive integer.`), value, field);
}

/** An address shown to someone who may know of it but not read it: "j•••@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : '•••';
}

/** What a client hears when its text holds a NUL character. */
export const NUL_IN_TEXT = 'Text must not contain NUL characters (\\u0000).';

/**
 * Where anything a client sent (a string, or strings inside arrays and objects) holds a NUL
 * character, as the path to it (`[]` for the value itself), or null when nowhere: PostgreSQL text
 * cannot hold one, and a query carrying one fails as a protocol error, so such input is refused at
 * the door before any service runs.
 */
export function nulPath(value: unknown, depth = 0): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : null;
  if (depth > 32 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return null;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    if (typeof key === 'string' && key.includes('\u0000')) return [key];
    const inner = nulPath(item, depth + 1);
    if (inner) return [key, ...inner];
  }
  return null;
}
