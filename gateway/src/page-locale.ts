import type { IncomingHttpHeaders } from 'node:http';
import express, { type RequestHandler } from 'express';
import { DEFAULT_LOCALE, LOCALES, isLocale, localizedPath, parseLocale, preferredLocale, splitLocalePath, type Locale } from '../../server/src/rules/locales.js';
import type { PageHead } from './page-head.js';

/**
 * The language in the address (contract section 20): a storefront page is at its English address
 * and under `/de`, `/fr` and `/es`, drawn, cached and described alike; the console stays English.
 */

/** The languages with a prefix of their own. */
export const PREFIXED_LOCALES = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

/** The console's addresses (and the staff's invitation into it): English only. */
const CONSOLE_PATH = /^\/(?:admindash|admin|settings|staff)(?:\/|$)/i;

/** Whether a shop path (no prefix) belongs to the console. */
export const isConsolePath = (path: string): boolean => CONSOLE_PATH.test(path);

/** The language a visitor chose in the footer's switch (the `lang` cookie), or null when none. */
export function langCookieOf(cookie: string | string[] | undefined): Locale | null {
  const header = Array.isArray(cookie) ? cookie.join('; ') : (cookie ?? '');
  return parseLocale(/(?:^|;\s*)lang=([^;]*)/.exec(header)?.[1]);
}

/**
 * Where a visit to `/` is sent instead of the English home page: to the language of the `lang`
 * cookie, else (a first visit) to the one `Accept-Language` puts first, when it is not English.
 * Only `/` chooses: any other English address is a link someone followed, and stays English.
 */
export function homeRedirectOf(url: string, headers: IncomingHttpHeaders): string | null {
  const query = url.indexOf('?');
  if ((query < 0 ? url : url.slice(0, query)) !== '/') return null;
  const locale = langCookieOf(headers.cookie) ?? preferredLocale(headers['accept-language']);
  return locale === DEFAULT_LOCALE ? null : localizedPath(locale, url);
}

/** What the redirect from `/` depends on: the visitor's languages and cookie. */
export const HOME_REDIRECT_VARY = 'Accept-Language, Cookie';

/** The console under a language's prefix (`/de/admindash`) goes to its one, English, address. */
export const consoleInEnglish: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const { locale, path } = splitLocalePath(req.path);
  if (locale === DEFAULT_LOCALE || !isConsolePath(path)) return next();
  const query = req.originalUrl.indexOf('?');
  res.setHeader('Cache-Control', 'no-cache');
  res.redirect(302, path + (query < 0 ? '' : req.originalUrl.slice(query)));
};

/** The page routes that exist in every language (the storefront's own pages, not its feeds or the purchased cards). */
export const LOCALIZED_PAGE_PATHS: ReadonlySet<string> = new Set(['/', '/shop', '/product/:id', '/blog', '/blog/:idOrSlug', '/developers']);

/**
 * A router for the pages under a language's prefix, mounted at `/de`, `/fr` and `/es`: Express
 * strips the prefix (the routes match as in English), the handlers read the language from the
 * address as asked (`req.originalUrl`). Only the prefix exactly as written (`/DE/shop` is not German).
 */
export function localizedRouter(mount: (router: express.Router) => void): express.Router {
  const router = express.Router();
  router.use((req, _res, next) => (isLocale(req.baseUrl.slice(1)) ? next() : next('router')));
  mount(router);
  return router;
}

/** The absolute address of a shop path (`/shop?category=7`) in each language, and `x-default` (English). */
export function alternatesOf(site: string, path: string): { hreflang: string; href: string }[] {
  return [...LOCALES.map((locale) => ({ hreflang: locale, href: `${site}${localizedPath(locale, path)}` })), { hreflang: 'x-default', href: `${site}${path}` }];
}

/**
 * A page's head in `locale`: its canonical address (written in English by the page's description)
 * moved under the language's prefix, and its alternates in every language.
 */
export function localizedHead(head: PageHead, site: string | undefined, locale: Locale): PageHead {
  const canonical = head.canonical;
  if (!site || !canonical?.startsWith(`${site}/`)) return head;
  const path = canonical.slice(site.length);
  return { ...head, canonical: `${site}${localizedPath(locale, path)}`, alternates: alternatesOf(site, path) };
}
