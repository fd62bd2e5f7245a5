import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseUrl } from 'node:url';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { Kind, parse, print, specifiedRules, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { authorize } from '../../server/src/core/access.js';
import { CacheKeys, MAX_KEY_LENGTH, jsonAnswer, type CachedAnswer } from '../../server/src/core/read-cache.js';
import type { Services } from '../../server/src/services.js';
import { nulPath } from '../../server/src/core/input.js';
import type { Locale } from '../../server/src/rules/locales.js';
import { VALIDATION_RULES } from './graphql.js';
import { productRead, type ProductRead } from './graphql-product-read.js';
import { PRIVATE_CACHE_CONTROL, isPersonal, sendAnswer } from './http-cache.js';

/**
 * Storefront GraphQL answers through the shop's read cache. A query (sent by GET, as the web client
 * does with persisted-query hashes, or by POST) whose root fields are all public catalogue reads is
 * answered once by Apollo and then from the cache, with the same ETag, 304 and Cache-Control as the
 * REST reads; every catalogue or settings write drops these answers in every process. Mutations,
 * anything asked with a token, and answers with errors are never cached.
 *
 * An answer is kept under what decides it, and nothing else: the hash of the parsed document (spaces
 * and comments do not count), the operation name, and the values of the variables the operation
 * declares. Anything else in the address (another parameter, padding, variables the operation does
 * not declare) reads the same entry, and a key longer than the cache takes is not kept at all, so no
 * caller can fill the memory with answers nobody else asks for. The request is read exactly as Apollo
 * reads it (the same address parsing and the same rules), so the cache never answers a request
 * Apollo would read differently.
 */

/** Root fields whose answers are the same for every anonymous caller (no drafts, nothing personal). */
const CACHEABLE_ROOT_FIELDS = new Set(['product', 'products', 'searchProducts', 'categories', 'productTypes']);
/** Documents remembered as cacheable or not (by the hash of their text). */
const MAX_DOCUMENTS = 2000;
/** The most characters of document text remembered to find a document by its text. */
const MAX_TEXT_CHARS = 2_000_000;

/** A GraphQL request's parameters, as Apollo reads them. */
export interface GraphqlParams {
  query?: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

/**
 * A GET's parameters read as Apollo's Express integration and `runHttpQuery` read them (the search of
 * the legacy URL parser, `URLSearchParams`, each parameter at most once, JSON objects), or null when
 * Apollo would refuse the request or read it in some way the cache does not follow.
 */
export function getParams(url: string, headers: IncomingHttpHeaders): GraphqlParams | null {
  const type = headers['content-type'];
  if (type !== undefined && !/^\s*application\/json\s*(;|$)/i.test(type)) return null;
  const search = new URLSearchParams(parseUrl(url).search ?? '');
  const once = (name: string): string | undefined | null => {
    const values = search.getAll(name);
    return values.length > 1 ? null : values[0];
  };
  const json = (name: string): Record<string, unknown> | undefined | null => {
    const text = once(name);
    if (text === undefined || text === null) return text;
    try {
      const value: unknown = JSON.parse(text);
      return isRecord(value) ? value : null;
    } catch {
      return null;
    }
  };
  const query = once('query');
  const operationName = once('operationName');
  const variables = json('variables');
  const extensions = json('extensions');
  if (query === null || operationName === null || variables === null || extensions === null) return null;
  return { query, operationName, variables, extensions };
}

/** A POST body's parameters as Apollo reads them, or null when Apollo would refuse it. */
export function postParams(body: unknown): GraphqlParams | null {
  if (!isRecord(body) || !Object.keys(body).length) return null;
  const { query, operationName, variables, extensions } = body;
  if (query !== undefined && query !== null && typeof query !== 'string') return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return null;
  if (extensions !== undefined && extensions !== null && !isRecord(extensions)) return null;
  return { query: query ?? undefined, operationName: operationName ?? undefined, variables: variables ?? undefined, extensions: extensions ?? undefined };
}

/** Apollo's CSRF rule for GET: a header a browser form cannot send. Only such requests are answered from the cache. */
export function passesCsrfRule(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method !== 'GET') return true;
  if (headers['apollo-require-preflight'] || headers['x-apollo-operation-name']) return true;
  const type = headers['content-type'];
  return typeof type === 'string' && !/^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i.test(type.trim()) && type.trim() !== '';
}

interface DocumentInfo {
  /** One query reading only public catalogue fields (and not only `__typename`). */
  cacheable: boolean;
  /** The hash of the parsed document, printed: the same for every spelling of it. */
  id: string;
  /** The variables the operation declares, in order. */
  variables: string[];
  /** A valid `product(id)` document the REST detail answers (see graphql-product-read.ts). */
  product?: ProductRead | null;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

function describe(text: string, schema: GraphQLSchema | undefined): DocumentInfo {
  try {
    const document = parse(text, { maxTokens: 5000 });
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const operation = operations[0];
    const id = sha256(print(document));
    if (operations.length !== 1 || operation!.operation !== 'query') return { cacheable: false, id, variables: [] };
    // Fragments may shape the fields below; at the root only plain public fields are allowed.
    const roots = operation!.selectionSet.selections;
    const plain = roots.every((s) => s.kind === Kind.FIELD && !s.directives?.length && (CACHEABLE_ROOT_FIELDS.has(s.name.value) || s.name.value === '__typename'));
    const onlyTypename = roots.every((s) => s.kind === Kind.FIELD && s.name.value === '__typename');
    const cacheable = plain && !onlyTypename;
    // Checked once as Apollo checks every request (graphql-js's rules and the shop's limits).
    const product = cacheable && schema && !validate(schema, document, [...specifiedRules, ...VALIDATION_RULES]).length ? productRead(schema, document) : null;
    return { cacheable, id, variables: (operation!.variableDefinitions ?? []).map((v) => v.variable.name.value), product };
  } catch {
    return { cacheable: false, id: '', variables: [] };
  }
}

/**
 * The documents the cache has seen, by the hash of their text (which is also the persisted-query
 * hash the web client sends): whether their answers are cacheable, and the key they are kept under.
 * Shared by the Express middleware (which learns documents from their text) and the fast path ahead
 * of Express (which only looks them up).
 */
export class GraphqlDocuments {
  private readonly known = new LRUCache<string, DocumentInfo>({ max: MAX_DOCUMENTS });
  /** The same documents by their text, bounded by the texts' length. */
  private readonly texts = new LRUCache<string, { hash: string; info: DocumentInfo }>({ max: MAX_DOCUMENTS, maxSize: MAX_TEXT_CHARS, sizeCalculation: (_, text) => Math.max(1, text.length) });

  /** @param schema the schema Apollo runs: with it, `product(id)` documents are answered from the REST detail. */
  constructor(private readonly schema?: GraphQLSchema) {}

  /** The document of a request, learnt from its text when it has one; null when unknown or not one document. */
  documentOf(params: GraphqlParams, learn: boolean): DocumentInfo | null {
    const hash = persistedHash(params.extensions);
    if (hash === null) return null;
    if (params.query === undefined) return hash ? (this.known.get(hash) ?? null) : null;
    // A text seen lately is found by itself (hashing it again costs more than answering from the cache).
    const seen = this.texts.get(params.query);
    const textHash = seen?.hash ?? sha256(params.query);
    // A hash is trusted only for the text it came with (Apollo checks that they match).
    if (hash && hash !== textHash) return null;
    let info = seen?.info ?? this.known.get(textHash);
    if (!info && learn) this.known.set(textHash, (info = describe(params.query, this.schema)));
    if (info && !seen) this.texts.set(params.query, { hash: textHash, info });
    return info ?? null;
  }

  /** The cache key of a request's answer, or null when it is not cached. */
  keyOf(params: GraphqlParams, learn: boolean): string | null {
    const info = this.documentOf(params, learn);
    // An empty operation name is not no name (Apollo refuses it): its request is never answered from the cache.
    if (!info?.cacheable || params.operationName === '') return null;
    // Only the variables the operation declares decide its answer (GraphQL ignores any others).
    const values: Record<string, unknown> = {};
    for (const name of info.variables) if (params.variables && params.variables[name] !== undefined) values[name] = params.variables[name];
    const key = `${CacheKeys.graphql}${info.id}:${params.operationName ?? ''}:${JSON.stringify(values)}`;
    return key.length <= MAX_KEY_LENGTH ? key : null;
  }
}

/** The answer of a `product(id)` document: its read, and the product and language its request asks for. */
export interface ProductAsked {
  read: ProductRead;
  id: number;
  locale: Locale;
}

/**
 * The product a cacheable request asks for when its document is one the REST detail answers, or
 * null (Apollo answers it). A request whose variables hold a NUL is Apollo's to refuse.
 */
export function productAsked(documents: GraphqlDocuments, params: GraphqlParams): ProductAsked | null {
  const read = documents.documentOf(params, false)?.product;
  if (params.operationName !== undefined && params.operationName !== read?.operationName) return null;
  const target = read?.target(params.variables);
  if (!read || !target || nulPath(params.variables ?? {})) return null;
  return { read, ...target };
}

/** The answer of a product read from its REST detail's cached answer. */
export const productAnswer = (asked: ProductAsked, detail: CachedAnswer): CachedAnswer => jsonAnswer(asked.read.body(detail.bytes(null).toString()));

/** The persisted-query hash of a request: '' without one, null when it is malformed (Apollo refuses it). */
function persistedHash(extensions: Record<string, unknown> | undefined): string | null {
  const persisted = extensions?.persistedQuery;
  if (persisted === undefined) return '';
  const hash = isRecord(persisted) ? persisted.sha256Hash : undefined;
  return typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash) ? hash : null;
}

/**
 * Two middlewares sharing what they learn (a persisted query's text often arrives by POST, its later
 * hash-only requests by GET): `get` goes ahead of everything else on /graphql (a hit is answered
 * before the upload and body parsers), `post` after the JSON body parser.
 */
export function graphqlCache(services: Services, documents: GraphqlDocuments): { get: RequestHandler; post: RequestHandler } {
  return { get: graphqlCacheFor(services, 'GET', documents), post: graphqlCacheFor(services, 'POST', documents) };
}

function graphqlCacheFor(services: Services, method: 'GET' | 'POST', documents: GraphqlDocuments): RequestHandler {
  const { cache, settings } = services;
  const storefrontOpen = (req: Request) =>
    authorize(req.ctx, 'storefront', settings).then(
      () => true,
      () => false,
    );

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // Unless the answer comes from (or goes into) the cache below, nobody else may keep it.
    res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    if (isPersonal(req)) return next();
    if (req.method !== method || !cache.active || !passesCsrfRule(req.method, req.headers)) return next();
    const params = method === 'GET' ? getParams(req.url, req.headers) : postParams(req.body);
    const key = params && documents.keyOf(params, true);
    if (!key) return next();
    // Under construction, the shopper gets Apollo's own 503 answer, never a cached one.
    if (!(await storefrontOpen(req))) return next();
    const hit = cache.answer<CachedAnswer>(key);
    if (hit) return sendAnswer(req, res, hit);

    const since = cache.mark();
    // `product(id)` from the data REST reads (the same cached entry), without Apollo; a product not in
    // the shop, or a read that failed (the database away: Apollo says so in its own words), goes on to Apollo.
    const asked = productAsked(documents, params);
    const detail = asked && (await services.products.shopDetail(req.ctx, asked.id, asked.locale).catch(() => null));
    if (asked && detail) {
      const answer = productAnswer(asked, detail);
      cache.store(key, answer, since);
      return sendAnswer(req, res, answer);
    }
    const send = res.send.bind(res);
    res.send = ((body: unknown) => {
      res.send = send;
      if (res.statusCode !== 200 || typeof body !== 'string' || body.includes('"errors":')) return send(body);
      const answer = jsonAnswer(body);
      cache.store(key, answer, since);
      sendAnswer(req, res, answer);
      return res;
    }) as Response['send'];
    next();
  };
}
