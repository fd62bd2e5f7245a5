import type { Request, Response, Router } from 'express';
import { authorize, type Access, type ApiScope, type StorefrontGate } from '../../server/src/core/access.js';
import type { RequestContext } from '../../server/src/core/context.js';
import { AppError, badInput, notFound } from '../../server/src/core/errors.js';

/**
 * One REST route: who may call it, and a thin handler that calls a service and shapes the answer.
 * The access rule is required, so a route cannot forget to say who may call it; an API key may call
 * it only when `scopes` names one of the key's.
 */
export interface RouteDef {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  access: Access;
  /** The API key scopes that also allow it (none: refused to every key). */
  scopes?: readonly ApiScope[];
  handler: (ctx: RequestContext, req: Request, res: Response) => Promise<void>;
}

export function mountRoutes(router: Router, routes: RouteDef[], gate: StorefrontGate): void {
  for (const route of routes) {
    router[route.method](route.path, async (req, res, next) => {
      try {
        await authorize(req.ctx, route.access, gate, route.scopes);
        await route.handler(req.ctx, req, res);
      } catch (error) {
        next(error);
      }
    });
  }
}

/** Reads a JSON object body; anything else (an array, a string) reads as empty. */
export function body(req: Request): Record<string, unknown> {
  const value: unknown = req.body;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** An id in the URL path; anything that is not one cannot name a row, so it is a 404. */
export function pathId(value: unknown, what: string): number {
  const id = parsePathId(value);
  if (id === null) throw notFound(what);
  return id;
}

/** A path id as the routes take it: digits, no leading zero, a positive 32-bit integer; else null. */
export function parsePathId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id > 2_147_483_647 ? null : id;
}


/** The service names fields as GraphQL does; the REST contract names them in snake_case. */
export async function withRestFields<T>(work: Promise<T>, names: Record<string, string>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.field && names[error.field]) {
      throw new AppError(error.code, error.text ?? error.message, { field: names[error.field], retryAfter: error.retryAfter });
    }
    throw error;
  }
}


/**
 * The `page` of a list paged by cursor alone (a customer's orders in `GET /api/admin/customers/{id}`):
 * absent (or "1") for the first page, else the `next_page` value the previous answer gave (a keyset
 * cursor, so that page 5,000 is as fast as page 1). The long lists take page numbers: see listPage.
 */
export function pageCursor(value: unknown): string | null {
  if (value === undefined || value === '' || value === '1') return null;
  if (typeof value !== 'string' || !/^[\w-]{1,400}$/.test(value) || /^\d+$/.test(value)) throw badInput('page takes the next_page value of the previous answer.', 'page');
  return value;
}

/** The largest page number a REST list takes (50 rows a page: fifty million rows in). */
export const MAX_PAGE_NUMBER = 1_000_000;

/**
 * Where a paged REST list starts: `page`, a page number from 1 (the first page when absent), or
 * `after`, the `next_after` of the previous answer (a keyset cursor: as fast at row 100,000 as at
 * the first). Not both; anything else is a 400 on its parameter.
 */
export function listPage(query: Record<string, unknown>): { page: number | null; after: string | null } {
  const after = query.after === undefined || query.after === '' ? null : query.after;
  if (after !== null && (typeof after !== 'string' || !/^[\w-]{1,400}$/.test(after))) throw badInput('after takes the next_after value of the previous answer.', 'after');
  const page = query.page;
  if (page === undefined || page === '') return { page: after === null ? 1 : null, after };
  if (typeof page !== 'string' || !/^[1-9]\d{0,6}$/.test(page) || Number(page) > MAX_PAGE_NUMBER) {
    throw badInput(`page must be a page number: a whole number from 1 to ${MAX_PAGE_NUMBER.toLocaleString('en-US')}.`, 'page');
  }
  if (after !== null) throw badInput('Give page or after, not both.', 'page');
  return { page: Number(page), after: null };
}

/** The paging fields of a REST list's answer: the next page's number (when paged by number) and the cursor that goes on from here. */
export function nextPageFields(asked: { page: number | null }, page: { pageInfo: { hasNextPage: boolean; endCursor: string | null } }) {
  return {
    next_page: page.pageInfo.hasNextPage && asked.page !== null ? asked.page + 1 : null,
    next_after: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
  };
}

/** A query parameter as a string ('' when absent or repeated). */
export const queryText = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A query parameter given once, as text; absent (or empty) is null; given twice is 400. */
export function queryParam(value: unknown): string | null {
  if (Array.isArray(value)) throw badInput('Give each parameter once.');
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A yes/no of the query string: 1 or true, 0 or false; absent is null; anything else is 400 on `field`. */
export function queryFlag(value: unknown, field: string): boolean | null {
  const raw = queryParam(value);
  if (raw === null) return null;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw badInput(`${field} must be 1 or 0.`, field);
}
