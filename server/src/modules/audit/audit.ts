import { withEm, type RequestContext } from '../../core/context.js';

/** The kinds of things the audit log names (the `entity` filter). */
export const AUDITED_ENTITIES = ['category', 'product', 'product-type', 'media-folder', 'media-file', 'blog-post', 'settings', 'discount', 'sale', 'gift-card', 'membership', 'order', 'e-mail', 'staff', 'api-key', 'webhook'] as const;
export type AuditedEntity = (typeof AUDITED_ENTITIES)[number];

export interface AuditFact {
  entity: AuditedEntity;
  /** The thing's id; null for a write about many (a whole folder's upload) or none. */
  id: string | number | null;
  action: string;
  summary: string;
  /** Who made the change when it is not the caller (someone accepting an invitation becomes a user in it). */
  actor?: { id: number; username: string; role: string };
}

const SUMMARY_MAX = 500;

/** The role the audit log gives the changes an API key makes (its name is the actor's name). */
export const API_KEY_ACTOR_ROLE = 'api-key';

/**
 * Records an admin's or a staff member's write in the audit log, in the caller's transaction: the
 * entry commits with the change or not at all. Refuses (a programming error) outside a
 * transaction, where the entry and the change could part.
 */
export function recordAudit(tx: RequestContext, fact: AuditFact): Promise<void> {
  return recordAuditMany(tx, [fact]);
}

/** Many entries of one caller in the transaction of their change, with one statement (a bulk change: one entry per thing). */
export async function recordAuditMany(tx: RequestContext, facts: readonly AuditFact[]): Promise<void> {
  if (!facts.length) return;
  if (!tx.em.isInTransaction()) {
    const first = `"${facts[0]!.entity} ${facts[0]!.action}"`;
    throw new Error(facts.length === 1 ? `The audit entry of ${first} must be written in the transaction of its change` : `The audit entries of ${first} must be written in the transaction of their change`);
  }
  // Work the shop does on its own (the demo catalogue on a first start) is the system's, not its actor's.
  const viewer = tx.ip === 'system' ? null : await tx.viewer();
  // A key is not a user: its changes are the key's, under its name, with no user's id.
  const caller = viewer?.apiKey ? { id: null, username: viewer.apiKey.name, role: API_KEY_ACTOR_ROLE } : viewer?.user;
  const rows = facts.map((fact) => {
    const user = fact.actor ?? caller;
    return {
      actor_id: user?.id ?? null,
      actor_name: user?.username ?? 'system',
      actor_role: user?.role ?? 'system',
      entity: fact.entity,
      entity_id: fact.id === null ? null : String(fact.id),
      action: fact.action,
      summary: fact.summary.length > SUMMARY_MAX ? `${fact.summary.slice(0, SUMMARY_MAX - 1)}…` : fact.summary,
    };
  });
  await tx.em.execute(
    `insert into "audit_entry" ("at", "actor_id", "actor_name", "actor_role", "entity", "entity_id", "action", "summary")
     select clock_timestamp(), r.actor_id, r.actor_name, r.actor_role, r.entity, r.entity_id, r.action, r.summary
       from jsonb_to_recordset(?::jsonb) as r(actor_id int, actor_name text, actor_role text, entity text, entity_id text, action text, summary text)`,
    [JSON.stringify(rows)],
  );
}

type Value = string | number | boolean | Date | null | undefined;

const shown = (value: Value): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (value instanceof Date) return value.toISOString().slice(0, 16).replace('T', ' ');
  if (typeof value === 'string') return `“${value.length > 60 ? `${value.slice(0, 59)}…` : value}”`;
  return String(value);
};

const same = (a: Value, b: Value) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : (a ?? null) === (b ?? null));

/**
 * What changed between two snapshots, in words: `name “Cards” → “Greeting cards”; price 9.99 → 12.00`,
 * for the fields named in `labels` (field → the word shown). "no changes" when nothing did.
 */
export function describeChanges<T extends Record<string, Value>>(before: T, after: T, labels: { [K in keyof T]?: string }): string {
  const parts: string[] = [];
  for (const [field, label] of Object.entries(labels) as [keyof T, string][]) {
    if (!same(before[field], after[field])) parts.push(`${label} ${shown(before[field])} → ${shown(after[field])}`);
  }
  return parts.length ? parts.join('; ') : 'no changes';
}

/** A name for a summary: `“Birthday Card”`. */
export const named = (value: string): string => shown(value);

/**
 * Runs a write in a transaction and records it there: `work` gets the caller in that transaction, and
 * `fact` says what it did (from its result). The usual way a service audits a write that had no
 * transaction of its own.
 */
export async function audited<T>(ctx: RequestContext, work: (tx: RequestContext) => Promise<T>, fact: (result: T) => AuditFact): Promise<T> {
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const result = await work(tx);
    await recordAudit(tx, fact(result));
    return result;
  });
}
