/**
 * How the reference writes days, times and prices, spelled out here rather than taken from the
 * shop's formatting (server/src/modules/mail/templates/format.ts and its neighbours). Intl is asked
 * only for the numbers of a wall clock in a time zone (the zone rules); the words are written here.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** What a clock on the wall in `timeZone` shows at the instant. */
function wallClock(at: Date, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  return { year: part('year'), month: part('month'), day: part('day'), hour: part('hour'), minute: part('minute') };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** "24 December 2026" where the shopper is (UTC without a zone). */
export function dayText(at: Date, timeZone: string | null): string {
  const clock = wallClock(at, timeZone ?? 'UTC');
  return `${clock.day} ${MONTHS[clock.month - 1]} ${clock.year}`;
}

/** "24 December 2026 at 09:12" where the shopper is (UTC without a zone), on a 24-hour clock. */
export function momentText(at: Date, timeZone: string | null): string {
  const clock = wallClock(at, timeZone ?? 'UTC');
  return `${clock.day} ${MONTHS[clock.month - 1]} ${clock.year} at ${twoDigits(clock.hour)}:${twoDigits(clock.minute)}`;
}

/** "24 December 2026 at 09:12 UTC": when an account's link stops working. */
export const utcMomentText = (at: Date): string => `${momentText(at, 'UTC')} UTC`;

/** "Wednesday 9 December": a calendar day (YYYY-MM-DD), no zone involved. */
export function weekdayText(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[new Date(Date.UTC(year, month - 1, date)).getUTCDay()]} ${date} ${MONTHS[month - 1]}`;
}

/** "$16.50" from a decimal amount ("16.50", "16.5" or "16"). */
export function dollars(amount: string): string {
  const [whole, cents = ''] = amount.split('.');
  return `$${whole}.${cents.padEnd(2, '0')}`;
}
