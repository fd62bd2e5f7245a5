import type { ErrorRequestHandler, Response } from 'express';
import { AppError, type ErrorCode } from '../../server/src/core/errors.js';
import { uploadErrorToAppError } from '../../server/src/modules/media/media-upload.js';

/** Domain error code → HTTP status, in one table. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYMENT_DECLINED: 402,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UNDER_CONSTRUCTION: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
};

export function sendError(res: Response, error: AppError): void {
  if (error.retryAfter) res.setHeader('Retry-After', String(error.retryAfter));
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.field) body.field = error.field;
  res.status(HTTP_STATUS[error.code]).json(body);
}

/** Errors raised by Express's own body parsers, turned into domain errors. */
function fromBodyParser(error: { type?: string; status?: number }): AppError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new AppError('BAD_USER_INPUT', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported request encoding.');
    default:
      return undefined;
  }
}

/** The one error-mapping layer of the REST side: `{message, code}` with the right status, never a stack. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = error instanceof AppError ? error : fromBodyParser(error);
  if (known) {
    sendError(res, known);
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
