/**
 * The one error type of the domain. Services throw these; the gateway maps `code` to an HTTP status
 * (gateway/src/http-errors.ts) and the GraphQL layer copies it to `extensions.code`.
 */
import type { MessageDescriptor } from '@formatjs/intl';
import { intlFor } from '../i18n/intl.js';
import type { Locale } from '../rules/locales.js';

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  /** The change needs the caller to prove again who they are (their current password): the session is too old to vouch for it. */
  | 'REAUTHENTICATE'
  | 'NOT_FOUND'
  | 'CONFLICT'
  /** A link's token (an invitation, a password reset, an address confirmation, an unsubscribe link) that is unknown, used, expired or tampered with. */
  | 'TOKEN_INVALID'
  /** A card's recipient unsubscribed from the shop's e-mail: the message names the address. */
  | 'RECIPIENT_UNSUBSCRIBED'
  /** A cart line's product left the shop (deleted, a draft again, archived). */
  | 'PRODUCT_UNAVAILABLE'
  /** A usable discount code whose rules refuse the cart (its products, a minimum subtotal, once per customer, a first order); the message says why. */
  | 'DISCOUNT_NOT_APPLICABLE'
  /** The payment provider refused the payment; the message says why. */
  | 'PAYMENT_DECLINED'
  /** The shop has no payment provider set up (production without PAYMENT_PROVIDER). */
  | 'PAYMENTS_UNAVAILABLE'
  /** The payment provider could not be asked (unreachable, or it refused the request itself): nothing was charged. */
  | 'PAYMENT_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  /** A byte range outside the file. */
  | 'RANGE_NOT_SATISFIABLE'
  | 'RATE_LIMITED'
  | 'UNDER_CONSTRUCTION'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

/**
 * An error's text as a message of the server's catalogue (contract section 20), for the errors a
 * shopper, a recipient or a signer can meet: its id, its English (`defaultMessage`, the catalogue's
 * default) and the values it names. Written with `defineMessages` beside the code that throws it
 * (so that `npm run messages` finds it), and given values with `said`.
 */
export interface ErrorText {
  id: string;
  defaultMessage: string;
  values?: ErrorValues;
}

/**
 * What an error's message is filled with: names and numbers as they are, and what each language
 * writes its own way (a day, an amount) as a function of the language.
 */
export type ErrorValues = Record<string, string | number | ((locale: Locale) => string)>;

/** A message of the catalogue with the values it names. */
export const said = (message: { id: string; defaultMessage: string }, values: ErrorValues): ErrorText => ({ id: message.id, defaultMessage: message.defaultMessage, values });

export interface AppErrorOptions {
  /** The input field at fault, for BAD_USER_INPUT. */
  field?: string;
  /** Seconds after which a retry may succeed (429, 503). */
  retryAfter?: number;
}

/**
 * `message` is the English the error says (what the logs read, and what a request naming no language
 * or English reads); an error a shopper can meet gives it as an `ErrorText`, which `messageIn` says in
 * the request's language (GraphQL's `message` and REST's, by Accept-Language).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  readonly retryAfter?: number;
  /** The catalogue's message this error says, when it is one. */
  readonly text?: ErrorText;

  constructor(code: ErrorCode, message: string | ErrorText, options: AppErrorOptions = {}) {
    super(typeof message === 'string' ? message : inEnglish(message));
    this.name = 'AppError';
    this.code = code;
    this.field = options.field;
    this.retryAfter = options.retryAfter;
    if (typeof message !== 'string') this.text = message;
  }

  /** The message in `locale` (English, exactly `message`, when it is not one of the catalogue's). */
  messageIn(locale: Locale): string {
    return this.text ? format(this.text, locale) : this.message;
  }
}

function format(text: ErrorText, locale: Locale): string {
  const values = Object.fromEntries(Object.entries(text.values ?? {}).map(([name, value]) => [name, typeof value === 'function' ? value(locale) : value]));
  const message: MessageDescriptor = { id: text.id, defaultMessage: text.defaultMessage };
  return intlFor(locale).formatMessage(message, values);
}

/** An error text's English (what the logs read). */
export const inEnglish = (text: ErrorText): string => format(text, 'en');

export const badInput = (message: string | ErrorText, field?: string) => new AppError('BAD_USER_INPUT', message, { field });
export const unauthenticated = (message: string | ErrorText = 'Authentication required') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string | ErrorText = 'Admins only') => new AppError('FORBIDDEN', message);
/** NOT_FOUND: `what` names the thing ("Order" says "Order not found"); a shopper's error gives its whole text. */
export const notFound = (what: string | ErrorText) => new AppError('NOT_FOUND', typeof what === 'string' ? `${what} not found` : what);
export const conflict = (message: string | ErrorText, field?: string) => new AppError('CONFLICT', message, { field });
