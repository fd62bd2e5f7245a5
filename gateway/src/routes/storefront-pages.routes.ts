import type { Request, Response } from 'express';
import type { RequestContext } from '../../../server/src/core/context.js';
import { AppError } from '../../../server/src/core/errors.js';
import type { Services } from '../../../server/src/services.js';
import type { PublicShop } from '../../../server/src/modules/settings/shop-settings.js';
import { BLOG_PAGE_SIZE, FEATURED_CARDS, IMAGE_SIZES, SHOP_PAGE_SIZE } from '../initial-queries.js';
import { pageWords } from '../page-words.js';
import { themeOf } from '../server-render.js';
import type { PageModule } from '../page-chunks.js';
import { BROWSE_PARAMS, pageVariantOf, type PageVariant } from '../page-cache.js';
import type { PageDeps, PageDescription } from '../page-drawer.js';
import type { RouteDef } from '../route.js';
import { pathId } from '../route.js';
import { HOME_REDIRECT_VARY, homeRedirectOf } from '../page-locale.js';
import { imageUrl, organizationJsonLd, preloadOf, productPageDescriber } from './page-descriptions.js';
import { localizedPath, type Locale } from '../../../server/src/rules/locales.js';

/**
 * The site's own address, as configured (PUBLIC_URL): never the request's Host header, which any
 * client sets and which would otherwise write its links into publicly cached pages and feeds.
 */
export const origin = (req: Request) => req.app.locals.publicUrl;

export const wantsPage = (req: Request) => req.accepts(['html', 'json']) === 'html';


export { organizationJsonLd, summary } from './page-descriptions.js';

/**
 * The storefront's pages, described by the server itself: title, description, canonical address,
 * Open Graph and Twitter tags and schema.org data in the HTML, the page's largest picture preloaded,
 * and the data of the first screen inlined and drawn (the client renders the rest). Pages at their
 * plain address are kept in the read cache (page-cache.ts) and dropped when what they show changes.
 */
