/**
 * When a card's e-mail may go out (contract: "now or a later day"). A shopper picks "now" or a day;
 * a day is a calendar day of the shopper's time zone, from tomorrow up to one year ahead
 * (MAX_DELIVERY_DAYS days after today). The server reads today's date as "now" (the same as no
 * date); the form offers "now" for that, so it asks for a later day.
 */

/** The latest day is this many days after today. */
export const MAX_DELIVERY_DAYS = 365;

export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a text is a real calendar day written YYYY-MM-DD. */
export function isDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A calendar day plus some days, as YYYY-MM-DD (no time zone involved). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** The last day a card may be scheduled for, given today. */
export const latestDeliveryDay = (today: string): string => addDays(today, MAX_DELIVERY_DAYS);
/** The first day a card may be scheduled for (today means now). */
export const earliestDeliveryDay = (today: string): string => addDays(today, 1);

export type DeliveryDay = 'today' | 'later' | 'not-a-day' | 'past' | 'too-far';

/** What a chosen day is, relative to today (both YYYY-MM-DD in the shopper's zone). */
export function classifyDeliveryDay(day: string, today: string): DeliveryDay {
  if (!isDay(day)) return 'not-a-day';
  if (day < today) return 'past';
  if (day === today) return 'today';
  if (day > latestDeliveryDay(today)) return 'too-far';
  return 'later';
}

/**
 * Intl formatters by zone and use, made once: making one costs far more than using it (a checkout
 * of 50 cards would make 150). Only zones the runtime knows get here, a few hundred at most.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(use: 'day' | 'wall', timeZone: string): Intl.DateTimeFormat {
  const key = `${use} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    made =
      use === 'day'
        ? new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
        : new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(key, made);
  }
  return made;
}

/** The day it is in a time zone, as YYYY-MM-DD. */
export function dayIn(instant: Date, timeZone: string): string {
  return formatter('day', timeZone).format(instant);
}

/** How far a zone's wall clock is ahead of UTC at an instant, in ms. */
function zoneOffset(instant: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter('wall', timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a day starts in a time zone (daylight-saving changes included). */
export function startOfDay(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const guess = Date.UTC(y!, m! - 1, d!);
  let instant = guess - zoneOffset(new Date(guess), timeZone);
  instant = guess - zoneOffset(new Date(instant), timeZone);
  return new Date(instant);
}

/** A time zone's canonical name, or null when the runtime does not know it. */
export function knownTimeZone(value: string): string | null {
  const known = knownZones.get(value);
  if (known) return known;
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    // Remembered for names the runtime knows (a bounded set); unknown ones are looked at each time.
    if (knownZones.size < 2000) knownZones.set(value, zone);
    return zone;
  } catch {
    return null;
  }
}
const knownZones = new Map<string, string>();
