import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

/**
 * A hot read as a named prepared statement: PostgreSQL parses and plans it once per connection (then
 * reuses its generic plan), where the ORM's `execute` sends every read as new text with its values
 * written in, parsed and planned again each time. For the storefront's reads on a cache miss that
 * planning was as long as the read itself. The statement is sent on the ORM's own pool (same type
 * parsers, same limits) and shows in the ORM's query log like its own queries.
 */
export interface PreparedRead {
  readonly name: string;
  /** The SQL, with `$1`, `$2`... for its values. */
  readonly text: string;
}

export function preparedRead(name: string, text: string): PreparedRead {
  return { name, text };
}

const pools = new WeakMap<object, Promise<pg.Pool>>();

/** A list of ids as one value (a PostgreSQL array literal: write `$n::int[]` in the SQL). */
export const idArray = (ids: readonly number[]): string => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/**
 * Runs `read` with `values` (strings, numbers, booleans, null; lists as `idArray`). Inside a
 * transaction it runs through the ORM on the transaction's connection, as text, so that it sees the
 * transaction's writes.
 */
export async function runPrepared<T>(em: EntityManager, read: PreparedRead, values: readonly (string | number | boolean | null)[]): Promise<T[]> {
  if (em.isInTransaction()) {
    const ordered: unknown[] = [];
    const text = read.text.replace(/\$(\d+)/g, (_, n: string) => (ordered.push(values[Number(n) - 1]), '?'));
    return em.execute<T[]>(text, ordered);
  }
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = connection.getNativeClient();
    pools.set(connection, pool);
  }
  const result = await (await pool).query<T & pg.QueryResultRow>({ name: read.name, text: read.text, values: values as unknown[] });
  em.config.getLogger().logQuery({ level: 'info', query: read.text });
  return result.rows;
}
