import zlib from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import type { JsonAnswer } from '../../server/src/core/read-cache.js';

/**
 * HTTP caching of storefront reads. Public answers carry a strong ETag (a `304` when the caller
 * already has them) and may be kept by shared caches for a few seconds; browsers check back every
 * time (a cheap 304). Whatever is asked with a token, and every admin or personal answer, is
 * `private, no-store`. JSON above a small size goes out compressed (br, else gzip), compressed once
 * per cached answer.
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=5, stale-while-revalidate=30';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
/** Answers smaller than this are sent as they are. */
export const COMPRESS_MIN_BYTES = 1024;

const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };

/** Whether the request came with credentials, so that its answer is the caller's own. */
export const isPersonal = (req: Request): boolean => Boolean(req.headers.authorization);

function encodingFor(req: Request): 'br' | 'gzip' | null {
  const accepted = req.headers['accept-encoding'];
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

/** Sends a storefront JSON answer: 304 when the caller has it, compressed when it is worth it. */
export function sendJsonAnswer(req: Request, res: Response, answer: JsonAnswer): void {
  res.setHeader('Cache-Control', isPersonal(req) ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL);
  res.setHeader('ETag', answer.etag);
  res.setHeader('Vary', 'Accept-Encoding, Authorization');
  if (matches(req.headers['if-none-match'], answer.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  let body = answer.body;
  if (body.length >= COMPRESS_MIN_BYTES) {
    const encoding = encodingFor(req);
    if (encoding === 'br') body = answer.br ??= zlib.brotliCompressSync(answer.body, BROTLI);
    else if (encoding === 'gzip') body = answer.gzip ??= zlib.gzipSync(answer.body, { level: 6 });
    if (encoding) res.setHeader('Content-Encoding', encoding);
  }
  res.setHeader('Content-Length', body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Marks every answer of a router `private, no-store` unless a route says otherwise: admin and
 * personal answers are never kept where another caller could get them.
 */
export function privateByDefault(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
  next();
}
