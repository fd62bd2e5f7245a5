/**
 * The one error type of the domain. Services throw these; the gateway maps `code` to an HTTP status
 * (gateway/src/http-errors.ts) and the GraphQL layer copies it to `extensions.code`.
 */
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

export interface AppErrorOptions {
  /** The input field at fault, for BAD_USER_INPUT. */
  field?: string;
  /** Seconds after which a retry may succeed (429, 503). */
  retryAfter?: number;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = options.field;
    this.retryAfter = options.retryAfter;
  }
}

export const badInput = (message: string, field?: string) => new AppError('BAD_USER_INPUT', message, { field });
export const unauthenticated = (message = 'Authentication required') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'Admins only') => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, field?: string) => new AppError('CONFLICT', message, { field });
