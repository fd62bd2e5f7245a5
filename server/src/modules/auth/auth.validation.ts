import { badInput } from '../../core/errors.js';
import { cleanEmail } from '../../core/input.js';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export function normaliseUsername(value: unknown): string {
  const username = typeof value === 'string' ? value.trim() : '';
  if (!USERNAME_PATTERN.test(username)) {
    throw badInput("Username must be 3 to 32 characters: letters, digits, '_', '.' or '-'.", 'username');
  }
  return username;
}

/** One e-mail address (the shared rule of core/input.ts), lower-cased. */
export function normaliseEmail(value: unknown, field = 'email'): string {
  return cleanEmail(value, field);
}

export function checkPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD_LENGTH) {
    throw badInput(`Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, field);
  }
  if (value.length > MAX_PASSWORD_LENGTH) throw badInput(`Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`, field);
  return value;
}
