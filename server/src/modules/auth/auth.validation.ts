import { parseInput } from '../../core/input.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, USERNAME_PATTERN } from '../../rules/index.js';
import { emailSchema, passwordSchema, usernameSchema } from '../../rules/schemas.js';

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
