import { sitemapContent } from '../../../server/src/modules/seo/sitemap.js';
import { escapeHtml } from '../../../server/src/core/html.js';
import type { RouteDef } from '../route.js';
import { origin } from './storefront-pages.routes.js';

/** Where crawlers may go and where the sitemap is; the admin console, the account pages and the API are not for them. */
export function robotsTxt(site: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admindash',
    'Disallow: /admin/',
    'Disallow: /settings',
    'Disallow: /cart',
    'Disallow: /payments',
    'Disallow: /order-confirmation/',
    'Disallow: /login',
    'Disallow: /api/',
    'Disallow: /graphql',
    'Disallow: /ecards/',
    '',
    `Sitemap: ${site}/sitemap.xml`,
    '',
  ].join('\n');
}

interface SitemapEntry {
  loc: string;
  lastmod?: Date | null;
}

export function sitemapXml(entries: SitemapEntry[]): string {
  const urls = entries.map(
    (entry) => `  <url><loc>${escapeHtml(entry.loc)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod.toISOString()}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** /robots.txt and /sitemap.xml (the storefront's pages: home, shop, categories, products, published posts, the developers' page). */
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
          { loc: `${site}/` },
          { loc: `${site}/shop` },
          ...categoryIds.map((id) => ({ loc: `${site}/shop?category=${id}` })),
          ...products.map((p) => ({ loc: `${site}/product/${p.id}`, lastmod: p.updatedAt })),
          { loc: `${site}/blog`, lastmod: posts[0]?.updatedAt },
          ...posts.map((p) => ({ loc: `${site}/blog/${p.slug}`, lastmod: p.updatedAt })),
          { loc: `${site}/developers` },
        ];
        res.type('application/xml; charset=utf-8').setHeader('Cache-Control', 'public, max-age=300');
        res.send(sitemapXml(entries));
      },
    },
  ];
}
