/**
 * The shop's input checks (the zod schemas of @rules/schemas, which the server runs on what it is
 * sent) and its answers to a shopper's account requests ("We have sent a link to …") are in
 * English; a page in another language shows each known one in its own words.
 * The server's texts stay as they are: a message is recognised by its exact English, and one not
 * known here is shown as the server wrote it. (The texts are written out rather than imported: the
 * schemas would bring zod into the storefront's pages.)
 */
import { defineMessages, useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { MAX_OCCASION_LABEL, MAX_PASSWORD_LENGTH, MAX_PERSON_NAME, MIN_PASSWORD_LENGTH } from '@rules';
import { errorMessage } from '../apollo/errors';
import { englishText } from './english-text';

const messages = defineMessages({
  email: { id: 'auth.input.email', defaultMessage: 'Please enter a valid e-mail address.' },
  username: { id: 'auth.input.username', defaultMessage: "Username must be 3 to 32 characters: letters, digits, '_', '.' or '-'." },
  passwordShort: { id: 'auth.input.passwordShort', defaultMessage: 'Password must be at least {min} characters long.' },
  passwordLong: { id: 'auth.input.passwordLong', defaultMessage: 'Password must be at most {max} characters long.' },
  cardNumber: { id: 'checkout.input.cardNumber', defaultMessage: 'Please enter a valid card number.' },
  cardExpiry: { id: 'checkout.input.cardExpiry', defaultMessage: 'Please enter the expiry date as MM/YY.' },
  cardExpired: { id: 'checkout.input.cardExpired', defaultMessage: 'The card has expired.' },
  cardCvc: { id: 'checkout.input.cardCvc', defaultMessage: 'The security code is 3 or 4 digits.' },
  nameRequired: { id: 'contacts.input.nameRequired', defaultMessage: 'The name is required.' },
  nameLine: { id: 'contacts.input.nameLine', defaultMessage: 'The name must be a single line without control characters.' },
  nameLong: { id: 'contacts.input.nameLong', defaultMessage: 'The name must be at most {max} characters.' },
  occasionRequired: { id: 'contacts.input.occasionRequired', defaultMessage: 'Name the occasion (Birthday, Anniversary...).' },
  occasionLong: { id: 'contacts.input.occasionLong', defaultMessage: 'The occasion must be at most {max} characters.' },
  noSuchDay: { id: 'contacts.input.noSuchDay', defaultMessage: 'There is no such day.' },
  resetRequested: { id: 'auth.forgot.sent', defaultMessage: 'If an account uses that address, we have sent it a link.' },
  passwordSet: { id: 'auth.reset.done', defaultMessage: 'Your password has been set. Sign in with it.' },
  passwordChanged: { id: 'auth.changePassword.done', defaultMessage: 'Password changed successfully' },
  alreadyConfirmed: { id: 'settings.confirm.already', defaultMessage: 'Your e-mail address is already confirmed.' },
  confirmed: { id: 'auth.verify.done', defaultMessage: 'Your e-mail address is confirmed.' },
  newLinkSent: { id: 'settings.confirm.sentTo', defaultMessage: 'We have sent a new link to {email}.' },
  changeLinkSent: { id: 'settings.email.sentTo', defaultMessage: 'We have sent a link to {email}. Your address changes once you open it.' },
  addressChanged: { id: 'auth.verify.changed', defaultMessage: 'Your address is now {email}.' },
});

/** The answers that name an address, by their English pattern (the address is the first group). */
const KNOWN_PATTERNS: [RegExp, MessageDescriptor][] = [
  [/^We have sent a new link to (\S+)\.$/, messages.newLinkSent],
  [/^We have sent a link to (\S+)\. Your address changes once you open it\.$/, messages.changeLinkSent],
  [/^Your address is now (\S+)\.$/, messages.addressChanged],
];

/** Each known text as the server writes it, with the message that says it and the message's values. */
const KNOWN = new Map<string, [MessageDescriptor, Record<string, number>?]>([
  [englishText(messages.email), [messages.email]],
  [englishText(messages.username), [messages.username]],
  [`Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, [messages.passwordShort, { min: MIN_PASSWORD_LENGTH }]],
  [`Password must be at most ${MAX_PASSWORD_LENGTH} characters long.`, [messages.passwordLong, { max: MAX_PASSWORD_LENGTH }]],
  [englishText(messages.cardNumber), [messages.cardNumber]],
  [englishText(messages.cardExpiry), [messages.cardExpiry]],
  [englishText(messages.cardExpired), [messages.cardExpired]],
  [englishText(messages.cardCvc), [messages.cardCvc]],
  [englishText(messages.nameRequired), [messages.nameRequired]],
  [englishText(messages.nameLine), [messages.nameLine]],
  [`The name must be at most ${MAX_PERSON_NAME} characters.`, [messages.nameLong, { max: MAX_PERSON_NAME }]],
  [englishText(messages.occasionRequired), [messages.occasionRequired]],
  [`The occasion must be at most ${MAX_OCCASION_LABEL} characters.`, [messages.occasionLong, { max: MAX_OCCASION_LABEL }]],
  [englishText(messages.noSuchDay), [messages.noSuchDay]],
  ...[messages.resetRequested, messages.passwordSet, messages.passwordChanged, messages.alreadyConfirmed, messages.confirmed].map((m): [string, [MessageDescriptor]] => [englishText(m), [m]]),
]);

/** A text of the shop's input checks or account answers in the page's language (any other text as it is). */
export function inputMessage(intl: IntlShape, text: string): string {
  const known = KNOWN.get(text);
  if (known) return intl.formatMessage(known[0], known[1]);
  for (const [pattern, message] of KNOWN_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return intl.formatMessage(message, { email: match[1] });
  }
  return text;
}

/** The server's message for a failed operation (its input checks' in the page's language), or the fallback. */
export function useErrorText(): (error: unknown, fallback: string) => string {
  const intl = useIntl();
  return (error, fallback) => inputMessage(intl, errorMessage(error, fallback));
}
