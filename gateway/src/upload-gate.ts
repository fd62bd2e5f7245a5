import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authorize } from '../../server/src/core/access.js';
import { AppError, badInput } from '../../server/src/core/errors.js';
import type { Services } from '../../server/src/services.js';
import { HTTP_STATUS, sendError } from './http-errors.js';

/** Seconds a refused upload is asked to wait when every upload slot is taken. */
const UPLOAD_RETRY_AFTER_SECONDS = 5;

/**
 * Caps the uploads this process receives at the same time: each takes a slot until its response is
 * finished (or its connection gone); with every slot taken, the next answers 429 before its body is read.
 */
export class UploadSlots {
  private active = 0;

  constructor(readonly max: number) {}

  /** Takes a slot for this response, or throws RATE_LIMITED. */
  take(res: Response): void {
    if (this.active >= this.max) {
      throw new AppError('RATE_LIMITED', 'Too many uploads are in progress. Please try again in a few seconds.', { retryAfter: UPLOAD_RETRY_AFTER_SECONDS });
    }
    this.active += 1;
    let released = false;
    res.once('close', () => {
      if (released) return;
      released = true;
      this.active -= 1;
    });
  }

  get inUse(): number {
    return this.active;
  }
}

/**
 * What every multipart request (to /graphql or to a REST upload route) passes before a byte of its
 * body is read: an admin caller (only admins upload); for GraphQL, Apollo's CSRF rule (a multipart
 * POST is a "simple" request a browser sends cross-site, so it must carry `Apollo-Require-Preflight`
 * or `X-Apollo-Operation-Name`); then a free upload slot. Refusals answer with their status
 * (GraphQL-shaped on /graphql, `{message, code}` on REST) and the connection closes unread.
 */
export function uploadGate(services: Services, slots: UploadSlots, shape: 'graphql' | 'rest'): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    try {
      // Who may upload comes first: an anonymous or customer caller hears 401/403 whatever its headers.
      await authorize(req.ctx, 'admin', services.settings);
      if (shape === 'graphql' && !(req.headers['apollo-require-preflight'] || req.headers['x-apollo-operation-name'])) {
        throw badInput('This upload has been blocked as a potential cross-site request forgery: send the "Apollo-Require-Preflight" header with it.');
      }
      slots.take(res);
      next();
    } catch (error) {
      if (!(error instanceof AppError)) return next(error);
      if (shape === 'rest') return sendError(res, error);
      if (error.retryAfter) res.setHeader('Retry-After', String(error.retryAfter));
      res.setHeader('Connection', 'close');
      res.status(HTTP_STATUS[error.code]).json({ errors: [{ message: error.message, extensions: { code: error.code } }] });
    }
  };
}
