import type { RequestContext } from '../../core/context.js';
import { withEm } from '../../core/context.js';
import { badInput } from '../../core/errors.js';
import { Changes, type ReadCache } from '../../core/read-cache.js';
import { describeChanges, named, recordAuditMany, type AuditFact } from '../audit/index.js';
import { ProductStatus } from './product.entity.js';
import { rememberBulkChange } from './product-bulk-undo.js';
import { emitProducts } from './product-events.js';
import type { WebhookEvents } from '../webhooks/index.js';
import { cleanTags, parsePrice } from './product-rules.js';

/** The most products one bulk action changes (contract section 16). */
export const MAX_BULK_PRODUCTS = 1000;

export const BULK_ACTIONS = ['publish', 'archive', 'move', 'price', 'add_tag', 'remove_tag', 'delete'] as const;
export type BulkActionType = (typeof BULK_ACTIONS)[number];

/** A bulk action as a client sends it (REST's snake_case already mapped to these names). */
export interface BulkActionInput {
  type?: unknown;
  categoryId?: unknown;
  price?: unknown;
  percent?: unknown;
  tag?: unknown;
}

type BulkAction =
  | { type: 'publish' | 'archive' | 'delete' }
  | { type: 'move'; categoryId: number }
  | { type: 'price'; price: string | null; percent: number | null }
  | { type: 'add_tag' | 'remove_tag'; tag: string };

/** A product as a bulk action reads and writes it. */
export interface BulkRow {
  id: number;
  name: string;
  description: string;
  price: string;
  compare_at_price: string | null;
  status: ProductStatus;
  category_id: number;
  tags: string[];
}

const LABELS = { status: 'status', category: 'category', price: 'price', tags: 'tags' } as const;
const snapshot = (row: BulkRow) => ({ status: row.status, category: `#${row.category_id}`, price: row.price, tags: row.tags.join(', ') });

/**
 * Changes many products at once (contract section 16): publish, archive, move, set or change the
 * price, add or remove a tag, delete. All or nothing in one transaction: every id must name a
 * product (else 400 on `ids`, nothing changed), every product's new state must be valid (a price
 * above zero and below its compare-at price), and each product gets its audit entry.
 */
export async function bulkUpdateProducts(ctx: RequestContext, cache: ReadCache, webhooks: WebhookEvents, idsInput: unknown, actionInput: BulkActionInput): Promise<{ updated: number; undoId: string | null }> {
  const ids = cleanIds(idsInput);
  const action = cleanAction(actionInput);
  const touchedCategories = new Set<number>();
  const { updated, undoId } = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    // Locked in id order: two bulk actions over the same products wait for each other, never deadlock.
    const rows = await em.execute<BulkRow[]>(
      `select id, name, description, price::text as price, compare_at_price::text as compare_at_price, status, category_id, tags from product where id = any(?::int[]) order by id for update`,
      [`{${ids.join(',')}}`],
    );
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((row) => row.id));
      throw badInput(`No product has the id ${ids.filter((id) => !found.has(id)).join(', ')}; nothing was changed.`, 'ids');
    }
    for (const row of rows) touchedCategories.add(row.category_id);
    if (action.type === 'delete') {
      await emitProducts(webhooks, em, 'product.deleted', ids);
      await em.execute(`delete from product where id = any(?::int[])`, [`{${ids.join(',')}}`]);
      await recordAuditMany(tx, rows.map((row): AuditFact => ({ entity: 'product', id: row.id, action: 'deleted', summary: `Deleted ${named(row.name)} (bulk)` })));
      return { updated: rows.length, undoId: null };
    }
    if (action.type === 'move') {
      const [category] = await em.execute<{ id: number }[]>(`select id from category where id = ?`, [action.categoryId]);
      if (!category) throw badInput('Choose a category that exists.', 'action.categoryId');
      touchedCategories.add(action.categoryId);
    }
    const after = rows.map((row) => changed(row, action));
    await em.execute(
      `update product p set status = r.status, category_id = r.category_id, price = r.price, tags = r.tags,
              search_text = lower(concat_ws(' ', p.name, p.description, array_to_string(r.tags, ' '))), updated_at = now()
         from jsonb_to_recordset(?::jsonb) as r(id int, status text, category_id int, price numeric(12,2), tags text[])
        where p.id = r.id`,
      [JSON.stringify(after.map((row) => ({ id: row.id, status: row.status, category_id: row.category_id, price: row.price, tags: row.tags })))],
    );
    await recordAuditMany(
      tx,
      rows.map((row, i): AuditFact => ({ entity: 'product', id: row.id, action: 'updated', summary: `${named(row.name)} (bulk): ${describeChanges(snapshot(row), snapshot(after[i]!), LABELS)}` })),
    );
    await emitProducts(webhooks, em, 'product.updated', ids);
    return { updated: rows.length, undoId: await rememberBulkChange(em, action.type, rows, after) };
  });
  await cache.changed([...new Set(ids.flatMap((id) => Changes.product(id, [...touchedCategories])))]);
  ctx.log.info({ action: action.type, products: updated }, 'products changed in bulk');
  return { updated, undoId };
}

