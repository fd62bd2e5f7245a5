import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { AppError } from '../../server/src/core/errors.js';
import { plainAddress } from '../../server/src/core/client-address.js';
import type { ApiCaller, ApiQuota } from '../../server/src/modules/limits/index.js';
import type { Services } from '../../server/src/services.js';
import { HTTP_STATUS, sendError } from './http-errors.js';

/**
 * The API's request limits on the wire (contract section 19): every answer of REST /api and /graphql
 * says where its caller's count stands (RateLimit-Limit, -Remaining, -Reset), and a request past the
 * limit is answered 429 with Retry-After and the shop's error body (GraphQL's shape on /graphql).
 * A request with a live API key counts against the key, any other against its client address.
 *
 * Not counted: stored media under /api/uploads (files a page loads by the dozen, not API calls) and
 * Stripe's webhook (the payment provider's deliveries, which must not be turned away).
 */
const NOT_COUNTED = ['/api/uploads/', '/api/payments/stripe/webhook'];

export function isCountedApiPath(url: string): boolean {
  if (url.startsWith('/graphql')) return url.length === 8 || url[8] === '?' || url[8] === '/';
  return url.startsWith('/api/') && !NOT_COUNTED.some((prefix) => url.startsWith(prefix));
}

/** The headers of a quota, as name-value pairs (in the order they are sent). */
export function quotaHeaders(quota: ApiQuota): string[] {
  return ['RateLimit-Limit', String(quota.limit), 'RateLimit-Remaining', String(quota.remaining), 'RateLimit-Reset', String(quota.resetSeconds)];
}

/** Counts each API request and sets its headers; past the limit, answers 429. Mounted after the request context. */
export function apiRateLimit(services: Services): RequestHandler {
  return async (req, res, next) => {
    if (!isCountedApiPath(req.originalUrl)) return next();
    try {
      // A key that cannot be looked up (the database is away) is counted as no key: the request then fails as it would have.
      const key = await services.apiKeys.keyOf(() => req.ctx.em, req.headers.authorization).catch(() => null);
      const caller: ApiCaller = key ? { keyId: key.id } : { address: req.ctx.ip };
      const quota = services.apiRequests.takeKnown(caller) ?? (await services.apiRequests.take(caller));
      const headers = quotaHeaders(quota);
      for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
      if (quota.retryAfter === undefined) return next();
      refuse(req.originalUrl, res, new AppError('RATE_LIMITED', services.limits.rules.apiPerKey.message, { retryAfter: quota.retryAfter }));
    } catch (error) {
      next(error);
    }
  };
}

function refuse(url: string, res: Response, error: AppError): void {
  if (!url.startsWith('/graphql')) return sendError(res, error);
  res.setHeader('Retry-After', String(error.retryAfter));
  res.status(HTTP_STATUS.RATE_LIMITED).json({ errors: [{ message: error.message, extensions: { code: error.code, retryAfter: error.retryAfter } }] });
}

/** The id of a key this process knows (its use noted within the minute) that may read the catalogue: the fast path answers it. */
export function catalogueKey(services: Services): (authorization: string) => number | undefined {
  return (authorization) => {
    const key = services.apiKeys.knownKey(authorization);
    return key?.scopes.includes('catalogue:read') ? key.id : undefined;
  };
}

/**
 * The fast path's side (gateway/src/cached-reads.ts): the headers of a cached answer from this
 * process's count of its caller (the key, or else the client address), or undefined when the count
 * must be read first (Express does). The client address is found as Express finds `req.ip` with
 * `trust proxy` set to a number of hops.
 */
export function knownQuota(services: Services, trustProxy: number): (req: IncomingMessage, keyId: number | undefined) => string[] | undefined {
  return (req, keyId) => {
    const caller: ApiCaller = keyId !== undefined ? { keyId } : { address: clientAddress(req, trustProxy) };
    const quota = services.apiRequests.takeKnown(caller, true);
    return quota && quotaHeaders(quota);
  };
}

/** Express's `req.ip` under `trust proxy` = hops: the socket, then X-Forwarded-For from the right, `hops` steps in. */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  const forwarded = req.headers['x-forwarded-for'];
  if (!hops || !forwarded) return plainAddress(socket);
  const chain = [socket, ...(Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',').map((part) => part.trim()).reverse()];
  return plainAddress(chain[Math.min(hops, chain.length - 1)]!);
}
