/** A gift card bought in the shop: its amount and whom it goes to. */
import { z } from 'zod';
import { GIFT_CARD_MAX_AMOUNT, GIFT_CARD_MIN_AMOUNT } from '../gift-card.js';
import { MAX_MESSAGE_LENGTH, MAX_PERSON_NAME } from '../limits.js';
import { asText, emailSchema, multiLineSchema, record, singleLineSchema } from './fields.js';


const AMOUNT_MESSAGE = `A gift card holds from $${GIFT_CARD_MIN_AMOUNT} to $${GIFT_CARD_MAX_AMOUNT}.`;

/** An amount of 10 to 500 with at most two decimals, as the exact decimal string checkout keeps. */
export const giftCardAmountSchema = z.preprocess(
  (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : asText(value).trim().replace(/^\$/, '')),
  z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, AMOUNT_MESSAGE)
    .refine((text) => Number(text) >= GIFT_CARD_MIN_AMOUNT && Number(text) <= GIFT_CARD_MAX_AMOUNT, AMOUNT_MESSAGE)
    .transform((text) => Number(text).toFixed(2)),
);

/** A gift card line's personalisation: the amount, its recipient, the sender and an optional message. */
export const giftCardPersonalisationSchema = record(
  {
    amount: giftCardAmountSchema,
    recipientName: singleLineSchema("The recipient's name", MAX_PERSON_NAME),
    recipientEmail: emailSchema,
    senderName: singleLineSchema('Your name', MAX_PERSON_NAME),
    message: multiLineSchema('The message', MAX_MESSAGE_LENGTH, false),
  },
  "The gift card's amount and recipient are missing.",
);

export type GiftCardPersonalisation = z.output<typeof giftCardPersonalisationSchema>;
