import type { IntlShape } from 'react-intl';
import { BIRTHDAY } from '@rules';

/** Whether a contact is one a search finds: every word in its name or address, as the server searches. */
export function searchMatches(contact: { name: string; email: string }, search: string): boolean {
  const text = `${contact.name} ${contact.email}`.toLowerCase();
  return search.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

/** A month's name in the page's language (1 = January). */
export const monthName = (intl: IntlShape, month: number): string => intl.formatDate(new Date(2000, month - 1, 15), { month: 'long' });

/**
 * The shop's own occasion, "Birthday" (an import finds a contact's birthday by it), in the page's
 * language; any other label as the shopper wrote it.
 */
export const occasionLabel = (intl: IntlShape, label: string): string => (label === BIRTHDAY ? intl.formatMessage({ id: 'contacts.occasion.birthday', defaultMessage: 'Birthday' }) : label);

/** A label as typed, stored as the shop's own "Birthday" when it is that word in the page's language. */
export const storedOccasionLabel = (intl: IntlShape, label: string): string => (label.trim() === occasionLabel(intl, BIRTHDAY) ? BIRTHDAY : label.trim());

/** "9 December" or "9 December 1990", in the page's language. */
export function occasionDate(intl: IntlShape, { month, day, year }: { month: number; day: number; year?: number | null }): string {
  const values = { day, month: monthName(intl, month), year: year ? String(year) : '' };
  return year ? intl.formatMessage({ id: 'contacts.occasion.dateYear', defaultMessage: '{day} {month} {year}' }, values) : intl.formatMessage({ id: 'contacts.occasion.date', defaultMessage: '{day} {month}' }, values);
}

/** "Birthday · 9 December · reminder 7 days before" (or "no reminder"). */
export function occasionSummary(intl: IntlShape, occasion: { label: string; month: number; day: number; year?: number | null; remind: boolean; remindDaysBefore: number }): string {
  const reminder = occasion.remind
    ? intl.formatMessage({ id: 'contacts.occasion.reminder', defaultMessage: 'reminder {days, plural, one {# day} other {# days}} before' }, { days: occasion.remindDaysBefore })
    : intl.formatMessage({ id: 'contacts.occasion.noReminder', defaultMessage: 'no reminder' });
  return intl.formatMessage({ id: 'contacts.occasion.summary', defaultMessage: '{label} · {date} · {reminder}' }, { label: occasionLabel(intl, occasion.label), date: occasionDate(intl, occasion), reminder });
}
