import { parseInput } from '../../core/input.js';
import { emailSchema, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordSchema, USERNAME_PATTERN, usernameSchema } from '../../rules/index.js';

export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, USERNAME_PATTERN };

export function normaliseUsername(value: unknown): string {
  return parseInput(usernameSchema, value, 'username');
}

/** One e-mail address (the shared rule), lower-cased. */
export function normaliseEmail(value: unknown, field = 'email'): string {
  return parseInput(emailSchema, value, field);
}

export function checkPassword(value: unknown, field = 'password'): string {
  return parseInput(passwordSchema, value, field);
}
