import { DEFAULT_LOCALE, INTL_LOCALES, type Locale } from '../../../rules/locales.js';

/**
 * Formatters by language and time zone, made once: making an Intl.DateTimeFormat costs about a
 * millisecond (a thousand times its `format`), which every e-mail of a batch paid again. English
 * e-mails write their dates the British way ("24 December 2026"), as they always have.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'moment' | 'day', timeZone: string | null, locale: Locale): Intl.DateTimeFormat {
  const zone = timeZone ?? 'UTC';
  const key = `${kind} ${zone} ${locale}`;
  let made = formatters.get(key);
  if (!made) {
    const tag = locale === DEFAULT_LOCALE ? 'en-GB' : INTL_LOCALES[locale];
    made = new Intl.DateTimeFormat(tag, kind === 'moment' ? { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' });
    // Zones are a few hundred names (spelt in any case, Intl takes them): kept within bounds all the same.
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(key, made);
  }
  return made;
}

/** "24 December 2026 at 09:12" in a time zone (the shopper's, else UTC), in a language ("24. Dezember 2026 um 09:12"). */
export function formatMoment(at: Date, timeZone: string | null, locale: Locale = DEFAULT_LOCALE): string {
  return formatter('moment', timeZone, locale).format(at);
}

/** "24 December 2026" in a time zone, in a language. */
export function formatDay(at: Date, timeZone: string | null, locale: Locale = DEFAULT_LOCALE): string {
  return formatter('day', timeZone, locale).format(at);
}
