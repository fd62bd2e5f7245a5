/** Discount codes. */
import { z } from 'zod';
import { MAX_DISCOUNT_CODE_LENGTH, MAX_DISCOUNT_USES } from '../limits.js';
import { DISCOUNT_CODE_PATTERN } from '../text.js';
import { asText, record } from './fields.js';

const CODE_MESSAGE = `A discount code is 2 to ${MAX_DISCOUNT_CODE_LENGTH} letters, digits, "-" or "_".`;
export const discountCodeSchema = z.preprocess((value) => asText(value).trim(), z.string().regex(DISCOUNT_CODE_PATTERN, CODE_MESSAGE));

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/** An optional date and time (ISO 8601). */
export const optionalDateSchema = z.preprocess(
  (value) => (isEmpty(value) ? null : typeof value === 'string' || value instanceof Date ? new Date(value) : new Date(NaN)),
  z.date('Please give a date and time (ISO 8601).').nullable(),
);

/** An optional count from 1 (maximum uses). */
export const optionalCountSchema = (what: string) =>
  z.preprocess(
    (value) => (isEmpty(value) ? null : value),
    z.number(`${what} must be a whole number from 1.`).int(`${what} must be a whole number from 1.`).min(1, `${what} must be a whole number from 1.`).max(MAX_DISCOUNT_USES, `${what} must be a whole number from 1.`).nullable(),
  );

export const percentOffSchema = z.number('The percentage off is a whole number from 1 to 100.').int('The percentage off is a whole number from 1 to 100.').min(1, 'The percentage off is a whole number from 1 to 100.').max(100, 'The percentage off is a whole number from 1 to 100.');

/**
 * The fields of a discount code but the amount off (a price, read by the server's price rule):
 * exactly one of percentOff and amountOff; an end after the start.
 */
export const discountFieldsSchema = record(
  {
    code: discountCodeSchema,
    percentOff: z.unknown(),
    amountOff: z.unknown(),
    startsAt: optionalDateSchema,
    endsAt: optionalDateSchema,
    maxUses: optionalCountSchema('The maximum uses'),
  },
  'The discount code is missing.',
)
  .superRefine((input, ctx) => {
    const hasPercent = !isEmpty(input.percentOff);
    if (hasPercent === !isEmpty(input.amountOff)) {
      ctx.addIssue({ code: 'custom', message: 'Give either a percentage or an amount off, not both.', path: [hasPercent ? 'amountOff' : 'percentOff'], input });
      return;
    }
    if (hasPercent) {
      const percent = percentOffSchema.safeParse(input.percentOff);
      if (!percent.success) ctx.addIssue({ code: 'custom', message: percent.error.issues[0]!.message, path: ['percentOff'], input: input.percentOff });
    }
    if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) ctx.addIssue({ code: 'custom', message: 'The end must be after the start.', path: ['endsAt'], input });
  });

// ---------------------------------------------------------------------------------------------
