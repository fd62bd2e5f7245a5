import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { COMPRESS_MIN_BYTES, type JsonAnswer } from '../../server/src/core/read-cache.js';

/**
 * HTTP caching of storefront reads. Public answers carry a strong ETag (a `304` when the caller
 * already has them) and may be kept by shared caches for a few seconds; browsers check back every
 * time (a cheap 304). Whatever is asked with a token, and every admin or personal answer, is
 * `private, no-store`. JSON above a small size goes out compressed (br, else gzip), compressed once
 * per cached answer (see jsonAnswer).
 *
 * The same answer goes out through Express (sendJsonAnswer) or, for anonymous reads already in the
 * cache, straight from the HTTP server (cached-reads.ts): both build it with `jsonAnswerReply`.
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=5, stale-while-revalidate=30';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const JSON_ANSWER_VARY = 'Accept-Encoding, Authorization';
export { COMPRESS_MIN_BYTES };

/** Whether the request came with credentials, so that its answer is the caller's own. */
export const isPersonal = (req: { headers: IncomingHttpHeaders }): boolean => Boolean(req.headers.authorization);

function encodingFor(accepted: string | undefined): 'br' | 'gzip' | null {
  if (!accepted || typeof accepted !== 'string') return null;
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return null;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === etag || trimmed === '*';
  });
}

/** What a storefront JSON answer sends for one request: status, headers in order (name, value, ...), and body. */
export interface Reply {
  status: 200 | 304;
  headers: string[];
  body: Buffer | undefined;
}

/** The reply to a request for `answer`: 304 when the caller has it, compressed when it is worth it. */
export function jsonAnswerReply(method: string | undefined, headers: IncomingHttpHeaders, answer: JsonAnswer): Reply {
  const cacheControl = headers.authorization ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL;
  if (matches(headers['if-none-match'], answer.etag)) {
    return { status: 304, headers: ['Cache-Control', cacheControl, 'ETag', answer.etag, 'Vary', JSON_ANSWER_VARY], body: undefined };
  }
  let body = answer.body;
  let encoding: 'br' | 'gzip' | null = null;
  if (body.length >= COMPRESS_MIN_BYTES) {
    encoding = encodingFor(headers['accept-encoding']);
    if (encoding === 'br' && answer.br) body = answer.br;
    else if (encoding === 'gzip' && answer.gzip) body = answer.gzip;
    else encoding = null;
  }
  const out = ['Cache-Control', cacheControl, 'ETag', answer.etag, 'Vary', JSON_ANSWER_VARY, 'Content-Type', JSON_CONTENT_TYPE];
  if (encoding) out.push('Content-Encoding', encoding);
  out.push('Content-Length', String(body.length));
  return { status: 200, headers: out, body: method === 'HEAD' ? undefined : body };
}

/** Sends a storefront JSON answer through Express. */
export function sendJsonAnswer(req: Request, res: Response, answer: JsonAnswer): void {
  const reply = jsonAnswerReply(req.method, req.headers, answer);
  for (let i = 0; i < reply.headers.length; i += 2) res.setHeader(reply.headers[i]!, reply.headers[i + 1]!);
  res.status(reply.status).end(reply.body);
}

/**
 * Marks every answer of a router `private, no-store` unless a route says otherwise: admin and
 * personal answers are never kept where another caller could get them.
 */
export function privateByDefault(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
  next();
}