/** A product's state after the action; refuses a price that would not be above zero and below its compare-at price. */
function changed(row: BulkRow, action: Exclude<BulkAction, { type: 'delete' }>): BulkRow {
  switch (action.type) {
    case 'publish':
      return { ...row, status: ProductStatus.ACTIVE };
    case 'archive':
      return { ...row, status: ProductStatus.ARCHIVED };
    case 'move':
      return { ...row, category_id: action.categoryId };
    case 'add_tag':
      return row.tags.some((tag) => tag.toLowerCase() === action.tag.toLowerCase()) ? row : { ...row, tags: [...row.tags, action.tag] };
    case 'remove_tag':
      return { ...row, tags: row.tags.filter((tag) => tag.toLowerCase() !== action.tag.toLowerCase()) };
    case 'price': {
      const cents = action.price !== null ? toCents(action.price) : Math.round((toCents(row.price) * (100 + action.percent!)) / 100);
      const field = action.price !== null ? 'action.price' : 'action.percent';
      if (cents <= 0) throw badInput(`The new price of ${named(row.name)} would not be above zero; nothing was changed.`, field);
      if (row.compare_at_price !== null && cents >= toCents(row.compare_at_price)) {
        throw badInput(`The new price of ${named(row.name)} would not be below its compare-at price (${row.compare_at_price}); nothing was changed.`, field);
      }
      return { ...row, price: (cents / 100).toFixed(2) };
    }
  }
  throw new Error(`Unknown bulk action ${(action as { type: string }).type}`);
}

const toCents = (price: string): number => Math.round(Number(price) * 100);

function cleanIds(value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0) throw badInput('Choose at least one product.', 'ids');
  if (value.some((id) => !Number.isSafeInteger(id) || (id as number) <= 0 || (id as number) > 2_147_483_647)) throw badInput('Product ids are positive whole numbers.', 'ids');
  const ids = [...new Set(value as number[])].sort((a, b) => a - b);
  if (ids.length > MAX_BULK_PRODUCTS) throw badInput(`At most ${MAX_BULK_PRODUCTS} products at once.`, 'ids');
  return ids;
}

function cleanAction(input: BulkActionInput): BulkAction {
  const type = typeof input.type === 'string' ? input.type.toLowerCase() : '';
  if (!(BULK_ACTIONS as readonly string[]).includes(type)) throw badInput(`The action must be one of ${BULK_ACTIONS.join(', ')}.`, 'action.type');
  switch (type as BulkActionType) {
    case 'move': {
      const id = input.categoryId;
      if (!Number.isSafeInteger(id) || (id as number) <= 0) throw badInput('Choose a category.', 'action.categoryId');
      return { type: 'move', categoryId: id as number };
    }
    case 'price': {
      const hasPrice = input.price !== undefined && input.price !== null;
      const hasPercent = input.percent !== undefined && input.percent !== null;
      if (hasPrice === hasPercent) throw badInput('Give a new price or a percentage to change the price by, not both.', 'action.price');
      if (hasPrice) return { type: 'price', price: parsePrice(input.price, 'action.price'), percent: null };
      const percent = typeof input.percent === 'string' ? Number(input.percent) : input.percent;
      if (typeof percent !== 'number' || !Number.isFinite(percent) || percent === 0 || percent <= -100 || percent > 1000) {
        throw badInput('The percentage is a number above -100 and at most 1000, not 0.', 'action.percent');
      }
      return { type: 'price', price: null, percent };
    }
    case 'add_tag':
    case 'remove_tag': {
      const [tag] = cleanTags([input.tag], 'action.tag');
      if (!tag) throw badInput('Give the tag.', 'action.tag');
      return { type: type as 'add_tag' | 'remove_tag', tag };
    }
    default:
      return { type: type as 'publish' | 'archive' | 'delete' };
  }
}
