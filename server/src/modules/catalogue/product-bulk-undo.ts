import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { withEm } from '../../core/context.js';
import { conflict, notFound } from '../../core/errors.js';
import { Changes, type ReadCache } from '../../core/read-cache.js';
import { describeChanges, named, recordAuditMany, type AuditFact } from '../audit/index.js';
import type { BulkActionType, BulkRow } from './product-bulk.js';
import { emitProducts } from './product-events.js';
import type { WebhookEvents } from '../webhooks/index.js';

/** How long a bulk action can be undone after it was made. */
export const UNDO_HOURS = 24;

/** The one field each undoable action changes; tags and deletes are not undone. */
const FIELD = { publish: 'status', archive: 'status', move: 'category_id', price: 'price' } as const satisfies Partial<Record<BulkActionType, keyof BulkRow>>;
type UndoableAction = keyof typeof FIELD;
type Field = (typeof FIELD)[UndoableAction];

/** What the action did to one product: its field before and after. */
interface ChangedProduct {
  id: number;
  before: string | number;
  after: string | number;
}

const LABELS = { status: 'status', category_id: 'category', price: 'price' } as const;

const isUndoable = (type: BulkActionType): type is UndoableAction => type in FIELD;

/**
 * Keeps what an undoable action changed (in the action's transaction) and answers the id "Undo"
 * names; null when the action cannot be undone or changed nothing. Changes older than a day are
 * forgotten on the way, so the table holds one day of bulk actions at most.
 */
export async function rememberBulkChange(em: EntityManager, type: BulkActionType, before: BulkRow[], after: BulkRow[]): Promise<string | null> {
  if (!isUndoable(type)) return null;
  const field = FIELD[type];
  const products: ChangedProduct[] = before.flatMap((row, i) => (row[field] === after[i]![field] ? [] : [{ id: row.id, before: row[field], after: after[i]![field] }]));
  if (products.length === 0) return null;
  const id = crypto.randomUUID();
  await em.execute(`delete from product_bulk_change where created_at < now() - interval '${UNDO_HOURS} hours'`);
  await em.execute(`insert into product_bulk_change (id, action, products) values (?, ?, ?::jsonb)`, [id, type, JSON.stringify(products)]);
  return id;
}

interface CurrentRow {
  id: number;
  name: string;
  status: string;
  category_id: number;
  price: string;
  compare_at_price: string | null;
}

/**
 * Undoes a bulk action (contract section 16): each product gets its field back, unless it was
 * changed again since (its field no longer holds what the action wrote), was deleted, or cannot take
 * the old value any more (its old category is gone, or the old price is not below a compare-at price
 * set since). Those are kept as they are and counted as skipped. All in one transaction, each
 * restored product audited; a change is undone once (409 after), for a day (409 after), and an
 * unknown id is 404.
 */
export async function undoBulkChange(ctx: RequestContext, cache: ReadCache, webhooks: WebhookEvents, changeId: unknown): Promise<{ restored: number; skipped: number }> {
  if (typeof changeId !== 'string' || !/^[0-9a-f-]{36}$/i.test(changeId)) throw notFound('Bulk change');
  const categories = new Set<number>();
  const result = await ctx.em.transactional(async (em) => {
    // The change's row is locked first: two clicks on "Undo" undo it once.
    const [change] = await em.execute<{ action: UndoableAction; products: ChangedProduct[]; undone: boolean; fresh: boolean }[]>(
      `select action, products, undone_at is not null as undone, created_at > now() - interval '${UNDO_HOURS} hours' as fresh
         from product_bulk_change where id = ? for update`,
      [changeId],
    );
    if (!change) throw notFound('Bulk change');
    if (change.undone) throw conflict('This change was undone already.');
    if (!change.fresh) throw conflict(`A bulk change can be undone for ${UNDO_HOURS} hours; this one is older.`);
    const field = FIELD[change.action];
    const ids = `{${change.products.map((p) => p.id).join(',')}}`;
    // Locked in id order, as the bulk action locks them.
    const rows = await em.execute<CurrentRow[]>(
      `select id, name, status, category_id, price::text as price, compare_at_price::text as compare_at_price from product where id = any(?::int[]) order by id for update`,
      [ids],
    );
    const liveCategories = field === 'category_id' ? await existingCategories(em, change.products) : null;
    const byId = new Map(rows.map((row) => [row.id, row]));
    const restore = change.products.flatMap((item) => {
      const row = byId.get(item.id);
      if (!row || String(row[field]) !== String(item.after) || !canTake(row, field, item.before, liveCategories)) return [];
      return [{ row, back: { ...row, [field]: item.before } as CurrentRow }];
    });
    if (restore.length) {
      await em.execute(
        `update product p set ${SET[field]}, updated_at = now() from jsonb_to_recordset(?::jsonb) as r(id int, value text) where p.id = r.id`,
        [JSON.stringify(restore.map(({ back }) => ({ id: back.id, value: String(back[field]) })))],
      );
      await recordAuditMany(
        withEm(ctx, em),
        restore.map(({ row, back }): AuditFact => ({ entity: 'product', id: row.id, action: 'updated', summary: `${named(row.name)} (undo of a bulk change): ${describeChanges(shown(row), shown(back), LABELS)}` })),
      );
      await emitProducts(webhooks, em, 'product.updated', restore.map(({ row }) => row.id));
    }
    await em.execute(`update product_bulk_change set undone_at = now() where id = ?`, [changeId]);
    for (const { row, back } of restore) categories.add(row.category_id).add(back.category_id);
    return { restored: restore.length, skipped: change.products.length - restore.length, ids: restore.map(({ row }) => row.id) };
  });
  if (result.ids.length) await cache.changed([...new Set(result.ids.flatMap((id) => Changes.product(id, [...categories])))]);
  ctx.log.info({ restored: result.restored, skipped: result.skipped }, 'bulk change undone');
  return { restored: result.restored, skipped: result.skipped };
}

const SET: Record<Field, string> = {
  status: 'status = r.value',
  category_id: 'category_id = r.value::int',
  price: 'price = r.value::numeric(12,2)',
};

const shown = (row: CurrentRow) => ({ status: row.status, category_id: `#${row.category_id}`, price: row.price });

/** Whether the product can hold its old value again. */
function canTake(row: CurrentRow, field: Field, value: string | number, liveCategories: Set<number> | null): boolean {
  if (field === 'category_id') return liveCategories!.has(Number(value));
  if (field === 'price' && row.compare_at_price !== null) return Number(value) < Number(row.compare_at_price);
  return true;
}

async function existingCategories(em: EntityManager, products: ChangedProduct[]): Promise<Set<number>> {
  const wanted = [...new Set(products.map((p) => Number(p.before)))];
  const rows = await em.execute<{ id: number }[]>(`select id from category where id = any(?::int[])`, [`{${wanted.join(',')}}`]);
  return new Set(rows.map((row) => row.id));
}
