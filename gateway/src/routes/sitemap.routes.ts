import { sitemapContent } from '../../../server/src/modules/seo/sitemap.js';
import { escapeHtml } from '../../../server/src/core/html.js';
import type { RouteDef } from '../route.js';
import { origin } from './storefront-pages.routes.js';
import { PREFIXED_LOCALES, alternatesOf } from '../page-locale.js';
import { LOCALES, localizedPath } from '../../../server/src/rules/locales.js';

/** Where crawlers may go and where the sitemap is; the admin console, the account pages and the API are not for them. */
export function robotsTxt(site: string): string {
  // A shopper's own pages are private in every language.
  const personal = ['/cart', '/payments', '/order-confirmation/', '/login'];
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admindash',
    'Disallow: /admin/',
    'Disallow: /settings',
    ...personal.map((path) => `Disallow: ${path}`),
    ...PREFIXED_LOCALES.flatMap((locale) => personal.map((path) => `Disallow: /${locale}${path}`)),
    'Disallow: /api/',
    'Disallow: /graphql',
    'Disallow: /ecards/',
    '',
    `Sitemap: ${site}/sitemap.xml`,
    '',
  ].join('\n');
}

/** A page of the storefront by its English path (`/shop?category=7`): the sitemap lists it in every language. */
interface SitemapEntry {
  path: string;
  lastmod?: Date | null;
}

/**
 * The sitemap: each page at its address in each language, every one of them naming the others
 * (`xhtml:link` alternates, and `x-default` for the English one), as search engines read languages.
 */
export function sitemapXml(site: string, entries: SitemapEntry[]): string {
  const urls = entries.flatMap((entry) => {
    const alternates = alternatesOf(site, entry.path)
      .map(({ hreflang, href }) => `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeHtml(href)}"/>`)
      .join('');
    const lastmod = entry.lastmod ? `<lastmod>${entry.lastmod.toISOString()}</lastmod>` : '';
    return LOCALES.map((locale) => `  <url><loc>${escapeHtml(`${site}${localizedPath(locale, entry.path)}`)}</loc>${lastmod}${alternates}</url>`);
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** /robots.txt and /sitemap.xml (the storefront's pages in every language: home, shop, categories, products, published posts, the developers' page). */
export function sitemapRoutes(): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/robots.txt',
      access: 'public',
      async handler(_ctx, req, res) {
        res.type('text/plain; charset=utf-8').setHeader('Cache-Control', 'public, max-age=3600');
        res.send(robotsTxt(origin(req)));
      },
    },
    {
      // Closed while under construction (503), like the rest of the storefront.
      method: 'get',
      path: '/sitemap.xml',
      access: 'storefront',
      async handler(ctx, req, res) {
        const site = origin(req);
        const { categoryIds, products, posts } = await sitemapContent(ctx.em);
        const entries: SitemapEntry[] = [
          { path: '/' },
          { path: '/shop' },
          ...categoryIds.map((id) => ({ path: `/shop?category=${id}` })),
          ...products.map((p) => ({ path: `/product/${p.id}`, lastmod: p.updatedAt })),
          { path: '/blog', lastmod: posts[0]?.updatedAt },
          ...posts.map((p) => ({ path: `/blog/${p.slug}`, lastmod: p.updatedAt })),
          { path: '/developers' },
        ];
        res.type('application/xml; charset=utf-8').setHeader('Cache-Control', 'public, max-age=300');
        res.send(sitemapXml(site, entries));
      },
    },
  ];
}
