const local = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
/** The same on the server and in every browser: the first render of a page the server drew. */
const stable = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** A post's date for readers ("22 November 2026"); empty for none. `stable`: in UTC, as the server writes it. */
export function formatDate(iso: string | null | undefined, { stable: fixed = false } = {}): string {
  return iso ? (fixed ? stable : local).format(new Date(iso)) : '';
}
