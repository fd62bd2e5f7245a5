import { MAX_EMAIL_LENGTH } from './limits.js';

/**
 * One e-mail address, nothing more: a local part and a domain with a dot, no spaces, and none of the
 * characters that let one field name several recipients or a display name (`,;<>"`), nor quotes,
 * brackets or backslashes.
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/**
 * Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: nothing that can
 * break a line of an e-mail header or a log line may be in a name.
 */
export const NOT_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when the text is one line of printable characters. */
export const isSingleLine = (text: string): boolean => !NOT_SINGLE_LINE.test(text);

/** One e-mail address (no lists, display names or quotes), spaces around it ignored. */
export const isEmail = (value: string): boolean => value.trim().length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(value.trim());

/** Usernames: 3 to 32 letters, digits, '_', '.' or '-'. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
export const MIN_PASSWORD_LENGTH = 8;

/** A discount code as typed: 2 to 40 letters, digits, "-" or "_", starting with a letter or digit. */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/;
