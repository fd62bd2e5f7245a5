import { Feed } from 'feed';
import type { Services } from '../../../server/src/services.js';
import { AppError } from '../../../server/src/core/errors.js';
import type { RouteDef } from '../route.js';
import { themeOf } from '../server-render.js';
import { pageVariantOf } from '../page-cache.js';
import type { PageDeps, PageDescription } from '../page-drawer.js';
import { organizationJsonLd, origin, wantsPage } from './storefront-pages.routes.js';

/** The pages of the blog served by the server itself: the RSS feed, and post pages with their preview tags. */
export function blogPageRoutes({ blog, settings }: Services, { drawer, pages, site }: PageDeps): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/blog/rss.xml',
      access: 'storefront',
      async handler(ctx, req, res) {
        const site = origin(req);
        const [posts, shop] = await Promise.all([blog.feedPosts(ctx), settings.publicShop(ctx)]);
        const feed = new Feed({
          title: `${shop.name} — Blog`,
          description: `Stories, ideas and news from ${shop.name}.`,
          id: `${site}/blog`,
          link: `${site}/blog`,
          language: 'en',
          copyright: `© ${new Date().getFullYear()} ${shop.name}`,
          updated: posts[0]?.publishedAt ?? new Date(0),
          feedLinks: { rss: `${site}/blog/rss.xml` },
        });
        for (const post of posts) {
          feed.addItem({
            title: post.title,
            id: `${site}/blog/${post.slug}`,
            link: `${site}/blog/${post.slug}`,
            description: blog.description(post),
            content: post.html,
            date: post.publishedAt!,
            author: post.author ? [{ name: post.author.username }] : undefined,
            image: post.coverImage ? { url: `${site}/api/${post.coverImage.filePath}`, type: post.coverImage.mimeType, length: post.coverImage.size } : undefined,
          });
        }
        res.type('application/rss+xml; charset=utf-8').setHeader('Cache-Control', 'public, max-age=300');
        res.send(feed.rss2());
      },
    },
    {
      // The server describes the post (title, description, canonical address, Open Graph, Twitter and
      // BlogPosting data) for crawlers and link previews, and draws it (the browser hydrates it) from
      // the same data, which the page carries. Hidden or unknown posts get the plain shell with 404.
      method: 'get',
      path: '/blog/:idOrSlug',
      access: 'public',
      async handler(ctx, req, res) {
        if (!wantsPage(req)) throw new AppError('NOT_FOUND', 'Not found');
        const variant = pageVariantOf(req.originalUrl, req.headers.cookie);
        const idOrSlug = String(req.params.idOrSlug);
        await pages.serve(ctx, req, res, variant, (visitor) =>
          drawer.draw(visitor, {
            url: variant?.url ?? req.originalUrl,
            theme: variant?.theme ?? themeOf(req.headers.cookie),
            page: 'blogPost',
            async describe(shop): Promise<PageDescription> {
              // Read as a visitor: a draft is never described.
              const post = await blog.get(visitor, idOrSlug);
              const description = blog.description(post);
              const canonical = `${site}/blog/${post.slug}`;
              const image = post.coverImage ? `${site}/api/${post.coverImage.filePath}` : null;
              return {
                head: {
                  title: `${post.title} · ${shop.name}`,
                  socialTitle: post.title,
                  description,
                  canonical,
                  type: 'article',
                  image,
                  meta: post.publishedAt ? { 'article:published_time': post.publishedAt.toISOString() } : ({} as Record<string, string>),
                  // A drawn page preloads its cover itself (React writes the preload of the image it draws first).
                  jsonLd: [
                    {
                      '@context': 'https://schema.org',
                      '@type': 'BlogPosting',
                      headline: post.title,
                      description,
                      url: canonical,
                      mainEntityOfPage: canonical,
                      ...(image ? { image } : {}),
                      ...(post.publishedAt ? { datePublished: post.publishedAt.toISOString() } : {}),
                      dateModified: post.updatedAt.toISOString(),
                      ...(post.author ? { author: { '@type': 'Person', name: post.author.username } } : {}),
                      publisher: organizationJsonLd(site, shop),
                    },
                  ],
                },
                // The variables as the page asks for them (its address, an id or a slug).
                reads: [{ operationName: 'BlogPost', variables: { idOrSlug } }],
                // Kept only at the post's own addresses (its slug or its id as written), so other spellings make no entries.
                cacheable: idOrSlug === post.slug || idOrSlug === String(post.id),
              };
            },
          }),
        );
      },
    },
  ];
}
