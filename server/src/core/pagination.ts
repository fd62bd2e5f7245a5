import { raw, type EntityManager, type EntityName, type FilterQuery } from '@mikro-orm/postgresql';
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { badInput } from './errors.js';

/**
 * Cursor connections (`first`/`after`, `edges { cursor node }`, `pageInfo`, `totalCount`) for every
 * list that grows. Cursors are opaque to clients: base64url JSON of the keyset position (the sort key
 * values of the last row seen), so that a page is `WHERE (key) > (cursor) ORDER BY key LIMIT n`, as
 * fast at row 5,000 as at row 1.
 */

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export type CursorKey = Record<string, string | number>;

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The keyset position a cursor holds; a cursor that is not one of ours is BAD_USER_INPUT on `after`. */
export function decodeCursor<K extends CursorKey>(cursor: string, shape: { [P in keyof K]: 'string' | 'number' }): K {
  const invalid = () => badInput('The cursor is not valid.', 'after');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid();
  const record = value as Record<string, unknown>;
  for (const [name, type] of Object.entries(shape)) {
    const item = record[name];
    if (typeof item !== type || (type === 'number' && !Number.isSafeInteger(item))) throw invalid();
  }
  return record as K;
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The `endCursor` of the previous page.' })
  after?: string | null;
}

/**
 * The rows before a numbered page (1-based) of `size` rows: OFFSET paging, for the REST lists that
 * take `page=N` (a keyset cursor stays the fast way deep into a long list).
 */
export function rowsBefore(page: number | null | undefined, size: number): number {
  if (page === null || page === undefined) return 0;
  if (!Number.isSafeInteger(page) || page < 1) throw badInput('page must be a whole number from 1.', 'page');
  return (page - 1) * size;
}

/** The page size asked for, checked: BAD_USER_INPUT on `first` outside 1..max. */
export function pageSize(first: number | null | undefined, max = MAX_PAGE_SIZE, fallback = DEFAULT_PAGE_SIZE): number {
  if (first === null || first === undefined) return Math.min(fallback, max);
  if (!Number.isInteger(first) || first < 1 || first > max) throw badInput(`first must be between 1 and ${max}.`, 'first');
  return first;
}

@ObjectType({ description: 'Where a page sits in its list.' })
export class PageInfo {
  @Field(() => Boolean, { description: 'True when more items follow this page: ask again with `after: endCursor`.' })
  hasNextPage!: boolean;

