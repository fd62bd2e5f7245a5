import type { RequestContext } from '../../core/context.js';
import { csvNumber, type CsvRecord } from '../../core/csv.js';
import { escapeLike, searchWords } from '../../core/text-search.js';
import { orderNumber } from '../../rules/index.js';

/** The header of the orders export (contract section 9). */
export const ORDERS_CSV_COLUMNS = ['order_id', 'order_number', 'created_at', 'customer', 'status', 'total', 'discount_code', 'items', 'refund_reason'] as const;

/** A row of the export, for core/csv.ts's writer (which writes every text cell as text). */
export type OrdersCsvRow = CsvRecord<(typeof ORDERS_CSV_COLUMNS)[number]>;

const BATCH = 2000;
/** As many words as the admin search reads. */
const SEARCH_WORDS = 6;

interface ExportRow {
  id: string;
  created_at: Date;
  /** created_at exactly (microseconds), for the next page's keyset. */
  created_key: string;
  purchaser_email: string;
  status: string;
  total: string;
  discount_code: string | null;
  refund_reason: string | null;
  items: string | null;
}

/**
 * The orders of an admin search (the same words as the Orders screen's), newest first, as CSV rows in
 * batches. `total` is what the shop kept of the order (what was charged less what was refunded, so
 * the column adds up to the revenue), and a refunded line says so in `items`. Each batch is one SQL statement: a keyset page over the (created_at, id) index with the
 * items aggregated per order through the (order_id, position) index, so memory stays flat, the first
 * rows go out at once, and no entity is built for a row.
 */
export async function* ordersCsvRows(ctx: RequestContext, search: string | null | undefined): AsyncGenerator<OrdersCsvRow[]> {
  const words = searchWords(search, SEARCH_WORDS);
  const wordSql = words.map(() => ` and o.search_text like ?`).join('');
  const wordParams = words.map((word) => `%${escapeLike(word)}%`);
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const rows: ExportRow[] = await ctx.em.execute<ExportRow[]>(
      `select o.id, o.created_at, o.created_at::text as created_key, o.purchaser_email, o.status, (o.total - o.refunded_amount)::text as total, o.discount_code, o.refund_reason,
              (select string_agg(i.name || ' x' || i.quantity || case when i.refunded_at is not null then ' (refunded)' else '' end, '; ' order by i.position)
                 from order_item i where i.order_id = o.id) as items
         from "order" o
        where o.status <> 'pending'${wordSql}${after ? ' and (o.created_at, o.id) < (?::timestamptz, ?::uuid)' : ''}
        order by o.created_at desc, o.id desc
        limit ${BATCH}`,
      [...wordParams, ...(after ? [after.createdAt, after.id] : [])],
    );
    if (!rows.length) return;
    yield rows.map((row) => ({
      order_id: row.id,
      order_number: orderNumber(row.id),
      created_at: new Date(row.created_at).toISOString(),
      customer: row.purchaser_email,
      status: row.status,
      total: csvNumber(row.total),
      discount_code: row.discount_code ?? '',
      items: row.items ?? '',
      refund_reason: row.refund_reason ?? '',
    }));
    if (rows.length < BATCH) return;
    const last = rows.at(-1)!;
    after = { createdAt: last.created_key, id: last.id };
  }
}
