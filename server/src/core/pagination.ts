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

/** The page size asked for, checked: BAD_USER_INPUT on `first` outside 1..max. */
export function pageSize(first: number | null | undefined, max = MAX_PAGE_SIZE, fallback = DEFAULT_PAGE_SIZE): number {
  if (first === null || first === undefined) return Math.min(fallback, max);
  if (!Number.isInteger(first) || first < 1 || first > max) throw badInput(`first must be between 1 and ${max}.`, 'first');
  return first;
}

@ObjectType({ description: 'Where a page sits in its list.' })
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => Boolean, { description: 'True when the page was asked for with `after`.' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page.' })
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
  @ObjectType(`${name}Edge`)
  class EdgeType implements Edge<T> {
    @Field(() => String)
    cursor!: string;

    @Field(() => nodeType)
    node!: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${name} items.` })
  class ConnectionType implements ConnectionResult<T> {
    @Field(() => [EdgeType])
    edges!: EdgeType[];

    @Field(() => PageInfo)
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
export function connectionFromRows<T>(rows: T[], options: { size: number; after?: string | null; totalCount: number; cursorOf: (row: T) => CursorKey }): ConnectionResult<T> {
  const page = rows.slice(0, options.size);
  const edges = page.map((node) => ({ cursor: encodeCursor(options.cursorOf(node)), node }));
  return {
    edges,
    totalCount: options.totalCount,
    pageInfo: {
      hasNextPage: rows.length > options.size,
      hasPreviousPage: Boolean(options.after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
