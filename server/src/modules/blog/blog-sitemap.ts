import type { EntityManager } from '@mikro-orm/postgresql';
import { BlogPost, publishedAndDue } from './blog-post.entity.js';

/** What the sitemap lists of the blog: the posts readers can see (never drafts), newest first. */
export async function blogSitemap(em: EntityManager): Promise<{ slug: string; updatedAt: Date }[]> {
  const posts = await em.find(BlogPost, publishedAndDue(), { fields: ['slug', 'updatedAt'], orderBy: { publishedAt: 'desc', id: 'desc' } });
  return posts.map((p) => ({ slug: p.slug, updatedAt: p.updatedAt }));
}
