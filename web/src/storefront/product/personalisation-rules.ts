import { classifyDeliveryDay, emailSchema, issuesByField, MAX_MESSAGE_LENGTH, MAX_PERSON_NAME, multiLineSchema, singleLineSchema, z } from '@rules';
import type { CardPersonalisation } from '../cart/cart-lines';

export const MAX_MESSAGE = MAX_MESSAGE_LENGTH;
export const MAX_NAME = MAX_PERSON_NAME;

export type PersonalisationErrors = Partial<Record<'recipientName' | 'recipientEmail' | 'senderName' | 'message' | 'deliveryDate', string>>;

/** A day as YYYY-MM-DD in the browser's own time zone. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);

/** The fields of the form, checked by the shop's own schemas (the same the server parses with). */
const formSchema = z.object({
  recipientName: singleLineSchema("The recipient's name", MAX_PERSON_NAME),
  recipientEmail: emailSchema,
  senderName: singleLineSchema('Your name', MAX_PERSON_NAME),
  message: multiLineSchema('The message', MAX_MESSAGE_LENGTH, false),
});

/** The form's short texts for what the schema found: a missing name, a long one, or one that is not a line. */
function nameError(issue: z.core.$ZodIssue | undefined, missing: string): string | undefined {
  if (!issue) return undefined;
  if (issue.code === 'too_big') return `At most ${MAX_NAME} characters.`;
  return issue.code === 'custom' && issue.message.endsWith('is required.') ? missing : 'One line, without special characters.';
}

/** The shopper's checks of a card's personalisation (the shop checks again); empty when all is well. */
export function validatePersonalisation(p: CardPersonalisation, today: Date): PersonalisationErrors {
  const errors: PersonalisationErrors = {};
  const parsed = formSchema.safeParse(p);
  const issues = parsed.success ? {} : issuesByField(parsed.error);
  const recipientName = nameError(issues.recipientName, "Enter the recipient's name.");
  if (recipientName) errors.recipientName = recipientName;
  if (issues.recipientEmail) errors.recipientEmail = "Enter the recipient's e-mail address.";
  const senderName = nameError(issues.senderName, 'Enter your name.');
  if (senderName) errors.senderName = senderName;
  if (issues.message) errors.message = `At most ${MAX_MESSAGE} characters.`;
  if (p.deliveryDate !== null) {
    // "Later" is a day after today: for today the shopper picks "now".
    const day = classifyDeliveryDay(p.deliveryDate, localDay(today));
    if (day === 'not-a-day') errors.deliveryDate = 'Choose a day.';
    else if (day === 'past' || day === 'today') errors.deliveryDate = 'Choose a day after today, or send it now.';
    else if (day === 'too-far') errors.deliveryDate = 'Choose a day within a year.';
  }
  return errors;
}

export const emptyPersonalisation = (timeZone: string): CardPersonalisation => ({ recipientName: '', recipientEmail: '', senderName: '', message: '', deliveryDate: null, timeZone });

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
