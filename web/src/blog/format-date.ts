let local: Intl.DateTimeFormat | null = null;
/** The same on the server and in every browser: the first render of a page the server drew. */
let stable: Intl.DateTimeFormat | null = null;

/** A post's date for readers ("22 November 2026"); empty for none. `stable`: in UTC, as the server writes it. */
export function formatDate(iso: string | null | undefined, { stable: fixed = false } = {}): string {
  if (!iso) return '';
  // Made when first needed (a formatter is costly to make on a phone), not when the page's code loads.
  const format = fixed
    ? (stable ??= new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }))
    : (local ??= new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long', day: 'numeric' }));
  return format.format(new Date(iso));
}
