import type { IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { COMPRESS_MIN_BYTES, type CachedAnswer, type Encoding } from '../../server/src/core/read-cache.js';

/**
 * HTTP caching of storefront reads and pages. Public answers carry a strong ETag (a `304` when the
 * caller already has them) and may be kept by shared caches for a few seconds; browsers check back
 * every time (a cheap 304), so a shopper who reloads after a change sees it. A CDN may also serve a
 * copy up to 30 s stale while it fetches the new one: that is said in `CDN-Cache-Control` (RFC 9213),
 * which browsers do not read (Chromium applies a `stale-while-revalidate` of `Cache-Control` to its own
 * cache, and would hand the page a price from before the change). Whatever is asked with a token, and every admin or personal answer, is
 * `private, no-store`. Answers above a small size go out compressed (br or gzip, as the caller
 * prefers), each form made once per cached answer (see CachedAnswer).
 *
 * The same answer goes out through Express (sendAnswer) or, for anonymous reads already in the
 * cache, straight from the HTTP server (cached-reads.ts): both build it with `answerReply`.
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=5';
export const CDN_CACHE_CONTROL = 'max-age=5, stale-while-revalidate=30';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
export const JSON_ANSWER_VARY = 'Accept-Encoding, Authorization';
/** A page is drawn in the theme of its `theme` cookie. */
export const PAGE_VARY = 'Accept-Encoding, Cookie';
export { COMPRESS_MIN_BYTES };

/** Whether the request came with credentials, so that its answer is the caller's own. */
export const isPersonal = (req: { headers: IncomingHttpHeaders }): boolean => Boolean(req.headers.authorization);

/** How an answer may be kept by others, and what it varies on. */
export interface ReplyPolicy {
  cacheControl: string;
  /** What a CDN may do beyond it (CDN-Cache-Control), for a public answer. */
  cdnCacheControl?: string;
  vary: string;
  /** More headers (name, value, ...), e.g. X-Robots-Tag. */
  extra?: readonly string[];
}

/** A storefront JSON read: public, unless asked with a token. */
const PUBLIC_JSON_POLICY: ReplyPolicy = { cacheControl: PUBLIC_CACHE_CONTROL, cdnCacheControl: CDN_CACHE_CONTROL, vary: JSON_ANSWER_VARY };
const PRIVATE_JSON_POLICY: ReplyPolicy = { cacheControl: PRIVATE_CACHE_CONTROL, vary: JSON_ANSWER_VARY };
export const jsonReadPolicy = (headers: IncomingHttpHeaders): ReplyPolicy => (headers.authorization ? PRIVATE_JSON_POLICY : PUBLIC_JSON_POLICY);
/** A storefront page (drawn for everyone alike, in the theme of its cookie). */
export const PAGE_POLICY: ReplyPolicy = { cacheControl: PUBLIC_CACHE_CONTROL, cdnCacheControl: CDN_CACHE_CONTROL, vary: PAGE_VARY };
/** The English home page: `/` sends a visitor whose browser or `lang` cookie names another language there (page-locale.ts). */
export const HOME_PAGE_POLICY: ReplyPolicy = { cacheControl: PUBLIC_CACHE_CONTROL, cdnCacheControl: CDN_CACHE_CONTROL, vary: 'Accept-Encoding, Accept-Language, Cookie' };

const CONTENT_TYPES = { json: JSON_CONTENT_TYPE, html: HTML_CONTENT_TYPE } as const;

const CODINGS = ['br', 'gzip', 'identity'] as const;

/**
 * The encoding to send, from `Accept-Encoding` and its quality values: the coding of the highest q
 * the caller accepts (q > 0), br before gzip before none on a tie. `br;q=0` refuses br, `*` stands
 * for any coding the header does not name, and the plain bytes are acceptable unless refused (when
 * neither they nor `*` are named, their q is the least non-zero q the header gives), exactly as the
 * `negotiator` package Express uses reads the header (a unit test holds them equal).
 */
export function preferredEncoding(accepted: string | string[] | undefined): Encoding | null {
  if (!accepted) return null;
  const header = Array.isArray(accepted) ? accepted.join(',') : accepted;
  const q: Partial<Record<string, number>> = {};
  let least = 1;
  for (const part of header.slice(0, 1024).split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (!name) continue;
    let quality = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) quality = Number(match[1]);
    }
    if (!Number.isFinite(quality) || quality < 0) continue;
    // A coding named twice takes its best reading.
    q[name] = Math.max(q[name] ?? 0, quality);
    least = Math.min(least, quality || 1);
  }
  const wildcard = q['*'];
  const qualityOf = (coding: (typeof CODINGS)[number]) => q[coding] ?? wildcard ?? (coding === 'identity' ? least : 0);
  let best: (typeof CODINGS)[number] = 'identity';
  let bestQ = -1;
  for (const coding of CODINGS) {
    const quality = qualityOf(coding);
    if (quality > 0 && quality > bestQ) {
      best = coding;
      bestQ = quality;
    }
  }
  return best === 'identity' ? null : best;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === etag || trimmed === `W/${etag}` || trimmed === '*';
  });
}

