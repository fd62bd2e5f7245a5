/**
 * When a card's e-mail may go out (contract: "now, or a later day at an hour"). A shopper picks
 * "now" or a day and an hour (09:00 unless they choose another) of their own time zone, from today
 * (at an hour still to come) up to one year ahead (MAX_DELIVERY_DAYS days after today). Today
 * without an hour, or at an hour that has passed by the time the order is placed, means now.
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
 * One formatter per kind and zone, made once: making an Intl.DateTimeFormat costs far more than
 * using one (a checkout of a hundred cards reads the same zone many times). There are a few hundred
 * zones, so the table stays small.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'day' | 'parts' | 'time', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    if (kind === 'day') made = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    else if (kind === 'time') made = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    else made = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
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
    formatter('parts', timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a day starts in a time zone (daylight-saving changes included). */
export function startOfDay(day: string, timeZone: string): Date {
  return zonedTime(day, '00:00', timeZone);
}

/** The hour a later day's card goes out at unless the shopper chooses another (contract: 09:00). */
export const DEFAULT_DELIVERY_TIME = '09:00';
export const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether a text is a time of day written HH:MM (24-hour clock). */
export const isTimeOfDay = (value: string): boolean => TIME_PATTERN.test(value);

/**
 * The instant a wall-clock time of a day has in a time zone (daylight-saving changes included; a
 * time the clocks skip, such as 02:30 on the night they go forward, reads as the hour after).
 */
export function zonedTime(day: string, time: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const [hours, minutes] = time.split(':').map(Number);
  const guess = Date.UTC(y!, m! - 1, d!, hours!, minutes!);
  let instant = guess - zoneOffset(new Date(guess), timeZone);
  instant = guess - zoneOffset(new Date(instant), timeZone);
  return new Date(instant);
}

/** The wall-clock time an instant shows in a time zone, as HH:MM. */
export function timeIn(instant: Date, timeZone: string): string {
  return formatter('time', timeZone).format(instant);
}

export type DeliveryMoment = { kind: 'now' } | { kind: 'later'; at: Date } | { kind: 'not-a-day' | 'not-a-time' | 'past' | 'too-far' };

/**
 * When a card chosen for a day and an hour is due, the shop's clock saying `now`: no day is now;
 * today without an hour, or at an hour already gone, is now; a later moment (today at an hour to
 * come, or a later day, at 09:00 without an hour) is that moment in the shopper's zone.
 */
export function deliveryMoment(day: string | null, time: string | null, timeZone: string, now: Date): DeliveryMoment {
  if (day === null) return { kind: 'now' };
  const kind = classifyDeliveryDay(day, dayIn(now, timeZone));
  if (kind !== 'today' && kind !== 'later') return { kind };
  if (time !== null && !isTimeOfDay(time)) return { kind: 'not-a-time' };
  if (kind === 'today' && time === null) return { kind: 'now' };
  const at = zonedTime(day, time ?? DEFAULT_DELIVERY_TIME, timeZone);
  return at.getTime() > now.getTime() ? { kind: 'later', at } : { kind: 'now' };
}

/** The hours a shopper can pick: 00:00 to 23:00. */
export const DELIVERY_HOURS: readonly string[] = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`);

/** A time zone's canonical name, or null when the runtime does not know it. */
export function knownTimeZone(value: string): string | null {
  // Only names already known good are remembered (anything may be asked; the table stays small).
  const known = canonicalZones.get(value);
  if (known) return known;
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    if (canonicalZones.size < 2000) canonicalZones.set(value, zone);
    return zone;
  } catch {
    return null;
  }
}
const canonicalZones = new Map<string, string>();
