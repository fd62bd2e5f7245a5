import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { User } from '../modules/auth/user.entity.js';
import { AppError, unauthenticated } from './errors.js';

/** The signed-in caller: the user and the session (token id) the request came with. */
export interface Viewer {
  user: User;
  jti: string;
}

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
}

export type Authenticate = (em: EntityManager, token: string) => Promise<Viewer>;

export interface RequestContextInit {
  /** The request's EntityManager, or how to make it: made on first use, so a read served from the cache forks none. */
  em: EntityManager | (() => EntityManager);
  requestId: string;
  ip: string;
  log: Logger;
  authorization?: string;
  authenticate: Authenticate;
}

export function createRequestContext(init: RequestContextInit): RequestContext {
  const token = bearerToken(init.authorization);
  let em: EntityManager | undefined = typeof init.em === 'function' ? undefined : init.em;
  const makeEm = init.em;
  const getEm = () => (em ??= (makeEm as () => EntityManager)());
  let outcome: Promise<Viewer | AppError> | undefined;
  const resolve = () =>
    (outcome ??= token
      ? init.authenticate(getEm(), token).catch((error: unknown) => {
          if (error instanceof AppError) return error;
          throw error;
        })
      : Promise.resolve(unauthenticated()));

  return {
    get em() {
      return getEm();
    },
    requestId: init.requestId,
    ip: init.ip,
    log: init.log,
    async viewer() {
      const result = await resolve();
      return result instanceof AppError ? null : result;
    },
    async requireViewer() {
      const result = await resolve();
      if (result instanceof AppError) throw result;
      return result;
    },
  };
}

/**
 * The context of work the process does on its own, outside any request (startup tasks), acting as
 * `actor` when the work needs a signed-in user.
 */
export function createSystemContext(init: { em: EntityManager; log: Logger; task: string; actor?: User | null }): RequestContext {
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
  };
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
