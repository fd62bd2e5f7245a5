import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { authorize } from '../../server/src/core/access.js';
import { CacheKeys, answerSize, jsonAnswer, type JsonAnswer } from '../../server/src/core/read-cache.js';
import type { Services } from '../../server/src/services.js';
import { PRIVATE_CACHE_CONTROL, isPersonal, sendJsonAnswer } from './http-cache.js';

/**
 * Storefront GraphQL answers through the shop's read cache. A query (sent by GET, as the web client
 * does with persisted-query hashes, or by POST) whose root fields are all public catalogue reads is
 * answered once by Apollo and then from the cache, with the same ETag, 304 and Cache-Control as the
 * REST reads; every catalogue or settings write drops these answers in every process. Mutations,
 * anything asked with a token, and answers with errors are never cached.
 */

/** Root fields whose answers are the same for every anonymous caller (no drafts, nothing personal). */
const CACHEABLE_ROOT_FIELDS = new Set(['product', 'products', 'searchProducts', 'categories', 'productTypes', '__typename']);
/** Documents remembered as cacheable or not, by hash (a bound, not a cache: it is cleared when full). */
const MAX_DOCUMENTS = 2000;
/** Longest GET address kept as a cache key as it is. */
export const MAX_URL_KEY_LENGTH = 8192;
/** The cache key of a GraphQL GET, by its address (path and query string, as sent). */
export const graphqlGetKey = (url: string): string => `${CacheKeys.graphql}GET ${url}`;
/** Longest variables string that makes a cache key. */
const MAX_VARIABLES_LENGTH = 2000;

interface Operation {
  query?: string;
  hash?: string;
  variables: string;
  operationName: string;
}

const asObjectText = (value: unknown): string | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
};

function operationOf(req: Request): Operation | null {
  const source: Record<string, unknown> = req.method === 'GET' ? (req.query as Record<string, unknown>) : (req.body as Record<string, unknown>);
  if (!source || typeof source !== 'object' || Array.isArray(source)) return null;
  const query = typeof source.query === 'string' ? source.query : undefined;
  let hash: string | undefined;
  const extensions = source.extensions;
  try {
    const parsed = typeof extensions === 'string' ? JSON.parse(extensions) : extensions;
    const candidate = parsed?.persistedQuery?.sha256Hash;
    if (typeof candidate === 'string' && /^[0-9a-f]{64}$/.test(candidate)) hash = candidate;
  } catch {
    return null;
  }
  if (!query && !hash) return null;
  const variables = asObjectText(source.variables) ?? '';
  if (variables.length > MAX_VARIABLES_LENGTH) return null;
  return { query, hash, variables, operationName: typeof source.operationName === 'string' ? source.operationName : '' };
}

/** Whether a document is one query reading only public catalogue fields. */
function isCacheableDocument(query: string): boolean {
  try {
    const document = parse(query, { maxTokens: 5000 });
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (operations.length !== 1 || operations[0]!.operation !== 'query') return false;
    // Fragments may shape the fields below; at the root only plain public fields are allowed.
    return operations[0]!.selectionSet.selections.every((s) => s.kind === Kind.FIELD && !s.directives?.length && CACHEABLE_ROOT_FIELDS.has(s.name.value));
  } catch {
    return false;
  }
}

/** Apollo's CSRF rule for GET: a header a browser form cannot send. Only such requests are answered from the cache. */
export function passesCsrfRule(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method !== 'GET') return true;
  if (headers['apollo-require-preflight'] || headers['x-apollo-operation-name']) return true;
  const type = headers['content-type'];
  return typeof type === 'string' && !/^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i.test(type.trim()) && type.trim() !== '';
}

/**
 * Two middlewares sharing what they learn (a persisted query's text often arrives by POST, its later
 * hash-only requests by GET): `get` goes ahead of everything else on /graphql (a hit is answered
 * before the upload and body parsers), `post` after the JSON body parser.
 */
export function graphqlCache(services: Services): { get: RequestHandler; post: RequestHandler } {
  const documents = new Map<string, boolean>();
  return { get: graphqlCacheFor(services, 'GET', documents), post: graphqlCacheFor(services, 'POST', documents) };
}

function graphqlCacheFor(services: Services, method: 'GET' | 'POST', documents: Map<string, boolean>): RequestHandler {
  const { cache, settings } = services;
  const storefrontOpen = (req: Request) =>
    authorize(req.ctx, 'storefront', settings).then(
      () => true,
      () => false,
    );

  const cacheable = (op: Operation): boolean => {
    const id = op.hash ?? crypto.createHash('sha256').update(op.query!).digest('hex');
    let known = documents.get(id);
    if (known === undefined && op.query) {
      // A hash is trusted only for the text it came with (Apollo checks that it matches).
      if (op.hash && crypto.createHash('sha256').update(op.query).digest('hex') !== op.hash) return false;
      known = isCacheableDocument(op.query);
      if (documents.size >= MAX_DOCUMENTS) documents.clear();
      documents.set(id, known);
    }
    return known === true;
  };

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // Unless the answer comes from (or goes into) the cache below, nobody else may keep it.
    res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    if (isPersonal(req)) return next();
    if (req.method !== method || !cache.active || !passesCsrfRule(req.method, req.headers)) return next();
    // A GET is known by its address: a hit needs no parsing at all (only cacheable answers were stored).
    const urlKey = req.method === 'GET' ? graphqlGetKey(req.originalUrl) : null;
    if (urlKey && urlKey.length <= MAX_URL_KEY_LENGTH) {
      const hit = cache.peek<JsonAnswer>(urlKey);
      if (hit) {
        if (!(await storefrontOpen(req))) return next();
        return sendJsonAnswer(req, res, hit);
      }
    }
    const op = operationOf(req);
    if (!op || !cacheable(op)) return next();
    // Under construction, the shopper gets Apollo's own 503 answer, never a cached one.
    if (!(await storefrontOpen(req))) return next();
    const key =
      urlKey && urlKey.length <= MAX_URL_KEY_LENGTH
        ? urlKey
        : `${CacheKeys.graphql}${op.hash ?? crypto.createHash('sha256').update(op.query!).digest('hex')}:${op.operationName}:${op.variables}`;
    const hit = cache.peek<JsonAnswer>(key);
    if (hit) return sendJsonAnswer(req, res, hit);

    const since = cache.mark();
    const send = res.send.bind(res);
    res.send = ((body: unknown) => {
      res.send = send;
      if (res.statusCode !== 200 || typeof body !== 'string' || body.includes('"errors":')) return send(body);
      const answer = jsonAnswer(body);
      cache.store(key, answer, answerSize(answer), since);
      sendJsonAnswer(req, res, answer);
      return res;
    }) as Response['send'];
    next();
  };
}
