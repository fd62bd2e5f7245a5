import type { EntityManager } from '@mikro-orm/postgresql';

/** The tables that hold a tree through a `parent_id` column (categories, media folders). */
export type TreeTable = 'category' | 'media_folder';

/**
 * The one "everything below this node" query: the node's id and the ids of every node under it
 * (empty when the node does not exist), read with one recursive query. `lock` locks the rows
 * (FOR UPDATE) for a move or delete of the whole subtree.
 */
export async function subtreeIds(em: EntityManager, table: TreeTable, id: number, options: { lock?: boolean } = {}): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    `with recursive tree as (
       select id from ${table} where id = ?
       union
       select child.id from ${table} child join tree on child.parent_id = tree.id
     )
     select n.id from ${table} n join tree on tree.id = n.id${options.lock ? ' for update of n' : ''}`,
    [id],
  );
  return rows.map((row) => Number(row.id));
}
