import { badInput } from '../../core/errors.js';
import { MESSAGE_LOCATIONS, MessageLocation } from './e-greeting-card.entity.js';

/**
 * The rules a product's fields follow, as pure functions: each takes what a client sent (anything)
 * and returns the clean value or throws BAD_USER_INPUT naming the field.
 */

export const MAX_PRICE = '1000000.00';
export const MAX_TAGS = 30;
export const MAX_TAG_LENGTH = 50;
export const MAX_ASSOCIATED_IMAGES = 20;
export const MAX_DESCRIPTION_LENGTH = 10_000;
export const MAX_SKU_LENGTH = 64;

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
function compareDecimal(a: string, b: string): number {
  const [ai, af] = a.split('.');
  const [bi, bf] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  return ai < bi ? -1 : ai > bi ? 1 : af < bf ? -1 : af > bf ? 1 : 0;
}

/** Tags trimmed, empty ones dropped, and each kept once whatever its case (the first spelling wins). */
export function cleanTags(value: unknown, field = 'tags'): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value) || value.some((tag) => typeof tag !== 'string')) throw badInput('Tags must be a list of texts.', field);
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of value as string[]) {
    const tag = raw.trim().replace(/\s+/g, ' ');
    if (!tag) continue;
    if (tag.length > MAX_TAG_LENGTH) throw badInput(`A tag must be at most ${MAX_TAG_LENGTH} characters.`, field);
    const key = tag.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  if (tags.length > MAX_TAGS) throw badInput(`A product can have at most ${MAX_TAGS} tags.`, field);
  return tags;
}

/** Optional text: null/undefined become the empty string. */
export function cleanDescription(value: unknown, field = 'description'): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') throw badInput('The description must be a text.', field);
  const text = value.trim();
  if (text.length > MAX_DESCRIPTION_LENGTH) throw badInput(`The description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`, field);
  return text;
}

/** An optional SKU: trimmed, empty means none. */
export function cleanSku(value: unknown, field = 'sku'): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' && typeof value !== 'number') throw badInput('The SKU must be a text.', field);
  const sku = String(value).trim();
  if (!sku) return null;
  if (sku.length > MAX_SKU_LENGTH) throw badInput(`The SKU must be at most ${MAX_SKU_LENGTH} characters.`, field);
  if (/[\u0000-\u001f]/.test(sku)) throw badInput('The SKU must not contain control characters.', field);
  return sku;
}

/**
 * A font family name of the font service: letters, digits and single spaces. It ends up in the
 * card page's stylesheet link and CSS, so nothing else may pass.
 */
export function cleanFontName(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw badInput('The font must be a font family name.', field);
  const name = value.trim().replace(/\s+/g, ' ');
  if (!name) return null;
  if (name.length > 100 || !/^[A-Za-z0-9][A-Za-z0-9 ]*$/.test(name)) throw badInput('The font must be a font family name (letters, digits and spaces).', field);
  return name;
}

/** One of the eight placements; the labels of the form ("Top Left") are read as their value too. */
export function parseMessageLocation(value: unknown, field: string): MessageLocation {
  const text = typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s_]+/g, '-') : '';
  if (!(MESSAGE_LOCATIONS as string[]).includes(text)) throw badInput(`The message placement must be one of ${MESSAGE_LOCATIONS.join(', ')}.`, field);
  return text as MessageLocation;
}

/** A list of ids (duplicates dropped, order kept). */
export function idList(value: unknown, field: string, max: number): number[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw badInput('Give a list of ids.', field);
  const ids: number[] = [];
  for (const item of value) {
    const id = typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw badInput('Every id must be a positive integer.', field);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > max) throw badInput(`At most ${max} are allowed.`, field);
  return ids;
}
