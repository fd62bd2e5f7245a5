import { badInput } from './errors.js';

/** Checks of what clients send, shared by every service: each returns the clean value or throws BAD_USER_INPUT on the field. */

/** A trimmed, non-empty name (400 with the field otherwise). */
export function cleanName(value: unknown, field = 'name', max = 200): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw badInput('A name is required.', field);
  if (name.length > max) throw badInput(`The name must be at most ${max} characters.`, field);
  return name;
}

/** An optional id reference: null/undefined for none, a positive integer otherwise (400 with the field). */
export function optionalId(value: unknown, field: string): number | null {
  if (value === null || value === undefined || value === '') return null;
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw badInput(`${field} must be a positive integer.`, field);
  return id;
}
