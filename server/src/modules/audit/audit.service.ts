import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { badInput } from '../../core/errors.js';
import { connectionFromRows, decodeCursor, pageSize, rowsBefore, type ConnectionResult } from '../../core/pagination.js';
import { AUDITED_ENTITIES } from './audit.js';
import type { AuditActor, AuditEntry } from './audit.types.js';

/** How long entries are kept. */
export const AUDIT_RETENTION = '1 year';

export interface AuditFilter {
  /** A user id; or, from REST, a username (which also finds the entries of a removed account). */
  actor?: number | string | null;
  entity?: string | null;
  first?: number | null;
  after?: string | null;
  /** A numbered page (1-based, `first` entries each) instead of a cursor (REST's `page=`). */
  page?: number | null;
  /** Oldest first (default: newest first). */
  oldestFirst?: boolean | null;
}

interface Row {
  id: string;
  at: Date;
  at_key: string;
  actor_id: number | null;
  actor_name: string;
  actor_role: string;
  entity: string;
  entity_id: string | null;
  action: string;
  summary: string;
}

/**
 * The audit log's reads: newest (or oldest) first, filtered by person and kind of thing, in keyset pages over
 * the (at, id) indexes, one per filter; and the daily sweep of entries older than a year.
 */
export class AuditService {
  constructor(
    /** The shop's admins and staff (the accounts are the auth module's). */
    private readonly people: (em: EntityManager) => Promise<readonly { id: number; username: string }[]> = async () => [],
  ) {}

  async list(ctx: RequestContext, filter: AuditFilter): Promise<ConnectionResult<AuditEntry>> {
    const size = pageSize(filter.first);
    const skipped = rowsBefore(filter.page, size);
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.actor !== null && filter.actor !== undefined && filter.actor !== '') {
      if (typeof filter.actor === 'number') {
        where.push('"actor_id" = ?');
        params.push(filter.actor);
      } else {
        where.push('lower("actor_name") = lower(?)');
        params.push(filter.actor);
      }
    }
    if (filter.entity) {
      if (!(AUDITED_ENTITIES as readonly string[]).includes(filter.entity)) throw badInput(`entity must be one of ${AUDITED_ENTITIES.join(', ')}.`, 'entity');
      where.push('"entity" = ?');
      params.push(filter.entity);
    }
    const counted = where.length ? `where ${where.join(' and ')}` : '';
    if (filter.after) {
      const cursor = decodeCursor<{ t: string; id: string }>(filter.after, { t: 'string', id: 'string' });
      if (!/^\d{1,19}$/.test(cursor.id) || Number.isNaN(Date.parse(cursor.t))) throw badInput('The cursor is not valid.', 'after');
      where.push(`("at", "id") ${filter.oldestFirst ? '>' : '<'} (?::timestamptz, ?::bigint)`);
      params.push(cursor.t, cursor.id);
    }
    const [rows, [count]] = await Promise.all([
      ctx.em.execute<Row[]>(
        `select "id"::text as id, "at", "at"::text as at_key, "actor_id", "actor_name", "actor_role", "entity", "entity_id", "action", "summary"
           from "audit_entry" ${where.length ? `where ${where.join(' and ')}` : ''}
          order by "at" ${filter.oldestFirst ? 'asc' : 'desc'}, "id" ${filter.oldestFirst ? 'asc' : 'desc'} limit ${size + 1} offset ${skipped}`,
        params,
      ),
      ctx.em.execute<{ count: string }[]>(`select count(*) from "audit_entry" ${counted}`, params.slice(0, params.length - (filter.after ? 2 : 0))),
    ]);
    const entries = rows.map((row) => ({ row, entry: toEntry(row) }));
    const page = connectionFromRows(entries, { size, after: filter.after, skipped, totalCount: Number(count!.count), cursorOf: ({ row }) => ({ t: row.at_key, id: row.id }) });
    return { ...page, edges: page.edges.map((edge) => ({ cursor: edge.cursor, node: edge.node.entry })) };
  }

  /** The people the log can be filtered by: the shop's admins and staff, by name. */
  async actors(ctx: RequestContext): Promise<AuditActor[]> {
    const people = await this.people(ctx.em);
    return people
      .map((person) => ({ id: person.id, username: person.username }))
      .sort((a, b) => a.username.toLowerCase().localeCompare(b.username.toLowerCase()) || a.id - b.id);
  }

  /** Deletes the entries older than a year; returns how many went. */
  async sweep(em: EntityManager): Promise<number> {
    const rows = await em.execute<{ id: string }[]>(`delete from "audit_entry" where "at" < now() - interval '${AUDIT_RETENTION}' returning "id"`);
    return rows.length;
  }
}

function toEntry(row: Row): AuditEntry {
  return {
    id: row.id,
    at: new Date(row.at),
    actorId: row.actor_id,
    actorName: row.actor_name,
    actorRole: row.actor_role,
    entity: row.entity,
    entityId: row.entity_id,
    action: row.action,
    summary: row.summary,
  };
}
