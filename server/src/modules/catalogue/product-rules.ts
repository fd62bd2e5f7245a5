import { badInput } from '../../core/errors.js';
import { parseInput } from '../../core/input.js';
import { MAX_PRICE } from '../../rules/index.js';
import { descriptionSchema, fontNameSchema, idListSchema, messageLocationSchema, skuSchema, tagsSchema } from '../../rules/schemas.js';
import type { MessageLocation } from './e-greeting-card.entity.js';

/**
 * The rules a product's fields follow, as pure functions: each takes what a client sent (anything)
 * and returns the clean value or throws BAD_USER_INPUT naming the field.
 */

export { MAX_ASSOCIATED_IMAGES, MAX_DESCRIPTION_LENGTH, MAX_PRICE, MAX_SKU_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from '../../rules/index.js';

/**
 * A price greater than zero with at most two decimals, as the exact decimal string stored in
 * numeric(12,2) ("19.9" becomes "19.90"). Numbers are read through their shortest decimal form, so
 * 19.99 is "19.99" while 0.1 + 0.2 is refused for its extra decimals.
 */
export function parsePrice(value: unknown, field = 'price'): string {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!text || !match || (match[2] === '' && !match[3])) throw badInput('The price must be a number.', field);
  const [, sign, whole, fraction = ''] = match;
  const integer = whole.replace(/^0+(?=\d)/, '') || '0';
  if (fraction.replace(/0+$/, '').length > 2) throw badInput('The price must have at most two decimals.', field);
  const cents = fraction.padEnd(2, '0').slice(0, 2);
  if (sign === '-' || /^0+$/.test(integer + cents)) throw badInput('The price must be greater than zero.', field);
  const price = `${integer}.${cents}`;
  if (compareDecimal(price, MAX_PRICE) > 0) throw badInput(`The price must be at most ${MAX_PRICE}.`, field);
  return price;
}

/** Compares two non-negative decimal strings with two decimals, without floating point. */
export function compareDecimal(a: string, b: string): number {
  const [ai, af] = a.split('.');
  const [bi, bf] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  return ai < bi ? -1 : ai > bi ? 1 : af < bf ? -1 : af > bf ? 1 : 0;
}

/** Tags trimmed, empty ones dropped, and each kept once whatever its case (the first spelling wins). */
export function cleanTags(value: unknown, field = 'tags'): string[] {
  return parseInput(tagsSchema, value, field);
}

/** Optional text: null/undefined become the empty string. */
export function cleanDescription(value: unknown, field = 'description'): string {
  return parseInput(descriptionSchema, value, field);
}

/** An optional SKU: trimmed, empty means none. */
export function cleanSku(value: unknown, field = 'sku'): string | null {
  return parseInput(skuSchema, value, field);
}

/** A font family name of the font service (letters, digits and single spaces), or null for none. */
export function cleanFontName(value: unknown, field: string): string | null {
  return parseInput(fontNameSchema, value, field);
}

/** One of the eight placements; the labels of the form ("Top Left") are read as their value too. */
export function parseMessageLocation(value: unknown, field: string): MessageLocation {
  return parseInput(messageLocationSchema, value, field) as MessageLocation;
}

/** A list of ids (duplicates dropped, order kept). */
export function idList(value: unknown, field: string, max: number): number[] {
  return parseInput(idListSchema(max), value, field);
}
