/** Card payments (checked for shape; the payment provider decides whether they pay). */
import { z } from 'zod';
import { MAX_PERSON_NAME } from '../limits.js';
import { asText, record } from './fields.js';

function luhn(digits: string): boolean {
  let total = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    total += digit;
  }
  return total % 10 === 0;
}

const EXPIRY = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/;

/** A payment card's details: digits only, expiry this month or later (by `now`), a 3–4 digit code. */
export const paymentCardSchema = (now: Date) =>
  record(
    {
      cardNumber: z.preprocess(
        (value) => asText(value).replace(/[\s-]/g, ''),
        z.string().refine((number) => /^\d{12,19}$/.test(number) && luhn(number), 'Please enter a valid card number.'),
      ),
      expiry: z
        .preprocess((value) => EXPIRY.exec(asText(value)), z.custom<RegExpExecArray>((match) => match instanceof Array && Number(match[1]) >= 1 && Number(match[1]) <= 12, 'Please enter the expiry date as MM/YY.'))
        .transform((match) => ({ month: Number(match[1]), year: match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]) }))
        .refine(({ month, year }) => year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1, 'The card has expired.'),
      cvc: z.preprocess((value) => asText(value).trim(), z.string().regex(/^\d{3,4}$/, 'The security code is 3 or 4 digits.')),
      cardholderName: z.unknown().transform((value) => asText(value).trim().slice(0, MAX_PERSON_NAME) || null),
    },
    'The payment is missing.',
  )
    .transform(({ cardNumber, expiry, cvc, cardholderName }) => ({ number: cardNumber, expiryMonth: expiry.month, expiryYear: expiry.year, cvc, holderName: cardholderName }));
