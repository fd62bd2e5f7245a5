import { badInput } from '../../core/errors.js';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;
// Deliberately simple: one @, no spaces, a dot in the domain. Real validation is the mail that arrives.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export function normaliseUsername(value: unknown): string {
  const username = typeof value === 'string' ? value.trim() : '';
  if (!USERNAME_PATTERN.test(username)) {
    throw badInput("Username must be 3 to 32 characters: letters, digits, '_', '.' or '-'.", 'username');
  }
  return username;
}

export function normaliseEmail(value: unknown, field = 'email'): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw badInput('Please enter a valid e-mail address.', field);
  return email;
}

export function checkPassword(value: unknown, field = 'password'): string {
  if (typeof value !== 'string' || value.length < MIN_PASSWORD_LENGTH) {
    throw badInput(`Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, field);
  }
  if (value.length > MAX_PASSWORD_LENGTH) throw badInput(`Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`, field);
  return value;
}
