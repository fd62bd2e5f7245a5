import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { CacheKeys, type CachedAnswer, type ReadCache } from '../../server/src/core/read-cache.js';
import { JSON_CONTENT_TYPE, PRIVATE_CACHE_CONTROL, answerReply, jsonReadPolicy, type ReplyPolicy } from './http-cache.js';
import { getParams, passesCsrfRule, productAnswer, productAsked, type GraphqlDocuments, type GraphqlParams } from './graphql-cache.js';
import { takePost } from './graphql-posts.js';
import { pagePolicy, pageVariantOf, plainlyWantsHtml } from './page-cache.js';
import { homeRedirectOf } from './page-locale.js';
import { ECARD_POLICY, ecardAddressOf } from './routes/ecard-pages.routes.js';
import { publicSettingsJson } from './routes/settings.routes.js';
import type { ShopSettings } from '../../server/src/modules/settings/shop-settings.js';
import { parsePathId } from './route.js';
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../server/src/rules/locales.js';

/**
 * The storefront's cached reads and pages, answered straight from the HTTP server's request handler,
 * ahead of Express: an anonymous GET (or HEAD) of a public storefront read, a storefront page or an
 * e-card page whose answer is already in the read cache (and an anonymous GraphQL read by POST, its
 * small body read here; GraphQL `product(id)` also made from the REST detail the cache holds, see
 * graphql-product-read.ts) goes out from the bytes, ETag and compressed
 * forms made when it was cached, with exactly the status, headers and body the Express route would
 * send (the same `answerReply`, the same
 * security headers, taken from the very helmet middleware Express runs). A catalogue read signed with
 * an API key this process already knows, holding `catalogue:read`, is answered here too (the answer
 * is the same for everyone). Everything else (a miss, any other Authorization header, a conditional
 * or odd request, an address spelled other than the plain way) goes on to Express, which answers as
 * it always did.
 *
 * Coherence is the read cache's: it is only filled and read while the change feed listens, every
 * write drops what it changed in every process before it is answered, and the under-construction
 * switch is itself a cached entry, so the shop is closed here the moment it is closed anywhere.
 *
 * Logging: Express logs one line per request (pino-http). A hit here is an anonymous, public answer,
 * the same for everyone; a line for each costs more than the answer itself and says nothing a count
 * does not. So hits are counted (by read and status) and summed up in one info line a minute, as a
 * proxy's status page would; with LOG_LEVEL=debug each hit is logged as well. Misses, errors and
 * every write keep their full pino-http line. The X-Request-Id header is still set (a proxy's id is
 * echoed), so a caller's report can be matched with the proxy's log.
 */

export type CachedRead = 'product' | 'categoryList' | 'tree' | 'graphql' | 'settings' | 'page' | 'ecard';

export interface CachedReadStats {
  /** Answers sent from here, by read. */
  served: Record<CachedRead, number>;
  /** How many of them were 304s. */
  notModified: number;
}

const NO_HEADERS: string[] = [];

const noReads = (): CachedReadStats => ({ served: { product: 0, categoryList: 0, tree: 0, graphql: 0, settings: 0, page: 0, ecard: 0 }, notModified: 0 });

/** How often the counts are logged (when there were any). */
const SUMMARY_EVERY_MS = 60_000;

/** The language of a read's query string (`lang`, once at most; English when absent), or null when Express must judge it. */
function langOf(search: string): Locale | null {
  const values = new URLSearchParams(search).getAll('lang');
  if (values.length > 1) return null;
  return values.length && values[0] !== '' ? parseLocale(values[0]) : DEFAULT_LOCALE;
}

/** Express's weak ETag of a body (the `etag` package its res.send uses): size and SHA-1. */
function weakEtag(body: Buffer): string {
  return `W/"${body.length.toString(16)}-${crypto.createHash('sha1').update(body).digest('base64').substring(0, 27)}"`;
}

interface SettingsReply {
  body: Buffer;
  headers: string[];
}

