import { badInput } from '../../core/errors.js';
import { toCents } from '../../core/money.js';

/** What an admin may issue or add at once (a gift card bought in the shop is 10 to 500). */
export const MAX_ISSUED = '1000.00';
/** The longest reason kept with an admin's change. */
export const MAX_REASON = 500;

/** An amount of money given as a number or a decimal string, positive, two decimals at most. */
export function cleanAmount(value: unknown, field: string, { min, max, signed = false }: { min: string; max: string; signed?: boolean }): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^-?\d{1,9}(\.\d{1,2})?$/.test(text)) throw badInput('Give an amount such as 25 or 25.50.', field);
  const cents = toCents(text);
  const size = Math.abs(cents);
  if (!signed && cents < 0) throw badInput('The amount cannot be negative.', field);
  if (size < toCents(min) || size > toCents(max)) throw badInput(`The amount is ${signed ? 'between -' + max + ' and ' + max + ', not 0' : 'from ' + min + ' to ' + max}.`, field);
  const whole = String(Math.trunc(size / 100));
  return `${cents < 0 ? '-' : ''}${whole}.${String(size % 100).padStart(2, '0')}`;
}

/** An admin's reason: required, one paragraph of at most 500 characters. */
export function cleanReason(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw badInput('Say why (the reason is kept with the gift card and in the audit log).', 'reason');
  const text = value.trim().replace(/\s+/g, ' ');
  if (text.length > MAX_REASON) throw badInput(`The reason is at most ${MAX_REASON} characters.`, 'reason');
  return text;
}