  @Field(() => Boolean, { description: 'True when the page was asked for with `after`.' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'The cursor of the first item of the page; null for an empty page.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'The cursor of the last item of the page: pass it as `after` to get the next page. Null for an empty page.' })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface ConnectionResult<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
  totalCount: number;
}

type ClassOf<T> = abstract new (...args: never[]) => T;

/**
 * The GraphQL types `<Name>Edge` and `<Name>Connection` for a node type. Call once per node type, at
 * module level: `export const MediaFileConnection = Connection(MediaFile, 'MediaFile')`.
 */
export function Connection<T extends object>(nodeType: ClassOf<T>, name: string) {
  @ObjectType(`${name}Edge`, { description: `One ${name} of a page, with its cursor.` })
  class EdgeType implements Edge<T> {
    @Field(() => String, { description: 'An opaque position in the list: pass it as `after` to get the items that follow this one.' })
    cursor!: string;

    @Field(() => nodeType, { description: `The ${name} itself.` })
    node!: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${name} items.` })
  class ConnectionType implements ConnectionResult<T> {
    @Field(() => [EdgeType], { description: "The page's items in the list's order." })
    edges!: EdgeType[];

    @Field(() => PageInfo, { description: 'Where the page sits in the list, and the cursor of the next one.' })
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'How many items the whole list holds.' })
    totalCount!: number;
  }
  return ConnectionType;
}

/**
 * Builds a page from rows fetched with `LIMIT size + 1` after the cursor (the extra row only says
 * whether there is a next page).
 */
export function connectionFromRows<T>(rows: T[], options: { size: number; after?: string | null; skipped?: number; totalCount: number; cursorOf: (row: T) => CursorKey }): ConnectionResult<T> {
  const page = rows.slice(0, options.size);
  const edges = page.map((node) => ({ cursor: encodeCursor(options.cursorOf(node)), node }));
  return {
    edges,
    totalCount: options.totalCount,
    pageInfo: {
      hasNextPage: rows.length > options.size,
      hasPreviousPage: Boolean(options.after) || (options.skipped ?? 0) > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** One sort key of a keyset page: the entity property, its name in the cursor and how a row gives its value. */
export interface KeysetKey<T> {
  property: string;
  cursor: string;
  type: 'string' | 'number' | 'date';
  valueOf: (row: T) => string | number | Date;
}

export interface KeysetPage<T> {
  size: number;
  after?: string | null;
  /** One direction for every key: `asc` pages forward from the smallest, `desc` from the largest. */
  direction: 'asc' | 'desc';
  /** The sort keys, most significant first; the last one must be unique (the id). */
  keys: KeysetKey<T>[];
  populate?: readonly string[];
  /** False when the caller shows no total (a REST list with only a next cursor): the count is not run, and `totalCount` is -1. */
  counted?: boolean;
  /**
   * Counts at most this many rows and one more: a list that grows without end (orders) shows "more
   * than 10,000" instead of reading 200,000 index entries on every page.
   */
  countUpTo?: number;
}

/**
 * The one keyset page of the server: the rows of `where` after the cursor, in the keys' order, with
 * the total count (two queries, run side by side). A cursor that is not one of this list's is
 * BAD_USER_INPUT on `after`.
 */
export async function keysetPage<T extends object>(em: EntityManager, entity: EntityName<T>, where: FilterQuery<T>, page: KeysetPage<T>): Promise<ConnectionResult<T>> {
  const after = page.after ? keysetAfter(page) : null;
  const orderBy = Object.fromEntries(page.keys.map((key) => [key.property, page.direction]));
  const [rows, totalCount] = await Promise.all([
    em.find(entity, (after ? { $and: [where, after] } : where) as never, { orderBy, limit: page.size + 1, populate: page.populate } as never),
    page.counted === false ? Promise.resolve(-1) : page.countUpTo ? countUpTo(em, entity, where, page.countUpTo) : em.count(entity, where as never),
  ]);
  return connectionFromRows(rows as T[], {
    size: page.size,
    after: page.after,
    totalCount,
    cursorOf: (row) => Object.fromEntries(page.keys.map((key) => {
      const value = key.valueOf(row);
      return [key.cursor, value instanceof Date ? value.toISOString() : value];
    })),
  });
}

/** The rows of `where`, counted up to `limit + 1` (one statement: a count over a limited select). */
async function countUpTo<T extends object>(em: EntityManager, entity: EntityName<T>, where: FilterQuery<T>, limit: number): Promise<number> {
  const { sql, params } = em.createQueryBuilder(entity).select(raw('1')).where(where as never).limit(limit + 1).toQuery();
  const [row] = await em.execute<{ n: string }[]>(`select count(*) as n from (${sql}) as capped`, params as unknown[]);
  return Number(row!.n);
}

/**
 * `(k1, k2, ...) > (v1, v2, ...)` (or `<` going down) written as MikroORM can: k1 >= v1, and k1 > v1
 * or k1 = v1 and k2 > v2, ... The leading `k1 >= v1` is implied by the rest; it is there for the
 * planner, which starts the index scan at v1 with it (without it, a page 50,000 rows in read the
 * 50,000 rows before it and filtered them out).
 */
function keysetAfter<T>(page: KeysetPage<T>): object {
  const shape = Object.fromEntries(page.keys.map((key) => [key.cursor, key.type === 'number' ? 'number' : 'string'])) as Record<string, 'string' | 'number'>;
  const cursor = decodeCursor<CursorKey>(page.after!, shape);
  const values = page.keys.map((key) => {
    const raw = cursor[key.cursor]!;
    if (key.type !== 'date') return raw;
    const at = new Date(raw);
    if (Number.isNaN(at.getTime())) throw badInput('The cursor is not valid.', 'after');
    return at;
  });
  const op = page.direction === 'asc' ? '$gt' : '$lt';
  const branches = page.keys.map((key, i) => ({
    ...Object.fromEntries(page.keys.slice(0, i).map((before, j) => [before.property, values[j]])),
    [key.property]: { [op]: values[i] },
  }));
  if (branches.length === 1) return branches[0]!;
  const first = page.keys[0]!.property;
  return { $and: [{ [first]: { [page.direction === 'asc' ? '$gte' : '$lte']: values[0] } }, { $or: branches }] };
}
