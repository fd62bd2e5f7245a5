import type { EntityManager } from '@mikro-orm/postgresql';
import { Category } from './category.entity.js';
import { Product, ProductStatus } from './product.entity.js';

/** What the sitemap lists of the catalogue: every category and every product in the shop (active) with its last change. */
export async function catalogueSitemap(em: EntityManager): Promise<{ categoryIds: number[]; products: { id: number; updatedAt: Date }[] }> {
  const [categories, products] = await Promise.all([
    em.find(Category, {}, { fields: ['id'], orderBy: { id: 'asc' } }),
    em.find(Product, { status: ProductStatus.ACTIVE }, { fields: ['id', 'updatedAt'], orderBy: { id: 'asc' } }),
  ]);
  return { categoryIds: categories.map((c) => c.id), products: products.map((p) => ({ id: p.id, updatedAt: p.updatedAt })) };
}
