import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The names of a product's category and of each category above it, nearest first ("Christmas",
 * "Seasons", "Cards"): what the product is for, as the shop files it. One query (the tree is walked
 * by the database); empty when the product is gone.
 */
export async function categoryPathNames(em: EntityManager, productId: number): Promise<string[]> {
  const rows = await em.getConnection().execute<{ name: string }[]>(
    `with recursive path as (
       select c.id, c.name, c.parent_id, 0 as depth from category c join product p on p.category_id = c.id where p.id = ?
       union all
       select c.id, c.name, c.parent_id, path.depth + 1 from category c join path on c.id = path.parent_id where path.depth < 32
     )
     select name from path order by depth`,
    [productId],
  );
  return rows.map((row) => row.name);
}
