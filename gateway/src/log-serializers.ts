import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import type { RouteTemplates } from './route-templates.js';

/**
 * How the shop's log writes a request, an answer and an error, for every logger of the process (the
 * request log, the lines written while a request runs, the jobs' lines): a request by its id, method
 * and route template, never its address (see RouteTemplates: links carry tokens the database keeps
 * only as digests, and an e-card's address shows the card); an answer by its status; an error as
 * pino writes it, with any link, token or uuid in its texts (a message quoting an address or a query)
 * replaced by what it is.
 */
export function logSerializers(templates: RouteTemplates) {
  return {
    req(req: unknown) {
      if (!req || typeof req !== 'object') return { route: templates.template(undefined, String(req)) };
      const request = req as IncomingMessage & { id?: unknown };
      return { id: request.id, method: request.method, route: templates.of(request) };
    },
    res(res: unknown) {
      return { statusCode: (res as ServerResponse | null)?.statusCode };
    },
    err(err: unknown) {
      return withoutSecrets(pino.stdSerializers.err(err as Error), templates, 0);
    },
  };
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** A query (or form) parameter whose value is a link's secret. */
const TOKEN_PARAMETER = /\b((?:edit_)?token=|card=)[^&\s'"<>#]*/gi;
/** An address in a text: an optional scheme and host, then the path (group 1). */
const ADDRESS = /(?:[a-z][a-z0-9+.-]*:\/\/[^/\s'"<>]*)?(\/[^\s'"<>?#]*)/gi;

/** A text with its addresses' parameters named by their route (`/sign/:token`), token values and uuids hidden. */
export function scrubSecrets(text: string, templates: RouteTemplates): string {
  return text
    .replace(ADDRESS, (address: string, path: string) => {
      const route = templates.routeOf(path);
      return route && route.includes(':') ? address.slice(0, address.length - path.length) + route : address;
    })
    .replace(TOKEN_PARAMETER, '$1[secret]')
    .replace(UUID, '[uuid]');
}

function withoutSecrets(value: unknown, templates: RouteTemplates, depth: number): unknown {
  if (typeof value === 'string') return scrubSecrets(value, templates);
  if (!value || typeof value !== 'object') return value;
  if (depth > 6) return '[not logged: nested too deep]';
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, templates, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutSecrets(item, templates, depth + 1)]));
}
