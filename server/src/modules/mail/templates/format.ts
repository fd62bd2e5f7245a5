/** "24 December 2026 at 09:12" in a time zone (the shopper's, else UTC). */
export function formatMoment(at: Date, timeZone: string | null): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: timeZone ?? 'UTC', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

/** "24 December 2026" in a time zone. */
export function formatDay(at: Date, timeZone: string | null): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: timeZone ?? 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
}
