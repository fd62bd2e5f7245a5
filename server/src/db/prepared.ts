import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';

/**
 * A hot statement as a named prepared statement: PostgreSQL parses and plans it once per connection
 * (then reuses its generic plan), where the ORM's `execute` sends every statement as new text with its
 * values written in, parsed and planned again each time. For the storefront's reads on a cache miss
 * that planning was as long as the read itself; for a checkout's statements it was a quarter of the
 * database's time. The statement is sent on the ORM's own connections (same type parsers, same
 * limits; inside a transaction, on the transaction's connection) and shows in the ORM's query log
 * like its own queries.
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
 * Runs `read` with `values` (strings, numbers, booleans, null; lists as `idArray`, JSON as a string):
 * on the transaction's connection inside a transaction (it sees the transaction's writes), on a
 * connection of the pool otherwise.
 */
export async function runPrepared<T>(em: EntityManager, read: PreparedRead, values: readonly (string | number | boolean | null)[]): Promise<T[]> {
  const statement = { name: read.name, text: read.text };
  let rows: T[];
  if (em.isInTransaction()) {
    // The transaction's connection hands `sql` to pg's `query` as it is, so a named statement goes
    // through as one (pg takes a query config where it takes a text).
    const trx = em.getTransactionContext<Kysely<unknown>>()!;
    const compiled = CompiledQuery.raw(read.text, values as unknown[]);
    rows = (await trx.executeQuery<T>({ ...compiled, sql: statement as unknown as string })).rows;
  } else {
    const connection = em.getConnection();
    let pool = pools.get(connection);
    if (!pool) {
      pool = connection.getNativeClient();
      pools.set(connection, pool);
    }
    rows = (await (await pool).query<T & pg.QueryResultRow>({ ...statement, values: values as unknown[] })).rows;
  }
  em.config.getLogger().logQuery({ level: 'info', query: read.text });
  return rows;
}
