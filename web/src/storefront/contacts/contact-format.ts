import { occasionDateLabel } from '@rules';

/** Whether a contact is one a search finds: every word in its name or address, as the server searches. */
export function searchMatches(contact: { name: string; email: string }, search: string): boolean {
  const text = `${contact.name} ${contact.email}`.toLowerCase();
  return search.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

/** "Birthday · 9 December · reminder 7 days before" (or "no reminder"). */
export function occasionSummary(occasion: { label: string; month: number; day: number; year?: number | null; remind: boolean; remindDaysBefore: number }): string {
  const reminder = occasion.remind ? `reminder ${occasion.remindDaysBefore} day${occasion.remindDaysBefore === 1 ? '' : 's'} before` : 'no reminder';
  return `${occasion.label} · ${occasionDateLabel(occasion)} · ${reminder}`;
}
