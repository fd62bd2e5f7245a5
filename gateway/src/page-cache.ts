import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import type { RequestContext } from '../../server/src/core/context.js';
import { CachedAnswer, CacheKeys, type ReadCache } from '../../server/src/core/read-cache.js';
import type { SettingsService } from '../../server/src/modules/settings/settings.service.js';
import { HOME_PAGE_POLICY, PAGE_POLICY, PRIVATE_CACHE_CONTROL, isPersonal, preferredEncoding, sendAnswer, sendHtml, type ReplyPolicy } from './http-cache.js';
import { DEFAULT_LOCALE, localizedPath, splitLocalePath, type Locale } from '../../server/src/rules/locales.js';
import { anonymous } from './initial-state.js';
import { parsePathId } from './route.js';
import { themeOf, type Theme } from './server-render.js';
import type { StoredProductPages } from './stored-pages.js';

/**
 * Server-drawn storefront pages kept in the read cache, like the JSON reads: an anonymous visitor's
 * page is drawn once per state of what it shows and per theme (the `theme` cookie), kept as its
 * compressed bytes with a strong ETag, and dropped by the change feed in every process when anything
 * it shows changes (see `Changes` in read-cache.ts). Pages are always drawn for an anonymous
 * visitor (the session lives in the browser), so what one visitor gets is what every visitor gets.
 *
 * Only each page's plain address is kept (`/`, `/shop`, `/shop?category=7`, `/product/12`, `/blog`,
 * `/blog/{slug}`, and each of them under `/de`, `/fr` and `/es`, kept apart per language; other
 * parameters, such as a newsletter's `utm_source`, read the same entry, since the page drawn does not
 * depend on them). A search, an address spelled another way, a request with
 * a token, and the shop under construction are drawn for the request alone, as before.
 */

export type PageVariant = { key: string; url: string; theme: Theme; locale: Locale } & (
  | { page: 'home' }
  | { page: 'shop'; categoryId: number | null }
  | { page: 'product'; id: number }
  | { page: 'blog' }
  | { page: 'blogPost'; idOrSlug: string }
  | { page: 'developers' }
);

/** The shop's sort and filters in its address (`/shop?type=1&sort=price_asc`). */
export const BROWSE_PARAMS = ['sort', 'type', 'min_price', 'max_price', 'on_sale'] as const;

const SLUG_OR_ID = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*)$/;

/**
 * The cached page an address shows, or null when the address is not one the cache keeps. A page
 * under a language's prefix (`/de/shop`) is kept apart from the English one: its key names its
 * language (the English keys have none), and it is drawn at its own address.
 */
export function pageVariantOf(url: string, cookie: string | string[] | undefined): PageVariant | null {
  const query = url.indexOf('?');
  const { locale, path } = splitLocalePath(query < 0 ? url : url.slice(0, query));
  const theme = themeOf(Array.isArray(cookie) ? cookie.join('; ') : cookie);
  const lang = locale === DEFAULT_LOCALE ? '' : `${locale}:`;
  const at = (plain: string) => ({ url: localizedPath(locale, plain), theme, locale });
  if (path === '/') return { page: 'home', key: `${CacheKeys.shopPages}${lang}home:${theme}`, ...at('/') };
  if (path === '/blog') return { page: 'blog', key: `${CacheKeys.blogPages}${lang}list:${theme}`, ...at('/blog') };
  // Kept with the listing pages: it changes with the shop's settings (its name), as they do.
  if (path === '/developers') return { page: 'developers', key: `${CacheKeys.shopPages}${lang}developers:${theme}`, ...at('/developers') };
  if (path === '/shop') {
    const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
    const q = params.getAll('q');
    if (q.length > 1 || (q[0] ?? '').trim() !== '') return null;
    // A sorted or filtered shop is the shopper's own choice, fetched by the page (like a search).
    if (BROWSE_PARAMS.some((name) => params.has(name))) return null;
    const category = params.getAll('category');
    if (category.length > 1) return null;
    if (!category.length) return { page: 'shop', key: `${CacheKeys.shopPages}${lang}all:${theme}`, ...at('/shop'), categoryId: null };
    const categoryId = parsePathId(category[0]);
    return categoryId === null ? null : { page: 'shop', key: `${CacheKeys.shopPages}${lang}category:${categoryId}:${theme}`, ...at(`/shop?category=${categoryId}`), categoryId };
  }
  if (path.startsWith('/product/')) {
    const id = parsePathId(path.slice('/product/'.length));
    return id === null ? null : { page: 'product', key: CacheKeys.productPage(id, theme, locale), ...at(`/product/${id}`), id };
  }
  if (path.startsWith('/blog/')) {
    const idOrSlug = path.slice('/blog/'.length);
    return idOrSlug.length <= 120 && SLUG_OR_ID.test(idOrSlug) ? { page: 'blogPost', key: `${CacheKeys.blogPages}${lang}post:${idOrSlug}:${theme}`, ...at(`/blog/${idOrSlug}`), idOrSlug } : null;
  }
  return null;
}

