/** Scheduled sales (contract section 17). */
import { z } from 'zod';
import { MAX_SALE_BANNER_LENGTH, MAX_SALE_NAME_LENGTH, MAX_SALE_TARGETS } from '../limits.js';
import { idSchema, record, singleLineSchema } from './fields.js';
import { optionalDateSchema } from './discount.js';

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

const PERCENT_MESSAGE = 'The percentage off a sale is a whole number from 1 to 90.';
export const salePercentSchema = z.number(PERCENT_MESSAGE).int(PERCENT_MESSAGE).min(1, PERCENT_MESSAGE).max(90, PERCENT_MESSAGE);

const idList = (what: string) =>
  z.preprocess(
    (value) => (isEmpty(value) ? [] : value),
    z.array(idSchema(`Each of the ${what} is given by its id.`), `The ${what} are a list of ids.`).max(MAX_SALE_TARGETS, `A sale covers at most ${MAX_SALE_TARGETS} ${what}.`),
  );

const requiredDate = (what: string) => optionalDateSchema.refine((date) => date !== null, `The ${what} is required.`);

/**
 * The fields of a sale but the amount off (a price, read by the server's price rule): a name, exactly
 * one of percentOff and amountOff, at least one product or category, a start and a later end.
 */
export const saleFieldsSchema = record(
  {
    name: singleLineSchema('The name', MAX_SALE_NAME_LENGTH),
    percentOff: z.unknown(),
    amountOff: z.unknown(),
    productIds: idList('products'),
    categoryIds: idList('categories'),
    startsAt: requiredDate('start'),
    endsAt: requiredDate('end'),
    banner: singleLineSchema('The banner', MAX_SALE_BANNER_LENGTH, false),
  },
  'The sale is missing.',
).superRefine((input, ctx) => {
  const hasPercent = !isEmpty(input.percentOff);
  if (hasPercent === !isEmpty(input.amountOff)) {
    ctx.addIssue({ code: 'custom', message: 'Give either a percentage or an amount off, not both.', path: [hasPercent ? 'amountOff' : 'percentOff'], input });
    return;
  }
  if (hasPercent) {
    const percent = salePercentSchema.safeParse(input.percentOff);
    if (!percent.success) ctx.addIssue({ code: 'custom', message: percent.error.issues[0]!.message, path: ['percentOff'], input: input.percentOff });
  }
  if (!input.productIds.length && !input.categoryIds.length) ctx.addIssue({ code: 'custom', message: 'Choose the products or categories the sale is for.', path: ['productIds'], input });
  if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) ctx.addIssue({ code: 'custom', message: 'The end must be after the start.', path: ['endsAt'], input });
});