/** `GET /api/settings` for an anonymous caller, as its route sends it (res.json, under privateByDefault). */
function settingsReply(underConstruction: boolean, shop: ShopSettings): SettingsReply {
  const body = Buffer.from(JSON.stringify(publicSettingsJson(underConstruction, false, shop)));
  return { body, headers: ['Cache-Control', PRIVATE_CACHE_CONTROL, 'Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(body.length), 'ETag', weakEtag(body)] };
}

export class CachedReads {
  readonly stats: CachedReadStats = noReads();
  private readonly securityHeaders: string[];
  /** The answers made for the shop's settings as cached (a change puts another object in the cache: these go with the old one). */
  private readonly settingsReplies = new WeakMap<ShopSettings, Record<'open' | 'closed', SettingsReply>>();
  private readonly debug: boolean;
  private summary: NodeJS.Timeout | null = null;
  private logged: CachedReadStats = noReads();

  /**
   * @param security the middleware that sets the security headers on every Express answer; it is run
   *   once here on a recorder, so the headers sent from here are the ones it sets, in its order.
   */
  constructor(
    private readonly cache: ReadCache,
    private readonly graphql: GraphqlDocuments,
    security: (req: never, res: never, next: () => void) => void,
    private readonly requestId: (req: IncomingMessage) => string,
    private readonly log: Logger,
    /** The id of the API key an Authorization header carries, when this process knows it and it may read the catalogue (see ApiKeyService.knownKey). */
    private readonly catalogueKey: (authorization: string) => number | undefined = () => undefined,
    /**
     * The RateLimit-* headers of an API answer from this process's count of its caller, the key or
     * else the client address (see ApiRequestLimits.takeKnown: no query), or undefined: Express then
     * answers, and counts in PostgreSQL.
     */
    private readonly quota: (req: IncomingMessage, keyId: number | undefined) => string[] | undefined = () => [],
  ) {
    this.securityHeaders = recordHeaders(security);
    this.debug = log.isLevelEnabled('debug');
  }

  /** Starts the summary line; `stop` ends it (and logs what was left). */
  start(): void {
    this.summary ??= setInterval(() => this.logSummary(), SUMMARY_EVERY_MS);
    this.summary.unref();
  }

  stop(): void {
    if (this.summary) clearInterval(this.summary);
    this.summary = null;
    this.logSummary();
  }

  /**
   * Answers the request from the read cache and returns true, or returns false (Express must answer
   * it). An anonymous GraphQL POST is taken (true) and its body read; `express` answers it when the
   * cache cannot.
   */
  handle(req: IncomingMessage, res: ServerResponse, express?: (req: IncomingMessage, res: ServerResponse) => void): boolean {
    const method = req.method;
    if (method === 'POST') return express !== undefined && this.handlePost(req, res, express);
    if (method !== 'GET' && method !== 'HEAD') return false;
    const headers = req.headers;
    const keyed = headers.authorization !== undefined;
    if (!this.cache.active) return false;
    // A request signed with an API key allowed to read the catalogue gets the catalogue's cached answers (the same for everyone), nothing else.
    const keyId = keyed ? this.catalogueKey(headers.authorization!) : undefined;
    if (keyed && keyId === undefined) return false;
    const api = { keyId };
    // A read with a body goes to Express, whose body parser has its say on it (a malformed one is a 400).
    if (headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0')) return false;
    const url = req.url!;
    if (url.startsWith('/api/')) {
      const query = url.indexOf('?');
      const path = query < 0 ? url : url.slice(0, query);
      if (path === '/api/settings') return !keyed && this.sendSettings(req, res, api);
      let key: string;
      let read: CachedRead;
      // Product reads are kept per language (`?lang=`); an odd or unknown one goes to Express (which answers 400).
      const locale = query < 0 ? DEFAULT_LOCALE : langOf(url.slice(query + 1));
      if (path === '/api/categories/all') {
        key = CacheKeys.tree;
        read = 'tree';
      } else if (path.startsWith('/api/products/category/')) {
        const id = parsePathId(path.slice('/api/products/category/'.length));
        if (id === null || locale === null) return false;
        key = CacheKeys.categoryList(id, locale);
        read = 'categoryList';
      } else if (path.startsWith('/api/products/')) {
        const id = parsePathId(path.slice('/api/products/'.length));
        if (id === null || locale === null) return false;
        key = CacheKeys.product(id, locale);
        read = 'product';
      } else {
        return false;
      }
      return this.sendAnswer(req, res, key, read, jsonReadPolicy(headers), false, api);
    }
    // GraphQL answers are cached by GET only (a HEAD goes on to Apollo, as it does through Express).
    if (url.startsWith('/graphql?')) {
      if (method !== 'GET' || !passesCsrfRule(method, headers)) return false;
      // Read as Apollo reads it; only documents the cache already knows (it learns them through Express).
      const params = getParams(url, headers);
      return params ? this.sendGraphql(req, res, params, api) : false;
    }
    if (keyed) return false;
    if (url.startsWith('/ecards/')) {
      // A purchased card is viewable whatever the site's mode.
      const address = ecardAddressOf(url);
      return address ? this.sendAnswer(req, res, address.key, 'ecard', ECARD_POLICY, true) : false;
    }
    if (!plainlyWantsHtml(headers)) return false;
    // `/` sends a visitor of another language to their page: Express answers that.
    if (homeRedirectOf(url, headers)) return false;
    const variant = pageVariantOf(url, headers.cookie);
    return variant ? this.sendAnswer(req, res, variant.key, 'page', pagePolicy(variant)) : false;
  }

  /** A GraphQL POST of an anonymous caller, small plain JSON: answered from the cache, else given to Express whole. */
  private handlePost(req: IncomingMessage, res: ServerResponse, express: (req: IncomingMessage, res: ServerResponse) => void): boolean {
    if (req.url !== '/graphql' || req.headers.authorization !== undefined || !this.cache.active) return false;
    return takePost(req, res, (params) => this.sendGraphql(req, res, params, { keyId: undefined }), express);
  }

  /**
   * A GraphQL answer from the cache: kept whole under its key, or a `product(id)` made from the REST
   * detail the cache holds (and kept under its key as Express would keep it).
   */
  private sendGraphql(req: IncomingMessage, res: ServerResponse, params: GraphqlParams, api: { keyId: number | undefined }): boolean {
    const key = this.graphql.keyOf(params, false);
    if (!key) return false;
    const fromDetail = () => {
      const asked = productAsked(this.graphql, params);
      const detail = asked && this.cache.peek<CachedAnswer | null>(CacheKeys.product(asked.id, asked.locale));
      if (!asked || !detail) return undefined;
      const answer = productAnswer(asked, detail);
      this.cache.store(key, answer, this.cache.mark());
      return answer;
    };
    return this.sendAnswer(req, res, key, 'graphql', jsonReadPolicy(req.headers), false, api, fromDetail);
  }

  /**
   * A cached answer: only while the shop is open (known from the cache) unless `always`, only when it
   * is cached; an API answer (`api`) only when its caller's count is known here (it is taken last, once
   * the answer is certain to go from here).
   */
  private sendAnswer(req: IncomingMessage, res: ServerResponse, key: string, read: CachedRead, policy: ReplyPolicy, always = false, api?: { keyId: number | undefined }, otherwise?: () => CachedAnswer | undefined): boolean {
    if (!always && this.cache.peek<boolean>(CacheKeys.settings) !== false) return false;
    const answer = this.cache.answer<CachedAnswer | null>(key) ?? otherwise?.();
    if (!answer) return false;
    const quota = api ? this.quota(req, api.keyId) : NO_HEADERS;
    if (!quota) return false;
    const reply = answerReply(req.method, req.headers, answer, policy);
    this.send(req, res, reply.status, quota, reply.headers, reply.body, read);
    return true;
  }

  /** The public settings: the switch and the shop's settings from the cache; a conditional request goes to Express (its freshness rules). */
  private sendSettings(req: IncomingMessage, res: ServerResponse, api: { keyId: number | undefined }): boolean {
    const closed = this.cache.peek<boolean>(CacheKeys.settings);
    const shop = this.cache.peek<ShopSettings>(CacheKeys.shopSettings);
    if (closed === undefined || !shop || req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) return false;
    let replies = this.settingsReplies.get(shop);
    if (!replies) this.settingsReplies.set(shop, (replies = { open: settingsReply(false, shop), closed: settingsReply(true, shop) }));
    const quota = this.quota(req, api.keyId);
    if (!quota) return false;
    const reply = replies[closed ? 'closed' : 'open'];
    this.send(req, res, 200, quota, reply.headers, req.method === 'HEAD' ? undefined : reply.body, 'settings');
    return true;
  }

  private send(req: IncomingMessage, res: ServerResponse, status: number, quota: string[], headers: string[], body: Buffer | undefined, read: CachedRead): void {
    const id = this.requestId(req);
    // In Express's order: the request id, the security headers, the rate limit's, the route's.
    res.writeHead(status, ['X-Request-Id', id, ...this.securityHeaders, ...quota, ...headers]);
    res.end(body);
    this.stats.served[read]++;
    if (status === 304) this.stats.notModified++;
    if (this.debug) {
      // As pino-http keeps it; the logger writes the request by its id, method and route template.
      (req as IncomingMessage & { id?: string }).id = id;
      this.log.debug({ req, res: { statusCode: status }, cached: read }, 'request completed from the read cache');
    }
  }

  private logSummary(): void {
    const served = Object.fromEntries(Object.entries(this.stats.served).map(([read, count]) => [read, count - this.logged.served[read as CachedRead]]));
    const total = Object.values(served).reduce((sum, count) => sum + count, 0);
    if (!total) return;
    this.log.info({ cachedReads: { ...served, notModified: this.stats.notModified - this.logged.notModified } }, `${total} requests answered from the read cache`);
    this.logged = { served: { ...this.stats.served }, notModified: this.stats.notModified };
  }
}

/** The headers a middleware sets (in order), run once on a recorder (it must set them synchronously, whatever the request). */
function recordHeaders(middleware: (req: never, res: never, next: () => void) => void): string[] {
  const headers = new Map<string, [string, string]>();
  const recorder = {
    setHeader(name: string, value: unknown) {
      const lower = name.toLowerCase();
      const existing = headers.get(lower);
      if (existing) existing[1] = String(value);
      else headers.set(lower, [name, String(value)]);
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
    getHeader(name: string) {
      return headers.get(name.toLowerCase())?.[1];
    },
  };
  let done = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as never, recorder as never, () => (done = true));
  if (!done) throw new Error('the security headers middleware did not finish at once');
  return [...headers.values()].flat();
}
