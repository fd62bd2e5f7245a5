import type { ErrorRequestHandler, Response } from 'express';
import { AppError, type ErrorCode } from '../../server/src/core/errors.js';
import { uploadErrorToAppError } from '../../server/src/modules/media/media-upload.js';
import { DEFAULT_LOCALE } from '../../server/src/rules/locales.js';
import { isDatabaseUnavailable, serviceUnavailable } from '../../server/src/core/db-errors.js';

/** Domain error code → HTTP status, in one table. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  REAUTHENTICATE: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOKEN_INVALID: 400,
  RECIPIENT_UNSUBSCRIBED: 400,
  PRODUCT_UNAVAILABLE: 400,
  DISCOUNT_NOT_APPLICABLE: 400,
  PAYMENT_DECLINED: 402,
  PAYMENTS_UNAVAILABLE: 503,
  PAYMENT_FAILED: 502,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  UNDER_CONSTRUCTION: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
};

export function sendError(res: Response, error: AppError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  // A request whose body was not read (a refused upload) is not read now either: the connection closes.
  if (!res.req.complete) res.setHeader('Connection', 'close');
  if (error.retryAfter) res.setHeader('Retry-After', String(error.retryAfter));
  // In the request's language, as GraphQL answers (English, exactly as the REST contract writes it, for a request naming none).
  const body: Record<string, unknown> = { message: error.messageIn(res.req.ctx?.locale ?? DEFAULT_LOCALE), code: error.code };
  if (error.field) body.field = error.field;
  res.status(HTTP_STATUS[error.code]).json(body);
}

/** Errors raised by Express itself (body parsers, the router), turned into domain errors. */
function fromExpress(error: { type?: string; status?: number; statusCode?: number }): AppError | undefined {
  if (error instanceof URIError) return new AppError('BAD_USER_INPUT', 'The address is not valid (malformed percent-encoding).');
  switch (error.type) {
    case 'entity.parse.failed':
      return new AppError('BAD_USER_INPUT', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported request encoding.');
    default: {
      // Any other client error Express reports (e.g. a path it cannot decode) stays a client error.
      const status = error.status ?? error.statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
        if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported request encoding.');
        return new AppError('BAD_USER_INPUT', 'The request is not valid.');
      }
      return undefined;
    }
  }
}

/** The one error-mapping layer of the REST side: `{message, code}` with the right status, never a stack. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = error instanceof AppError ? error : error && typeof error === 'object' ? fromExpress(error) : undefined;
  if (known) {
    sendError(res, known);
    return;
  }
  if (isDatabaseUnavailable(error)) {
    req.log?.warn({ err: error }, 'database unavailable');
    sendError(res, serviceUnavailable());
    return;
  }
  req.log?.error({ err: error }, 'unhandled error');
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(500).json({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
};

/**
 * Errors graphql-upload raises before the operation runs (too many files, a malformed multipart
 * request) answered as GraphQL errors with the fitting status: 400 for too many files, not its 413.
 */
export const graphqlUploadErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const known = uploadErrorToAppError(error);
  if (!known) {
    next(error);
    return;
  }
  const extensions = { code: known.code, ...(known.field ? { field: known.field } : {}) };
  res.status(HTTP_STATUS[known.code]).json({ errors: [{ message: known.message, extensions }] });
};
