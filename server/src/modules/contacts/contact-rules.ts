import { parseInput } from '../../core/input.js';
import { DEFAULT_REMIND_DAYS, isOccasionDate, MAX_OCCASION_LABEL, MAX_OCCASIONS, MAX_REMIND_DAYS, MIN_REMIND_DAYS } from '../../rules/occasions.js';
import { MAX_PERSON_NAME } from '../../rules/limits.js';
import { emailSchema, singleLineSchema, z } from '../../rules/schemas.js';

/** Checks of what a shopper sends for their address book; each throws BAD_USER_INPUT on the field. */

export interface OccasionValue {
  label: string;
  month: number;
  day: number;
  year: number | null;
  remind: boolean;
  remindDaysBefore: number;
}

export interface ContactValue {
  name: string;
  email: string;
  occasions: OccasionValue[];
}

const whole = (message: string, min: number, max: number) => z.number(message).int(message).min(min, message).max(max, message);
const REMIND_MESSAGE = `"Remind me" is ${MIN_REMIND_DAYS} to ${MAX_REMIND_DAYS} days before.`;

const occasionSchema = z
  .object(
    {
      label: singleLineSchema('The occasion', MAX_OCCASION_LABEL, true, 'Name the occasion (Birthday, Anniversary...).'),
      month: whole('The month is 1 to 12.', 1, 12),
      day: whole('The day is 1 to 31.', 1, 31),
      year: z.preprocess((value) => (value === undefined || value === '' ? null : value), whole('The year is 1900 to 2100, or none.', 1900, 2100).nullable()),
      // Left out: on, 7 days before; null days: off.
      remind: z.preprocess((value) => value ?? true, z.boolean('"Remind me" is on or off.')),
      remindDaysBefore: z.unknown().optional(),
    },
    'An occasion needs a label, a month and a day.',
  )
  .transform((value, ctx): OccasionValue => {
    if (!isOccasionDate(value)) {
      ctx.addIssue({ code: 'custom', message: value.year ? `${value.year} has no such day.` : 'There is no such day.', path: ['day'], input: value.day });
      return z.NEVER;
    }
    if (value.remindDaysBefore === null) return { ...value, remind: false, remindDaysBefore: DEFAULT_REMIND_DAYS };
    const days = whole(REMIND_MESSAGE, MIN_REMIND_DAYS, MAX_REMIND_DAYS).safeParse(value.remindDaysBefore ?? DEFAULT_REMIND_DAYS);
    if (!days.success) {
      ctx.addIssue({ code: 'custom', message: REMIND_MESSAGE, path: ['remindDaysBefore'], input: value.remindDaysBefore });
      return z.NEVER;
    }
    return { ...value, remindDaysBefore: days.data };
  });

const contactSchema = z
  .object(
    {
      name: singleLineSchema('The name', MAX_PERSON_NAME),
      email: emailSchema,
      occasions: z.preprocess((value) => value ?? [], z.array(occasionSchema, 'The occasions must be a list.').max(MAX_OCCASIONS, `A contact has at most ${MAX_OCCASIONS} occasions.`)),
    },
    'The contact is missing.',
  )
  .superRefine((value, ctx) => {
    const labels = new Set<string>();
    value.occasions.forEach((occasion, index) => {
      const key = occasion.label.toLocaleLowerCase();
      if (labels.has(key)) ctx.addIssue({ code: 'custom', message: `There is already an occasion called "${occasion.label}".`, path: ['occasions', index, 'label'], input: occasion.label });
      labels.add(key);
    });
  });

/** A contact as sent by a client, checked: its name, address and occasions (labels once each). */
export function cleanContact(value: unknown, field = 'input'): ContactValue {
  return parseInput(contactSchema, value && typeof value === 'object' ? { ...value } : value, field);
}