const isEnglishHome = (variant: PageVariant) => variant.page === 'home' && variant.locale === DEFAULT_LOCALE;

/** How a kept page may be kept by others: the English home page also depends on who asks (it sends some visitors to their language). */
export const pagePolicy = (variant: PageVariant): ReplyPolicy => (isEnglishHome(variant) ? HOME_PAGE_POLICY : PAGE_POLICY);

/** What a page drawn for the request alone varies on, beyond its coding (none but the English home page's). */
const drawnVary = (variant: PageVariant): string | undefined => (isEnglishHome(variant) ? HOME_PAGE_POLICY.vary : undefined);

/**
 * Whether a request certainly gets the HTML page from Express's routes (which answer `accepts(['html',
 * 'json'])`): no Accept header, `*\/*` alone, or one naming text/html at full quality (nothing can
 * then outrank it) and no JSON. Anything else goes to Express, which decides as it always did.
 */
export function plainlyWantsHtml(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept;
  if (accept === undefined || accept.trim() === '*/*') return true;
  if (/json/i.test(accept)) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';');
    return type!.trim().toLowerCase() === 'text/html' && params.every((param) => !/^\s*q\s*=/i.test(param) || /^\s*q\s*=\s*1(\.0*)?\s*$/i.test(param));
  });
}

/** A page as drawn: its status and HTML, and whether everyone may be given these very bytes. */
export interface DrawnPage {
  status: number;
  /** Null when the web client is not built (the shell cannot be sent). */
  html: string | null;
  /** Drawn from data every visitor sees alike, at the page's plain address. */
  cacheable: boolean;
  /** How long the page stays right at most (a blog list until its next scheduled post). */
  ttlMs?: number;
}

export type DrawPage = (visitor: RequestContext) => Promise<DrawnPage>;

/** The storefront pages, from the read cache when they can be, else drawn for the request. */
export class StorefrontPages {
  constructor(
    private readonly cache: ReadCache,
    private readonly settings: SettingsService,
    /** The product pages drawn in the background, read before drawing one (none: every page is drawn on request). */
    private readonly stored: StoredProductPages | null = null,
  ) {}

  /**
   * Sends the page at `variant` (null: an address the cache does not keep) drawn by `draw` for an
   * anonymous visitor: from the cache when it is there, else drawn, kept when it may be, and sent.
   */
  async serve(ctx: RequestContext, req: Request, res: Response, variant: PageVariant | null, draw: DrawPage): Promise<void> {
    const visitor = anonymous(ctx);
    if (variant && !isPersonal(req) && !(await this.settings.isUnderConstruction(visitor))) {
      const first = preferredEncoding(req.headers['accept-encoding']);
      const outcome = await this.cache.read<CachedAnswer | DrawnPage>(
        variant.key,
        async () => {
          // A product page drawn in the background since its product last changed: read, not drawn
          // (a layer of the cache: a process whose cache is off draws every page afresh).
          const kept = variant.page === 'product' && this.cache.active && this.stored?.keeps(variant.locale) ? await this.stored.read(visitor, variant.id, variant.theme, first) : null;
          if (kept) return kept;
          const page = await draw(visitor);
          // The few pages everyone lands on (home, shop, blog) keep their plain bytes too; a product's page its compressed ones only.
          const keepPlain = variant.page === 'home' || variant.page === 'blog' || (variant.page === 'shop' && variant.categoryId === null);
          return page.status === 200 && page.cacheable && page.html !== null ? CachedAnswer.html(page.html, first, page.ttlMs, keepPlain) : page;
        },
        { keep: (value) => value instanceof CachedAnswer },
      );
      if (outcome instanceof CachedAnswer) return sendAnswer(req, res, outcome, pagePolicy(variant));
      return sendDrawn(req, res, outcome, drawnVary(variant));
    }
    sendDrawn(req, res, await draw(visitor), variant ? drawnVary(variant) : undefined);
  }
}

/** A page drawn for this request alone: revalidated every time (private when asked with a token), compressed as the caller prefers. */
export function sendDrawn(req: Request, res: Response, page: DrawnPage, vary?: string): void {
  if (page.html === null) {
    res.status(503).type('text/plain').send('The web client is not built yet: run `npm run build:web`.');
    return;
  }
  sendHtml(req, res, page.status, page.html, isPersonal(req) ? PRIVATE_CACHE_CONTROL : 'no-cache', vary);
}
