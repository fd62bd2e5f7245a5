/**
 * The shop's rules for names and e-mail addresses, as the server applies them
 * (server/src/core/input.ts; a unit test keeps the two the same).
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

// eslint-disable-next-line no-control-regex
export const NOT_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** One e-mail address (no lists, display names or quotes). */
export const isEmail = (value: string) => value.trim().length <= 254 && EMAIL_PATTERN.test(value.trim());

/** One line of printable characters. */
export const isSingleLine = (value: string) => !NOT_SINGLE_LINE.test(value);
