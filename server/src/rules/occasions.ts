import { addDays, dayIn, zonedTime } from './delivery.js';

/**
 * The address book's rules (contract section 12): how many contacts an account keeps, what an
 * occasion is, and when its reminder goes out. An occasion is a day of the year (a month and a day,
 * a year optional) that comes back every year; 29 February falls on 28 February in other years.
 */

/** Contacts one account may keep (contract: 2,000). */
export const MAX_CONTACTS = 2000;
/** Occasions of one contact. */
export const MAX_OCCASIONS = 10;
export const MAX_OCCASION_LABEL = 40;
/** "Remind me" N days before: 1 to 30, 7 unless chosen. */
export const MIN_REMIND_DAYS = 1;
export const MAX_REMIND_DAYS = 30;
export const DEFAULT_REMIND_DAYS = 7;
/** The reminder comes at this hour of the shopper's time zone. */
export const REMINDER_TIME = '09:00';
/** The label of the occasion a CSV's `birthday` column fills. */
export const BIRTHDAY = 'Birthday';
/** The largest address book file imported at once (2,000 lines of long names and addresses fit well within it). */
export const MAX_CONTACTS_CSV_BYTES = 512 * 1024;
/** The first line of an address book file, as imported and exported. */
export const CONTACTS_CSV_HEADER = ['name', 'email', 'birthday'] as const;

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

export interface OccasionDate {
  month: number;
  day: number;
  year?: number | null;
}

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month; February has 29 unless a year that is not a leap year is named. */
export function daysInMonth(month: number, year?: number | null): number {
  if (month === 2) return year === undefined || year === null || isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether a month, a day and an optional year make a real day (29 February only in a leap year when a year is given). */
export function isOccasionDate({ month, day, year }: OccasionDate): boolean {
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(day) || day < 1) return false;
  if (year !== undefined && year !== null && (!Number.isInteger(year) || year < 1900 || year > 2100)) return false;
  return day <= daysInMonth(month, year);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The occasion's day in a year, YYYY-MM-DD: 29 February falls on 28 February in other years. */
export function occasionDayIn(year: number, { month, day }: OccasionDate): string {
  const inYear = month === 2 && day === 29 && !isLeapYear(year) ? 28 : day;
  return `${year}-${pad(month)}-${pad(inYear)}`;
}

/** The first day on or after `fromDay` (YYYY-MM-DD) that the occasion falls on. */
export function nextOccasionDay(occasion: OccasionDate, fromDay: string): string {
  const year = Number(fromDay.slice(0, 4));
  const thisYear = occasionDayIn(year, occasion);
  return thisYear >= fromDay ? thisYear : occasionDayIn(year + 1, occasion);
}

export interface Reminder {
  /** When the reminder goes out: 09:00 in the shopper's zone, N days before the occasion. */
  at: Date;
  /** The day of the occasion it reminds of, YYYY-MM-DD. */
  occasionDay: string;
}

/** The reminder of the occasion's day in a given year. */
export function reminderInYear(occasion: OccasionDate, remindDaysBefore: number, year: number, timeZone: string): Reminder {
  const occasionDay = occasionDayIn(year, occasion);
  return { at: zonedTime(addDays(occasionDay, -remindDaysBefore), REMINDER_TIME, timeZone), occasionDay };
}

/**
 * The first reminder of an occasion after an instant: every year, `remindDaysBefore` days before
 * the occasion at 09:00 in the shopper's time zone. A reminder whose time has passed this year waits
 * for next year (the occasion may still be days away: a reminder comes N days before, or not at all).
 */
export function nextReminder(occasion: OccasionDate, remindDaysBefore: number, after: Date, timeZone: string): Reminder {
  const year = Number(dayIn(after, timeZone).slice(0, 4));
  // A reminder up to 30 days before early January falls in December of the year before.
  for (let y = year; y <= year + 2; y += 1) {
    const reminder = reminderInYear(occasion, remindDaysBefore, y, timeZone);
    if (reminder.at.getTime() > after.getTime()) return reminder;
  }
  /* c8 ignore next */
  throw new Error('no reminder within two years');
}

/** "24 December" or "24 December 1990": how an occasion reads in the address book. */
export function occasionDateLabel({ month, day, year }: OccasionDate): string {
  return `${day} ${MONTH_NAMES[month - 1]}${year ? ` ${year}` : ''}`;
}

/**
 * A birthday as an address book file writes it: `YYYY-MM-DD` or `MM-DD` (also `--MM-DD`, the ISO
 * form without a year); null when it is neither or names no real day (02-30, 2023-02-29).
 */
export function parseBirthday(text: string): OccasionDate | null {
  const match = /^(?:(\d{4})-|--)?(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const date = { month: Number(match[2]), day: Number(match[3]), year: match[1] ? Number(match[1]) : null };
  return isOccasionDate(date) ? date : null;
}

/** A birthday as an address book file writes it: YYYY-MM-DD with a year, MM-DD without. */
export function formatBirthday({ month, day, year }: OccasionDate): string {
  return `${year ? `${year}-` : ''}${pad(month)}-${pad(day)}`;
}
