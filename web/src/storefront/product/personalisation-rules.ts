import { classifyDeliveryDay, DEFAULT_DELIVERY_TIME, isEmail, isSingleLine, isTimeOfDay, MAX_MESSAGE_LENGTH, MAX_PERSON_NAME, MAX_RECIPIENTS_PER_LINE } from '@rules';
import type { CardPersonalisation, CardRecipient } from '../cart/cart-lines';
import { groupCardErrors } from '../group-card/group-card-rules';
import { pageIntl } from '../../i18n/page-intl';

export const MAX_MESSAGE = MAX_MESSAGE_LENGTH;
export const MAX_NAME = MAX_PERSON_NAME;

/**
 * The form's problems by field: `recipients.{n}.name`, `recipients.{n}.email`, `recipients`,
 * `senderName`, `message`, `deliveryDate`, `deliveryTime`.
 */
export type PersonalisationErrors = Partial<Record<string, string>>;

/** A day as YYYY-MM-DD in the browser's own time zone. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The browser's wall-clock time, HH:MM. */
export const localTime = (date: Date): string => `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

/** "At most 100 characters.": a text past its limit. */
export const tooLong = (max: number) => pageIntl().formatMessage({ id: 'product.error.tooLong', defaultMessage: 'At most {max} characters.' }, { max });

/** A name of more than one line, or with characters a name does not have. */
export const oneLine = () => pageIntl().formatMessage({ id: 'product.error.oneLine', defaultMessage: 'One line, without special characters.' });

/** A name's problem for the form: missing, too long, or not one line (the limits and the line rule are the server's). */
function nameError(name: string, missing: string): string | undefined {
  const text = name.trim();
  if (!text) return missing;
  if (text.length > MAX_PERSON_NAME) return tooLong(MAX_PERSON_NAME);
  if (!isSingleLine(text)) return oneLine();
  return undefined;
}

/** The problems of a card's recipients: each needs a name and an address, each address once, 100 at most. */
function recipientErrors(recipients: readonly CardRecipient[], errors: PersonalisationErrors): void {
  if (!recipients.length) errors.recipients = pageIntl().formatMessage({ id: 'product.error.addRecipient', defaultMessage: 'Add a recipient.' });
  if (recipients.length > MAX_RECIPIENTS_PER_LINE) errors.recipients = pageIntl().formatMessage({ id: 'product.error.tooManyRecipients', defaultMessage: 'A card goes to at most {max} recipients at once; add it again for more.' }, { max: MAX_RECIPIENTS_PER_LINE });
  const seen = new Set<string>();
  recipients.forEach((recipient, index) => {
    const name = nameError(recipient.name, pageIntl().formatMessage({ id: 'product.error.recipientName', defaultMessage: "Enter the recipient's name." }));
    if (name) errors[`recipients.${index}.name`] = name;
    const email = recipient.email.trim().toLowerCase();
    if (!isEmail(email)) errors[`recipients.${index}.email`] = pageIntl().formatMessage({ id: 'product.error.recipientEmail', defaultMessage: "Enter the recipient's e-mail address." });
    else if (seen.has(email)) errors[`recipients.${index}.email`] = pageIntl().formatMessage({ id: 'product.error.duplicateEmail', defaultMessage: 'This address is already a recipient of this card.' });
    seen.add(email);
  });
}

/**
 * The shopper's checks of a card's personalisation (the shop checks again with its schema); empty
 * when all is well. The storefront checks with the shared rules' predicates rather than the zod
 * schemas, which would add their library to the product page. `now` is the browser's clock: a day
 * and an hour are the shopper's own.
 */
export function validatePersonalisation(p: CardPersonalisation, now: Date): PersonalisationErrors {
  const errors: PersonalisationErrors = {};
  recipientErrors(p.recipients, errors);
  const senderName = nameError(p.senderName, pageIntl().formatMessage({ id: 'product.error.senderName', defaultMessage: 'Enter your name.' }));
  if (senderName) errors.senderName = senderName;
  if (p.message.trim().length > MAX_MESSAGE) errors.message = tooLong(MAX_MESSAGE);
  if (p.deliveryDate !== null) {
    // A later day, or today at an hour still to come; for "at once" the shopper picks "Send now".
    const day = classifyDeliveryDay(p.deliveryDate, localDay(now));
    if (day === 'not-a-day') errors.deliveryDate = pageIntl().formatMessage({ id: 'product.error.chooseDay', defaultMessage: 'Choose a day.' });
    else if (day === 'past') errors.deliveryDate = pageIntl().formatMessage({ id: 'product.error.pastDay', defaultMessage: 'Choose today or a later day, or send it now.' });
    else if (day === 'too-far') errors.deliveryDate = pageIntl().formatMessage({ id: 'product.error.tooFar', defaultMessage: 'Choose a day within a year.' });
    if (!isTimeOfDay(p.deliveryTime)) errors.deliveryTime = pageIntl().formatMessage({ id: 'product.error.chooseHour', defaultMessage: 'Choose an hour.' });
    else if (day === 'today' && p.deliveryTime <= localTime(now)) errors.deliveryTime = pageIntl().formatMessage({ id: 'product.error.pastHour', defaultMessage: 'Choose a later hour today, or send it now.' });
  }
  return { ...groupCardErrors(p, now), ...errors };
}

export const emptyRecipient = (): CardRecipient => ({ name: '', email: '' });

/** A blank card; `deliveryTime` is the hour the form offers first (the shop's default delivery hour). */
export const emptyPersonalisation = (timeZone: string, deliveryTime = DEFAULT_DELIVERY_TIME): CardPersonalisation => ({ recipients: [emptyRecipient()], senderName: '', message: '', deliveryDate: null, deliveryTime, timeZone });

/** The shopper's zone as the browser tells it; `fallback` (the shop's zone) when it does not. */
export const browserTimeZone = (fallback = 'UTC') => Intl.DateTimeFormat().resolvedOptions().timeZone || fallback;

/** The personalisation as it goes into the cart: texts trimmed, addresses lower case. */
export const trimmedPersonalisation = (p: CardPersonalisation): CardPersonalisation => ({
  ...p,
  recipients: p.recipients.map((r) => ({ ...r, name: r.name.trim(), email: r.email.trim().toLowerCase() })),
  senderName: p.senderName.trim(),
  message: p.message.trim(),
});
