const formatter = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/** A post's date for readers ("22 November 2026"); empty for none. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? formatter.format(new Date(iso)) : '';
}