export function storefrontPageRoutes(services: Services, { site, drawer, pages }: PageDeps): RouteDef[] {
  const { products, categories } = services;
  const describeProduct = productPageDescriber(services, site);

  /** Serves a page at its plain address from the cache, or draws it for this request (any other address). */
  /** Serves a page, described in the language of its address (the drawer reads it from the address; its first queries read the products in it, as the client's do). */
  const serve = (ctx: RequestContext, req: Request, res: Response, page: PageModule, describe: (visitor: RequestContext, variant: PageVariant | null, shop: PublicShop, locale: Locale) => Promise<PageDescription>) => {
    const variant = pageVariantOf(req.originalUrl, req.headers.cookie);
    const theme = variant?.theme ?? themeOf(req.headers.cookie);
    return pages.serve(ctx, req, res, variant, (visitor) => drawer.draw(visitor, { url: variant?.url ?? req.originalUrl, theme, page, describe: (shop, locale) => describe(visitor, variant, shop, locale) }));
  };

  return [
    {
      method: 'get',
      path: '/',
      access: 'public',
      async handler(ctx, req, res) {
        if (!wantsPage(req)) throw new AppError('NOT_FOUND', 'Not found');
        const to = homeRedirectOf(req.originalUrl, req.headers);
        if (to) {
          res.setHeader('Cache-Control', 'no-cache');
          res.setHeader('Vary', HOME_REDIRECT_VARY);
          return res.redirect(302, to);
        }
        await serve(ctx, req, res, 'home', async (_visitor, _variant, shop, locale) => {
          const words = pageWords(locale);
          return {
            head: {
              title: words('homeTitle', { shop: shop.name }),
              description: words('siteDescription', { shop: shop.name }),
              canonical: `${site}/`,
              jsonLd: [
                {
                  '@context': 'https://schema.org',
                  '@type': 'WebSite',
                  name: shop.name,
                  url: `${site}${localizedPath(locale, '/')}`,
                  inLanguage: locale,
                  potentialAction: { '@type': 'SearchAction', target: `${site}${localizedPath(locale, '/shop')}?q={search_term_string}`, 'query-input': 'required name=search_term_string' },
                },
                { '@context': 'https://schema.org', ...organizationJsonLd(site, shop) },
              ],
            },
            reads: [
              { operationName: 'ShopProducts', variables: { ...FEATURED_CARDS, locale } },
              { operationName: 'ShopCategories', variables: {} },
            ],
          };
        });
      },
    },
    {
      method: 'get',
      path: '/shop',
      access: 'public',
      async handler(ctx, req, res) {
        if (!wantsPage(req)) throw new AppError('NOT_FOUND', 'Not found');
        const rawCategory = typeof req.query.category === 'string' ? req.query.category : null;
        // A search, a sort or a filter is the shopper's: the page fetches it, only the plain page is inlined.
        const searched = (typeof req.query.q === 'string' && req.query.q.trim() !== '') || BROWSE_PARAMS.some((name) => req.query[name] !== undefined);
        await serve(ctx, req, res, 'shop', async (visitor, variant, shop, locale) => {
          const words = pageWords(locale);
          // A kept page is drawn for the category its address names (read as the cache reads it).
          const categoryId = variant?.page === 'shop' ? variant.categoryId : rawCategory ? pathId(rawCategory, 'Category') : null;
          const category = categoryId ? await categories.get(visitor, categoryId) : null;
          const title = category ? words('categoryTitle', { category: category.name, shop: shop.name }) : words('shopTitle', { shop: shop.name });
          const description = category ? words('categoryDescription', { category: category.name, shop: shop.name }) : words('shopDescription', { shop: shop.name });
          const canonical = category ? `${site}/shop?category=${category.id}` : `${site}/shop`;
          const variables = { query: null, categoryId: category?.id ?? null, first: SHOP_PAGE_SIZE, locale };
          const page = await products.search(visitor, { categoryId: variables.categoryId, first: SHOP_PAGE_SIZE });
          const first = page.edges[0]?.node;
          return {
            head: {
              title,
              description,
              canonical,
              image: imageUrl(site, first?.mainImage),
              preloadImage: searched ? null : preloadOf(first?.mainImage, IMAGE_SIZES.tile),
              jsonLd: [
                {
                  '@context': 'https://schema.org',
                  '@type': 'CollectionPage',
                  name: category?.name ?? words('shop'),
                  url: canonical,
                  inLanguage: locale,
                  mainEntity: {
                    '@type': 'ItemList',
                    numberOfItems: page.totalCount,
                    itemListElement: await Promise.all(
                      page.edges.map(async ({ node }, index) => ({ '@type': 'ListItem', position: index + 1, url: `${site}${localizedPath(locale, `/product/${node.id}`)}`, name: (await products.contentIn(visitor, node, locale)).name })),
                    ),
                  },
                },
              ],
            },
            // A search is typed by the shopper and debounced by the client: only the plain page is inlined.
            reads: [...(searched ? [] : [{ operationName: 'ShopProducts' as const, variables }]), { operationName: 'ShopCategories', variables: {} }, { operationName: 'ShopProductTypes', variables: {} }],
          };
        });
      },
    },
    {
      method: 'get',
      path: '/product/:id',
      access: 'public',
      async handler(ctx, req, res) {
        if (!wantsPage(req)) throw new AppError('NOT_FOUND', 'Not found');
        await serve(ctx, req, res, 'product', (visitor, variant, shop, locale) => describeProduct(visitor, variant?.page === 'product' ? variant.id : pathId(req.params.id, 'Product'), shop, locale));
      },
    },
    {
      method: 'get',
      path: '/blog',
      access: 'public',
      async handler(ctx, req, res) {
        if (!wantsPage(req)) throw new AppError('NOT_FOUND', 'Not found');
        await serve(ctx, req, res, 'blog', async (visitor, _variant, shop, locale) => {
          const words = pageWords(locale);
          const page = await services.blog.list(visitor, { first: BLOG_PAGE_SIZE });
          const first = page.edges[0]?.node;
          const next = await services.blog.nextScheduledAt(visitor);
          return {
            head: {
              title: words('blogTitle', { shop: shop.name }),
              description: words('blogDescription', { shop: shop.name }),
              canonical: `${site}/blog`,
              image: imageUrl(site, first?.coverImage),
              jsonLd: [
                {
                  '@context': 'https://schema.org',
                  '@type': 'Blog',
                  name: words('blogName', { shop: shop.name }),
                  publisher: organizationJsonLd(site, shop),
                  url: `${site}${localizedPath(locale, '/blog')}`,
                  blogPost: page.edges.map(({ node }) => ({
                    '@type': 'BlogPosting',
                    headline: node.title,
                    url: `${site}${localizedPath(locale, `/blog/${node.slug}`)}`,
                    datePublished: node.publishedAt?.toISOString(),
                  })),
                },
              ],
            },
            reads: [{ operationName: 'BlogPosts', variables: { first: BLOG_PAGE_SIZE, status: null } }],
            // A post scheduled for later joins the list at its time: the kept page goes then.
            ttlMs: next ? next.getTime() - Date.now() : undefined,
          };
        });
      },
    },
  ];
}
