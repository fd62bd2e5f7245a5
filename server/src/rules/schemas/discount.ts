/** Discount codes. */
import { z } from 'zod';
import { MAX_DISCOUNT_CODE_LENGTH, MAX_DISCOUNT_USES } from '../limits.js';
import { DISCOUNT_CODE_PATTERN } from '../text.js';
import { asText, idSchema, record, singleLineSchema } from './fields.js';

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

/** The most products or categories a code names. */
export const MAX_DISCOUNT_TARGETS = 1_000;
export const MAX_AUTOMATIC_DISCOUNT_NAME = 120;

/** A list of ids (empty when left out). */
const idListSchema = (what: string) =>
  z.preprocess(
    (value) => (isEmpty(value) ? [] : value),
    z.array(idSchema(`Each of the ${what} is given by its id.`), `The ${what} are a list of ids.`).max(MAX_DISCOUNT_TARGETS, `A code names at most ${MAX_DISCOUNT_TARGETS} ${what}.`),
  );

/** A yes or no that may be left out (no). */
const flagSchema = (what: string) => z.preprocess((value) => (isEmpty(value) ? false : value), z.boolean(`${what} is true or false.`));

/**
 * The fields of a discount code but the amounts (prices, read by the server's price rule): exactly
 * one of percentOff and amountOff; an end after the start; its rules (products, categories, a
 * minimum subtotal, once per customer, a first order only).
 */
export const discountFieldsSchema = record(
  {
    code: discountCodeSchema,
    percentOff: z.unknown(),
    amountOff: z.unknown(),
    startsAt: optionalDateSchema,
    endsAt: optionalDateSchema,
    maxUses: optionalCountSchema('The maximum uses'),
    productIds: idListSchema('products'),
    categoryIds: idListSchema('categories'),
    minSubtotal: z.unknown(),
    oncePerCustomer: flagSchema('Once per customer'),
    firstOrderOnly: flagSchema('First order only'),
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

const MIN_CARDS_MESSAGE = 'The number of cards is a whole number from 1 to 1000.';
export const minCardsSchema = z.number(MIN_CARDS_MESSAGE).int(MIN_CARDS_MESSAGE).min(1, MIN_CARDS_MESSAGE).max(1000, MIN_CARDS_MESSAGE);

/**
 * The fields of an automatic discount but the amounts (prices, read by the server's price rule): a
 * name and either "N or more cards: P % off the cards" (minCards, percentOff) or "orders from X: Y
 * off" (minSubtotal, amountOff); an optional start and a later end.
 */
export const automaticDiscountFieldsSchema = record(
  {
    name: singleLineSchema('The name', MAX_AUTOMATIC_DISCOUNT_NAME),
    minCards: z.unknown(),
    percentOff: z.unknown(),
    minSubtotal: z.unknown(),
    amountOff: z.unknown(),
    startsAt: optionalDateSchema,
    endsAt: optionalDateSchema,
  },
  'The automatic discount is missing.',
).superRefine((input, ctx) => {
  const cards = !isEmpty(input.minCards) || !isEmpty(input.percentOff);
  const subtotal = !isEmpty(input.minSubtotal) || !isEmpty(input.amountOff);
  if (cards === subtotal) {
    const message = cards ? 'Give either a number of cards and a percentage, or a subtotal and an amount off, not both.' : 'Give a number of cards and a percentage off them, or a subtotal and an amount off.';
    ctx.addIssue({ code: 'custom', message, path: [cards ? 'minSubtotal' : 'minCards'], input });
    return;
  }
  if (cards) {
    const count = minCardsSchema.safeParse(input.minCards);
    if (!count.success) ctx.addIssue({ code: 'custom', message: count.error.issues[0]!.message, path: ['minCards'], input: input.minCards });
    const percent = percentOffSchema.safeParse(input.percentOff);
    if (!percent.success) ctx.addIssue({ code: 'custom', message: percent.error.issues[0]!.message, path: ['percentOff'], input: input.percentOff });
  } else {
    if (isEmpty(input.minSubtotal)) ctx.addIssue({ code: 'custom', message: 'Give the subtotal the discount starts from.', path: ['minSubtotal'], input });
    if (isEmpty(input.amountOff)) ctx.addIssue({ code: 'custom', message: 'Give the amount off.', path: ['amountOff'], input });
  }
  if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) ctx.addIssue({ code: 'custom', message: 'The end must be after the start.', path: ['endsAt'], input });
});
