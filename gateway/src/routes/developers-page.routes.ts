import { AppError } from '../../../server/src/core/errors.js';
import type { Services } from '../../../server/src/services.js';
import { pageVariantOf } from '../page-cache.js';
import type { PageDeps } from '../page-drawer.js';
import type { RouteDef } from '../route.js';
import { themeOf } from '../server-render.js';
import { organizationJsonLd, wantsPage } from './storefront-pages.routes.js';

/** What /developers says about itself to search engines and link previews. */
export const DEVELOPERS_DESCRIPTION = 'Build on the shop’s API: API keys and scopes, pagination, errors, rate limits, signed webhooks and a GraphQL explorer to try it with your key.';

/**
 * /developers, the API's documentation (contract section 19): drawn by the server like the other
 * storefront pages and kept in the page cache at its plain address. It reads no data of its own (its
 * text is the page's code), so its first screen needs nothing inlined but the shop's name.
 */
export function developersPageRoutes(_services: Services, { site, drawer, pages }: PageDeps): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/developers',
      access: 'public',
      async handler(ctx, req, res) {
        if (!wantsPage(req)) throw new AppError('NOT_FOUND', 'Not found');
        const variant = pageVariantOf(req.originalUrl, req.headers.cookie);
        const theme = variant?.theme ?? themeOf(req.headers.cookie);
        await pages.serve(ctx, req, res, variant, (visitor) =>
          drawer.draw(visitor, {
            url: variant?.url ?? req.originalUrl,
            theme,
            page: 'developers',
            describe: async (shop) => ({
              head: {
                title: `Developers · ${shop.name}`,
                socialTitle: `${shop.name} for developers`,
                description: DEVELOPERS_DESCRIPTION,
                canonical: `${site}/developers`,
                type: 'article',
                jsonLd: [
                  {
                    '@context': 'https://schema.org',
                    '@type': 'TechArticle',
                    headline: `Build on ${shop.name}`,
                    description: DEVELOPERS_DESCRIPTION,
                    url: `${site}/developers`,
                    publisher: organizationJsonLd(site, shop),
                  },
                ],
              },
            }),
          }),
        );
      },
    },
  ];
}
