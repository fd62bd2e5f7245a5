import type { IncomingMessage } from 'node:http';

/** A route as the gateway mounts it: its method and its path under its mount (`/sign/:token`). */
export interface MountedRoute {
  method: string;
  path: string;
}

interface Template {
  method: string;
  template: string;
  /** The path's segments in lower case; null where the path names a parameter. */
  segments: (string | null)[];
}

const TEMPLATE = Symbol('routeTemplate');

/**
 * The route template of a request (`/sign/:token`, `/api/products/:id`): what the request metrics
 * and every log line name a request by. Never the address itself: paths and query strings carry
 * secrets (a signing link's token, an e-card's uuid, a reset link's token) that the shop keeps only
 * as digests, and raw paths would give the metrics a label per id.
 *
 * The answer is always one of the templates given here (the routes the gateway mounts, the web
 * client's pages) or one of a few kinds of address (`/api/*`, `/static`, `/*`): nothing of what the
 * caller sent gets through. Routes match as Express matches them (case-insensitive, an optional
 * trailing slash, a parameter is one non-empty segment), the first one given that fits the method
 * (GET for HEAD), else the first that fits the path, so a wrong method still names its address.
 */
export class RouteTemplates {
  /** The templates by their number of segments, each list in the order given. */
  private readonly byLength = new Map<number, Template[]>();

  /** Adds the routes mounted under `base` (`''`, `/api`), after those added before (Express's order). */
  add(base: string, routes: readonly MountedRoute[]): this {
    for (const route of routes) {
      const template = base + route.path;
      const segments = segmentsOf(template).map((segment) => (segment.startsWith(':') ? null : segment.toLowerCase()));
      const list = this.byLength.get(segments.length) ?? [];
      list.push({ method: route.method.toLowerCase(), template, segments });
      this.byLength.set(segments.length, list);
    }
    return this;
  }

  /** The template of a request (worked out once per request, from its method and address as sent). */
  of(req: IncomingMessage): string {
    const known = (req as { [TEMPLATE]?: string })[TEMPLATE];
    if (known !== undefined) return known;
    // Express strips a mount's path from req.url while inside it; originalUrl keeps the address as asked.
    const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const template = this.template(req.method, url);
    (req as { [TEMPLATE]?: string })[TEMPLATE] = template;
    return template;
  }

  /** The template of an address asked with `method` (any method when not given). */
  template(method: string | undefined, url: string): string {
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    return this.routeOf(path, method) ?? kindOf(path);
  }

  /** The template of the route a path names, or null when it names none. */
  routeOf(path: string, method?: string): string | null {
    const segments = segmentsOf(path).map((segment) => segment.toLowerCase());
    const wanted = method === undefined ? null : method === 'HEAD' ? 'get' : method.toLowerCase();
    let anyMethod: string | null = null;
    for (const candidate of this.byLength.get(segments.length) ?? []) {
      if (!fits(candidate.segments, segments)) continue;
      if (wanted === null || candidate.method === wanted) return candidate.template;
      anyMethod ??= candidate.template;
    }
    return anyMethod;
  }
}

/** A path's segments: `/api/sign/x/` is `api`, `sign`, `x` (one trailing slash is no segment). */
function segmentsOf(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(1, -1) : path.slice(1);
  return trimmed === '' ? [] : trimmed.split('/');
}

function fits(template: (string | null)[], segments: string[]): boolean {
  for (let i = 0; i < template.length; i++) {
    const expected = template[i];
    if (expected === null ? segments[i] === '' : expected !== segments[i]) return false;
  }
  return true;
}

/** What kind of address an unknown path is; never the path itself. */
function kindOf(path: string): string {
  if (path === '/graphql') return '/graphql';
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return path;
  if (path.startsWith('/api/')) return '/api/*';
  if (path.startsWith('/assets/') || /\.\w{1,5}$/.test(path)) return '/static';
  return '/*';
}
