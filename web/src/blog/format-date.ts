import { pageIntl, pageLocale } from '../i18n/page-intl';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A post's date for readers ("22 November 2026"; "22. November 2026" on a German page) in their time
 * zone; empty for none or an invalid date. `stable`: in UTC, as the server writes it (the first
 * render of a page the server drew).
 *
 * English is written out by hand rather than with `Intl.DateTimeFormat`: the first formatter a page
 * makes loads the locale's data, a long task on a phone in the middle of hydrating the blog. The
 * other languages take Intl's words for their months and their order.
 */
export function formatDate(iso: string | null | undefined, { stable = false } = {}): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (pageLocale() !== 'en') return pageIntl().formatDate(date, { day: 'numeric', month: 'long', year: 'numeric', ...(stable ? { timeZone: 'UTC' } : {}) });
  return stable
    ? `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
    : `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}
