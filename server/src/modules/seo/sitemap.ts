import type { EntityManager } from '@mikro-orm/postgresql';
import { BlogPost, publishedAndDue } from '../blog/blog-post.entity.js';
import { Category } from '../catalogue/category.entity.js';
import { Product } from '../catalogue/product.entity.js';

export interface SitemapContent {
  categoryIds: number[];
  products: { id: number; updatedAt: Date }[];
  /** Published, due posts, newest first. */
  posts: { slug: string; updatedAt: Date }[];
}

/** What the sitemap lists: every category and product, and the posts readers can see (never drafts). */
export async function sitemapContent(em: EntityManager): Promise<SitemapContent> {
  const [categories, products, posts] = await Promise.all([
    em.find(Category, {}, { fields: ['id'], orderBy: { id: 'asc' } }),
    em.find(Product, {}, { fields: ['id', 'updatedAt'], orderBy: { id: 'asc' } }),
    em.find(BlogPost, publishedAndDue(), { fields: ['slug', 'updatedAt'], orderBy: { publishedAt: 'desc', id: 'desc' } }),
  ]);
  return {
    categoryIds: categories.map((c) => c.id),
    products: products.map((p) => ({ id: p.id, updatedAt: p.updatedAt })),
    posts: posts.map((p) => ({ slug: p.slug, updatedAt: p.updatedAt })),
  };
}
