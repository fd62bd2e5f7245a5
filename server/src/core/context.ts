import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import DataLoader from 'dataloader';
import { AppError, unauthenticated } from './errors.js';
import { isAdminViewer, type Viewer, type ViewerUser } from './viewer.js';
import { DEFAULT_LOCALE, type Locale } from '../rules/locales.js';

export type { Viewer, ViewerUser } from './viewer.js';

/** Answers a batch of keys with a map; a key missing from the map loads as null. */
export type BatchLoad<K, V> = (keys: readonly K[]) => Promise<Map<K, V>>;

/**
 * Everything a service needs to know about one request, REST or GraphQL alike. Services take it
 * first; `em` is this request's own EntityManager fork.
 */
export interface RequestContext {
  em: EntityManager;
  requestId: string;
  ip: string;
  log: Logger;
  /** The caller, or null when no valid token came with the request. */
  viewer(): Promise<Viewer | null>;
  /** The caller; throws UNAUTHENTICATED with the reason (no token, expired, revoked) otherwise. */
  requireViewer(): Promise<Viewer>;
  /** Whether the caller is a signed-in admin (false when signed out or the token is not valid). */
  isAdmin(): Promise<boolean>;
  /** Whether the request is signed with an API key (`Bearer ask_…`), valid or not: such a request is judged by the key alone. */
  readonly usesApiKey: boolean;
  /**
   * The request's batch loader named `key`, made on first use: every `load` of the request made in
   * the same tick goes out as one call of `load`, so a page of field resolvers costs the same number
   * of queries whatever its size. The one batching mechanism of the server.
   */
  loader<K, V>(key: string, load: BatchLoad<K, V>): DataLoader<K, V | null>;
  /**
   * What services remember about this request for its remaining work, by name; shared with the
   * contexts `withEm` makes (e.g. the one discount code a request may look up).
   */
  readonly scope: Map<string, unknown>;
  /** The "Keep me signed in" cookie, when the request came over HTTP (absent in work the process does on its own). */
  readonly sessionCookie?: SessionCookie;
  /**
   * The language of the page the request came from (its Accept-Language, which the storefront sets
   * to its page's language): what e-mails it asks for speak. English when it names none the shop speaks.
   */
  readonly locale: Locale;
}

export type Authenticate = (em: EntityManager, token: string) => Promise<Viewer>;

/**
 * The browser's "Keep me signed in" cookie, as the transport carries it (an httpOnly cookie over
 * HTTP; see gateway/src/session-cookie.ts). Services read and replace its value; its name, path and
 * flags are the transport's business.
 */
export interface SessionCookie {
  /** The value the request came with, or undefined. */
  read(): string | undefined;
  /** Sets the value on the answer, to last `maxAgeSeconds`. */
  write(value: string, maxAgeSeconds: number): void;
  /** Tells the browser to forget the cookie. */
  clear(): void;
}

export interface RequestContextInit {
  /** The request's EntityManager, or how to make it: made on first use, so a read served from the cache forks none. */
  em: EntityManager | (() => EntityManager);
  requestId: string;
  ip: string;
  log: Logger;
  authorization?: string;
  authenticate: Authenticate;
  sessionCookie?: SessionCookie;
  locale?: Locale;
}

export function createRequestContext(init: RequestContextInit): RequestContext {
  const token = bearerToken(init.authorization);
  let em: EntityManager | undefined = typeof init.em === 'function' ? undefined : init.em;
  const makeEm = init.em;
  const getEm = () => (em ??= (makeEm as () => EntityManager)());
  // Null without a token (its error is made only when a caller requires a viewer: most requests come signed out).
  let outcome: Promise<Viewer | AppError | null> | undefined;
  const resolve = () =>
    (outcome ??= token
      ? init.authenticate(getEm(), token).catch((error: unknown) => {
          if (error instanceof AppError) return error;
          throw error;
        })
      : Promise.resolve(null));

  const viewer = async () => {
    const result = await resolve();
    return result instanceof AppError ? null : result;
  };
  return {
    get em() {
      return getEm();
    },
    requestId: init.requestId,
    ip: init.ip,
    log: init.log,
    viewer,
    async requireViewer() {
      const result = await resolve();
      if (result === null) throw unauthenticated();
      if (result instanceof AppError) throw result;
      return result;
    },
    isAdmin: async () => isAdminViewer(await viewer()),
    usesApiKey: token !== undefined && isApiKeyToken(token),
    loader: loaderTable(),
    scope: new Map(),
    sessionCookie: init.sessionCookie,
    locale: init.locale ?? DEFAULT_LOCALE,
  };
}

/**
 * The context of work the process does on its own, outside any request (startup tasks), acting as
 * `actor` when the work needs a signed-in user.
 */
export function createSystemContext(init: { em: EntityManager; log: Logger; task: string; actor?: ViewerUser | null }): RequestContext {
  const viewer: Viewer | null = init.actor ? { user: init.actor, jti: `system:${init.task}` } : null;
  return {
    em: init.em,
    requestId: init.task,
    ip: 'system',
    log: init.log,
    viewer: async () => viewer,
    async requireViewer() {
      if (!viewer) throw unauthenticated();
      return viewer;
    },
    isAdmin: async () => isAdminViewer(viewer),
    usesApiKey: false,
    loader: loaderTable(),
    scope: new Map(),
    locale: DEFAULT_LOCALE,
  };
}

/**
 * The same caller working in another EntityManager: a transaction's, so that the services a
 * transaction calls take a context like every other service call. Its batch loaders are its own.
 */
export function withEm(ctx: RequestContext, em: EntityManager): RequestContext {
  return {
    em,
    requestId: ctx.requestId,
    ip: ctx.ip,
    log: ctx.log,
    viewer: () => ctx.viewer(),
    requireViewer: () => ctx.requireViewer(),
    isAdmin: () => ctx.isAdmin(),
    usesApiKey: ctx.usesApiKey,
    loader: loaderTable(),
    scope: ctx.scope,
    sessionCookie: ctx.sessionCookie,
    locale: ctx.locale,
  };
}

/** The batch loaders of one context, by name. */
function loaderTable(): RequestContext['loader'] {
  const loaders = new Map<string, DataLoader<unknown, unknown>>();
  return <K, V>(key: string, load: BatchLoad<K, V>) => {
    let loader = loaders.get(key) as DataLoader<K, V | null> | undefined;
    if (!loader) {
      loader = new DataLoader<K, V | null>(async (keys) => {
        const found = await load(keys);
        return keys.map((k) => found.get(k) ?? null);
      });
      loaders.set(key, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  };
}

/** What every API key starts with (a session token is a JWT, which never does). */
export const API_KEY_PREFIX = 'ask_';

export const isApiKeyToken = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
