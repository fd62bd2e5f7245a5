import { badInput } from './errors.js';

/** Checks of what clients send, shared by every service: each returns the clean value or throws BAD_USER_INPUT on the field. */

/**
 * Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: nothing that can
 * break a line of an e-mail header or a log line may be in a name.
 */
// eslint-disable-next-line no-control-regex
const NOT_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when the text is one line of printable characters. */
export function isSingleLine(text: string): boolean {
  return !NOT_SINGLE_LINE.test(text);
}

/**
 * A trimmed single-line text (a name of a person, a product, a folder...): control characters and
 * line breaks are refused, so that a name can never add a line to an e-mail, a header or a log.
 */
export function singleLine(value: unknown, field: string, label: string, max: number, required = true): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (required && !text) throw badInput(`${label} is required.`, field);
  if (!isSingleLine(text)) throw badInput(`${label} must be a single line without control characters.`, field);
  if (text.length > max) throw badInput(`${label} must be at most ${max} characters.`, field);
  return text;
}

/** A trimmed, non-empty, single-line name (400 with the field otherwise). */
export function cleanName(value: unknown, field = 'name', max = 200): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw badInput('A name is required.', field);
  if (!isSingleLine(name)) throw badInput('The name must be a single line without control characters.', field);
  if (name.length > max) throw badInput(`The name must be at most ${max} characters.`, field);
  return name;
}

/**
 * One e-mail address, nothing more: a local part and a domain with a dot, no spaces, and none of the
 * characters that let one field name several recipients or a display name (`,;<>"`), nor quotes,
 * brackets or backslashes. The same rule is used by the web client (web/src/common/email.ts).
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
export const MAX_EMAIL_LENGTH = 254;

/** A single e-mail address, trimmed and lower-cased (400 with the field otherwise). */
export function cleanEmail(value: unknown, field = 'email'): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) throw badInput('Please enter a valid e-mail address.', field);
  return email;
}

/** An optional id reference: null/undefined for none, a positive integer otherwise (400 with the field). */
export function optionalId(value: unknown, field: string): number | null {
  if (value === null || value === undefined || value === '') return null;
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw badInput(`${field} must be a positive integer.`, field);
  return id;
}

/** An address shown to someone who may know of it but not read it: "j•••@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : '•••';
}
