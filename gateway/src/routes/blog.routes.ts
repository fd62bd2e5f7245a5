import type { Services } from '../../../server/src/services.js';
import { badInput } from '../../../server/src/core/errors.js';
import { BlogPostStatus, type BlogPost } from '../../../server/src/modules/blog/blog-post.entity.js';
import { body, pathId, withRestFields, type RouteDef } from '../route.js';

/** The REST shape of a post (snake_case, as the rest of the API). */
export function blogPostJson(post: BlogPost) {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    body: post.body,
    html: post.html,
    meta_description: post.metaDescription,
    cover_image_id: post.coverImage?.id ?? null,
    cover_image_path: post.coverImage?.filePath ?? null,
    status: post.status,
    published_at: post.publishedAt?.toISOString() ?? null,
    author: post.author ? { id: post.author.id, username: post.author.username } : null,
    created_at: post.createdAt.toISOString(),
    updated_at: post.updatedAt.toISOString(),
  };
}

/** REST names → the service's input names. */
function postInput(json: Record<string, unknown>) {
  return {
    title: json.title,
    slug: json.slug,
    excerpt: json.excerpt,
    body: json.body,
    metaDescription: json.meta_description,
    coverImageId: json.cover_image_id,
    status: json.status,
    publishedAt: json.published_at,
  };
}

const POST_FIELDS = { metaDescription: 'meta_description', coverImageId: 'cover_image_id', publishedAt: 'published_at' };

export function blogRoutes({ blog }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/blog',
      access: 'storefront',
      async handler(ctx, req, res) {
        const status = typeof req.query.status === 'string' ? req.query.status : undefined;
        if (status !== undefined && status !== 'all' && !Object.values(BlogPostStatus).includes(status as BlogPostStatus)) {
          throw badInput('status must be draft, published or all.', 'status');
        }
        const first = req.query.limit === undefined ? undefined : Number(req.query.limit);
        const after = typeof req.query.after === 'string' ? req.query.after : undefined;
        const page = await blog.list(ctx, { first, after, status: status as BlogPostStatus | 'all' | undefined });
        res.json({
          posts: page.edges.map((edge) => blogPostJson(edge.node)),
          total: page.totalCount,
          next: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null,
        });
      },
    },
    {
      method: 'get',
      path: '/blog/:idOrSlug',
      access: 'storefront',
      async handler(ctx, req, res) {
        res.json(blogPostJson(await blog.get(ctx, String(req.params.idOrSlug))));
      },
    },
    {
      method: 'post',
      path: '/blog',
      access: 'admin',
      async handler(ctx, req, res) {
        res.status(201).json(blogPostJson(await withRestFields(blog.create(ctx, postInput(body(req))), POST_FIELDS)));
      },
    },
    {
      method: 'put',
      path: '/blog/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(blogPostJson(await withRestFields(blog.update(ctx, pathId(req.params.id, 'Post'), postInput(body(req))), POST_FIELDS)));
      },
    },
    {
      method: 'delete',
      path: '/blog/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await blog.delete(ctx, pathId(req.params.id, 'Post'));
        res.status(204).end();
      },
    },
  ];
}
