import { Feed } from 'feed';
import type { Request } from 'express';
import type { Services } from '../../../server/src/services.js';
import { AppError } from '../../../server/src/core/errors.js';
import { sendAppShell } from '../web-client.js';
import type { RouteDef } from '../route.js';

/** The site's own address as the reader sees it (behind a proxy with TRUST_PROXY=1). */
const origin = (req: Request) => `${req.protocol}://${req.get('host')}`;

/** The pages of the blog served by the server itself: the RSS feed, and post pages with their preview tags. */
export function blogPageRoutes({ blog, settings }: Services, webDir: string): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/blog/rss.xml',
      access: 'storefront',
      async handler(ctx, req, res) {
        const site = origin(req);
        const posts = await blog.feedPosts(ctx);
        const feed = new Feed({
          title: 'Art & Song Cards — Blog',
          description: 'Stories, ideas and news from Art & Song Cards.',
          id: `${site}/blog`,
          link: `${site}/blog`,
          language: 'en',
          copyright: `© ${new Date().getFullYear()} Art & Song Cards`,
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
      // The client renders the post; the server adds its title, description and Open Graph tags so
      // that links shared elsewhere show a preview. Hidden or unknown posts get the plain shell with 404.
      method: 'get',
      path: '/blog/:idOrSlug',
      access: 'public',
      async handler(ctx, req, res, ) {
        if (req.accepts(['html', 'json']) !== 'html') throw new AppError('NOT_FOUND', 'Not found');
        try {
          await settings.assertStorefrontOpen(ctx);
          const post = await blog.get(ctx, String(req.params.idOrSlug));
          const site = origin(req);
          const description = blog.description(post);
          sendAppShell(res, webDir, {
            head: {
              title: `${post.title} · Art & Song Cards`,
              description,
              meta: {
                'og:type': 'article',
                'og:site_name': 'Art & Song Cards',
                'og:title': post.title,
                'og:description': description,
                'og:url': `${site}/blog/${post.slug}`,
                ...(post.coverImage ? { 'og:image': `${site}/api/${post.coverImage.filePath}` } : {}),
                ...(post.publishedAt ? { 'article:published_time': post.publishedAt.toISOString() } : {}),
              },
            },
          });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          sendAppShell(res, webDir, { status: error.code === 'NOT_FOUND' ? 404 : 200 });
        }
      },
    },
  ];
}
