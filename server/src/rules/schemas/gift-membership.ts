/** A membership bought as a present: the plan whose period it gives, and whom it goes to. */
import { z } from 'zod';
import { MAX_MESSAGE_LENGTH, MAX_PERSON_NAME } from '../limits.js';
import { emailSchema, multiLineSchema, record, singleLineSchema } from './fields.js';

/** A gift membership line's personalisation: the plan, its recipient, the sender and an optional message. */
export const giftMembershipPersonalisationSchema = record(
  {
    planId: z.coerce.number({ message: 'Choose a plan.' }).int('Choose a plan.').positive('Choose a plan.'),
    recipientName: singleLineSchema("The recipient's name", MAX_PERSON_NAME),
    recipientEmail: emailSchema,
    senderName: singleLineSchema('Your name', MAX_PERSON_NAME),
    message: multiLineSchema('The message', MAX_MESSAGE_LENGTH, false),
  },
  "The gift membership's plan and recipient are missing.",
);

export type GiftMembershipPersonalisation = z.output<typeof giftMembershipPersonalisationSchema>;
