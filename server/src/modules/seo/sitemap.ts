import type { EntityManager } from '@mikro-orm/postgresql';
import { blogSitemap } from '../blog/index.js';
import { catalogueSitemap } from '../catalogue/index.js';

export interface SitemapContent {
  categoryIds: number[];
  products: { id: number; updatedAt: Date }[];
  /** Published, due posts, newest first. */
  posts: { slug: string; updatedAt: Date }[];
}

/** What the sitemap lists: every category and product, and the posts readers can see, as their modules tell. */
export async function sitemapContent(em: EntityManager): Promise<SitemapContent> {
  const [catalogue, posts] = await Promise.all([catalogueSitemap(em), blogSitemap(em)]);
  return { ...catalogue, posts };
}
