/**
 * Formatters by time zone, made once: making an Intl.DateTimeFormat costs about a millisecond (a
 * thousand times its `format`), which every e-mail of a batch paid again.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'moment' | 'day', timeZone: string | null): Intl.DateTimeFormat {
  const zone = timeZone ?? 'UTC';
  const key = `${kind} ${zone}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat('en-GB', kind === 'moment' ? { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' });
    // Zones are a few hundred names (spelt in any case, Intl takes them): kept within bounds all the same.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(key, made);
  }
  return made;
}

/** "24 December 2026 at 09:12" in a time zone (the shopper's, else UTC). */
export function formatMoment(at: Date, timeZone: string | null): string {
  return formatter('moment', timeZone).format(at);
}

/** "24 December 2026" in a time zone. */
export function formatDay(at: Date, timeZone: string | null): string {
  return formatter('day', timeZone).format(at);
}
