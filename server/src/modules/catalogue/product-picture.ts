import type { EntityManager } from '@mikro-orm/postgresql';

/** The path of a product's main picture (a bought gift card keeps it as its design); null when it has none or is gone. */
export async function mainImagePath(em: EntityManager, productId: number | null): Promise<string | null> {
  if (productId === null) return null;
  const [row] = await em.execute<{ file_path: string }[]>('select f.file_path from product p join media_file f on f.id = p.main_image_id where p.id = ?', [productId]);
  return row?.file_path ?? null;
}