/** What an answer sends for one request: status, headers in order (name, value, ...), and body. */
export interface Reply {
  status: 200 | 304;
  headers: string[];
  body: Buffer | undefined;
}

/** The reply to a request for `answer`: 304 when the caller has it, compressed as the caller prefers when it is worth it. */
export function answerReply(method: string | undefined, headers: IncomingHttpHeaders, answer: CachedAnswer, policy: ReplyPolicy): Reply {
  const common = ['Cache-Control', policy.cacheControl, ...(policy.cdnCacheControl ? ['CDN-Cache-Control', policy.cdnCacheControl] : []), 'ETag', answer.etag, 'Vary', policy.vary, ...(policy.extra ?? [])];
  if (matches(headers['if-none-match'], answer.etag)) return { status: 304, headers: common, body: undefined };
  const encoding = answer.compressible ? preferredEncoding(headers['accept-encoding']) : null;
  // A HEAD learns the length without the bytes being made (a compressed form is made only for a GET).
  const body = method === 'HEAD' && encoding === null ? null : answer.bytes(encoding);
  const out = [...common, 'Content-Type', CONTENT_TYPES[answer.kind]];
  if (encoding) out.push('Content-Encoding', encoding);
  out.push('Content-Length', String(body?.length ?? answer.length));
  return { status: 200, headers: out, body: method === 'HEAD' ? undefined : body! };
}

/** Sends a cached answer through Express. */
export function sendAnswer(req: Request, res: Response, answer: CachedAnswer, policy: ReplyPolicy = jsonReadPolicy(req.headers)): void {
  const reply = answerReply(req.method, req.headers, answer, policy);
  for (let i = 0; i < reply.headers.length; i += 2) res.setHeader(reply.headers[i]!, reply.headers[i + 1]!);
  res.status(reply.status).end(reply.body);
}

/** HTML sent as it is made (not kept): compressed for this request when the caller accepts it. */
export function sendHtml(req: Request, res: Response, status: number, html: string, cacheControl: string, vary = 'Accept-Encoding'): void {
  const body = Buffer.from(html);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', vary);
  res.status(status).type('html');
  const encoding = body.length >= COMPRESS_MIN_BYTES ? preferredEncoding(req.headers['accept-encoding']) : null;
  if (encoding === 'br') {
    res.setHeader('Content-Encoding', 'br');
    res.send(zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  } else if (encoding === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(zlib.gzipSync(body, { level: 6 }));
  } else {
    res.send(body);
  }
}

/**
 * Marks every answer of a router `private, no-store` unless a route says otherwise: admin and
 * personal answers are never kept where another caller could get them.
 */
export function privateByDefault(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
  next();
}
