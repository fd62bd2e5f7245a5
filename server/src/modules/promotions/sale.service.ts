import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { AppError, badInput, notFound } from '../../core/errors.js';
import { parseInput } from '../../core/input.js';
import { idArray } from '../../db/prepared.js';
import { jsonColumn } from '../../db/json-column.js';
import type { ReadCache } from '../../core/read-cache.js';
import { SIGNAL_CHANNEL } from '../../core/change-feed.js';
import { saleFieldsSchema } from '../../rules/schemas.js';
import { describeChanges, named, recordAudit } from '../audit/index.js';
import { parsePrice } from '../catalogue/index.js';
import { refreshSalePrices, salePriceChanges } from './sale-prices.js';
import { RunningSale, Sale, SaleState } from './sale.types.js';

/** The notice every process hears when the sales change: each sets its clock to the next start or end again. */
export const SALES_CHANGED_SIGNAL = 'sales-changed';

interface SaleFields {
  name: string;
  percentOff: number | null;
  amountOff: string | null;
  productIds: number[];
  categoryIds: number[];
  startsAt: Date;
  endsAt: Date;
  banner: string | null;
}

interface SaleRow {
  id: number;
  name: string;
  percent_off: number | null;
  amount_off: string | null;
  starts_at: Date;
  ends_at: Date;
  banner: string | null;
  created_at: Date;
  product_ids: number[];
  products: { id: number; name: string }[] | string;
  category_ids: number[];
  priced: number;
}

const SALE_ROWS = `
  select s.id, s.name, s.percent_off, s.amount_off::text as amount_off, s.starts_at, s.ends_at, s.banner, s.created_at,
         coalesce((select array_agg(product_id order by product_id) from sale_product where sale_id = s.id), '{}') as product_ids,
         coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name) order by p.name, p.id) from sale_product sp join product p on p.id = sp.product_id where sp.sale_id = s.id), '[]') as products,
         coalesce((select array_agg(category_id order by category_id) from sale_category where sale_id = s.id), '{}') as category_ids,
         (select count(*)::int from product where sale_id = s.id) as priced
    from sale s`;

/**
 * Scheduled sales (contract section 17): the admin's list and edits. A write reprices the shop in its
 * own transaction (the products of sales running now get their sale price at once) and tells every
 * process, whose SaleClock then waits for the next start or end.
 */
export class SaleService {
  constructor(
    private readonly clock: () => Date,
    private readonly cache: ReadCache,
  ) {}

  async list(ctx: RequestContext): Promise<Sale[]> {
    const rows = await ctx.em.execute<SaleRow[]>(`${SALE_ROWS} order by s.starts_at desc, s.id desc`);
    const now = this.clock();
    return rows.map((row) => saleOf(row, now));
  }

  async get(ctx: RequestContext, id: number): Promise<Sale> {
    return saleOf(await this.row(ctx.em, id), this.clock());
  }

  /** The sales running now, soonest to end first (the shop's banner is the first one's that has one). */
  async running(em: EntityManager): Promise<RunningSale[]> {
    const now = this.clock();
    const rows = await em.execute<{ name: string; banner: string | null; ends_at: Date | string }[]>(
      `select name, banner, ends_at from sale where starts_at <= ? and ends_at > ? order by ends_at, id`,
      [now, now],
    );
    return rows.map((row) => Object.assign(new RunningSale(), { name: row.name, banner: row.banner, endsAt: new Date(row.ends_at) }));
  }

  /** The banner the announcement bar shows: the first running sale's that has one. */
  async runningBanner(em: EntityManager): Promise<string | null> {
    return (await this.running(em)).find((sale) => sale.banner)?.banner ?? null;
  }

  async create(ctx: RequestContext, raw: Record<string, unknown>): Promise<Sale> {
    const input = cleanSaleInput(raw);
    const id = await this.write(ctx, async (em) => {
      const [row] = await em.execute<{ id: number }[]>(
        `insert into sale (name, percent_off, amount_off, starts_at, ends_at, banner) values (?, ?, ?, ?, ?, ?) returning id`,
        [input.name, input.percentOff, input.amountOff, input.startsAt, input.endsAt, input.banner],
      );
      const id = Number(row!.id);
      await this.writeTargets(em, id, input);
      await recordAudit(withEm(ctx, em), { entity: 'sale', id, action: 'created', summary: `Created ${named(input.name)}: ${describeSale(input)}` });
      return { id, bannerChanged: input.banner !== null };
    });
    return this.get(ctx, id!);
  }

  async update(ctx: RequestContext, id: number, raw: Record<string, unknown>): Promise<Sale> {
    const input = cleanSaleInput(raw);
    await this.write(ctx, async (em) => {
      const before = await this.row(em, id, true);
      await em.execute(
        `update sale set name = ?, percent_off = ?, amount_off = ?, starts_at = ?, ends_at = ?, banner = ?, updated_at = now() where id = ?`,
        [input.name, input.percentOff, input.amountOff, input.startsAt, input.endsAt, input.banner, id],
      );
      await em.execute('delete from sale_product where sale_id = ?', [id]);
      await em.execute('delete from sale_category where sale_id = ?', [id]);
      await this.writeTargets(em, id, input);
      const changes = describeChanges(snapshot(fieldsOf(before)), snapshot(input), { name: 'name', off: 'discount', products: 'products', categories: 'categories', startsAt: 'start', endsAt: 'end', banner: 'banner' });
      await recordAudit(withEm(ctx, em), { entity: 'sale', id, action: 'updated', summary: `${named(input.name)}: ${changes}` });
      // Its banner may come, go or move in time: the bar is redrawn whenever the sale had or has one.
      return { id, bannerChanged: before.banner !== null || input.banner !== null };
    });
    return this.get(ctx, id);
  }

  /** Deletes a sale; its products go back to their price at once. Orders placed during it keep what they paid. */
  async delete(ctx: RequestContext, id: number): Promise<void> {
    await this.write(ctx, async (em) => {
      const [row] = await em.execute<{ name: string; banner: string | null }[]>('delete from sale where id = ? returning name, banner', [id]);
      if (!row) throw notFound('Sale');
      await recordAudit(withEm(ctx, em), { entity: 'sale', id, action: 'deleted', summary: `Deleted ${named(row.name)}` });
      return { id: null, bannerChanged: row.banner !== null };
    });
  }

  /**
   * A sale's write, its repricing of the shop and the notice to the other processes in one
   * transaction; then every process's cache drops what changed before the caller hears back.
   */
  private async write(ctx: RequestContext, work: (em: EntityManager) => Promise<{ id: number | null; bannerChanged: boolean }>): Promise<number | null> {
    const { id, repriced, bannerChanged } = await ctx.em.fork().transactional(async (em) => {
      const { id, bannerChanged } = await work(em);
      const repriced = await refreshSalePrices(em, this.clock);
      await em.execute(`select pg_notify('${SIGNAL_CHANNEL}', '${SALES_CHANGED_SIGNAL}')`);
      return { id, repriced, bannerChanged };
    });
    await this.cache.changed(salePriceChanges(repriced, bannerChanged));
    ctx.log.info({ saleId: id, repriced: repriced.length }, 'sale written');
    return id;
  }

  /** The sale's products and categories; each must exist (400 naming the first that does not). */
  private async writeTargets(em: EntityManager, id: number, input: SaleFields): Promise<void> {
    const missing = async (table: 'product' | 'category', ids: number[]) => {
      if (!ids.length) return null;
      const [row] = await em.execute<{ id: number | null }[]>(`select min(x) as id from unnest(?::int[]) x where not exists (select 1 from ${table} where id = x)`, [idArray(ids)]);
      return row?.id ?? null;
    };
    const product = await missing('product', input.productIds);
    if (product !== null) throw badInput(`There is no product ${product}.`, 'productIds');
    const category = await missing('category', input.categoryIds);
    if (category !== null) throw badInput(`There is no category ${category}.`, 'categoryIds');
    if (input.productIds.length) await em.execute('insert into sale_product (sale_id, product_id) select ?, x from unnest(?::int[]) x', [id, idArray(input.productIds)]);
    if (input.categoryIds.length) await em.execute('insert into sale_category (sale_id, category_id) select ?, x from unnest(?::int[]) x', [id, idArray(input.categoryIds)]);
  }

  private async row(em: EntityManager, id: number, lock = false): Promise<SaleRow> {
    if (lock) await em.execute('select 1 from sale where id = ? for update', [id]);
    const [row] = await em.execute<SaleRow[]>(`${SALE_ROWS} where s.id = ?`, [id]);
    if (!row) throw notFound('Sale');
    return row;
  }
}

/** The fields of a sale as given: checked, the amount off read as a price, the ids without repeats. */
export function cleanSaleInput(raw: Record<string, unknown>): SaleFields {
  const input = parseInput(saleFieldsSchema, raw);
  const hasPercent = typeof input.percentOff === 'number';
  return {
    name: input.name,
    percentOff: hasPercent ? (input.percentOff as number) : null,
    amountOff: hasPercent ? null : amountOff(input.amountOff),
    productIds: [...new Set(input.productIds)],
    categoryIds: [...new Set(input.categoryIds)],
    startsAt: input.startsAt!,
    endsAt: input.endsAt!,
    banner: input.banner || null,
  };
}

/** An amount off, read by the price rule and said as what it is ("The amount off must have at most two decimals."). */
function amountOff(value: unknown): string {
  try {
    return parsePrice(value, 'amountOff');
  } catch (error) {
    if (error instanceof AppError) throw badInput(error.message.replace(/^The price\b/, 'The amount off'), 'amountOff');
    throw error;
  }
}

function saleOf(row: SaleRow, now: Date): Sale {
  const startsAt = new Date(row.starts_at);
  const endsAt = new Date(row.ends_at);
  return Object.assign(new Sale(), {
    id: Number(row.id),
    name: row.name,
    percentOff: row.percent_off === null ? null : Number(row.percent_off),
    amountOff: row.amount_off,
    productIds: row.product_ids.map(Number),
    products: jsonColumn(row.products),
    categoryIds: row.category_ids.map(Number),
    startsAt,
    endsAt,
    banner: row.banner,
    state: now < startsAt ? SaleState.SCHEDULED : now < endsAt ? SaleState.RUNNING : SaleState.ENDED,
    pricedProducts: Number(row.priced),
    createdAt: new Date(row.created_at),
  });
}

const fieldsOf = (row: SaleRow): SaleFields => ({
  name: row.name,
  percentOff: row.percent_off,
  amountOff: row.amount_off,
  productIds: row.product_ids.map(Number),
  categoryIds: row.category_ids.map(Number),
  startsAt: new Date(row.starts_at),
  endsAt: new Date(row.ends_at),
  banner: row.banner,
});

/** "20% off" or "$5.00 off". */
const offOf = (sale: Pick<SaleFields, 'percentOff' | 'amountOff'>) => (sale.percentOff !== null ? `${sale.percentOff}% off` : `$${sale.amountOff} off`);

const describeSale = (sale: SaleFields) =>
  `${offOf(sale)} ${[sale.productIds.length ? `${sale.productIds.length} product(s)` : '', sale.categoryIds.length ? `categories ${sale.categoryIds.map((id) => `#${id}`).join(', ')}` : ''].filter(Boolean).join(' and ')}, ${sale.startsAt.toISOString()} – ${sale.endsAt.toISOString()}`;

/** What the audit log compares of a sale. */
const snapshot = (sale: SaleFields) => ({
  name: sale.name,
  off: offOf(sale),
  products: sale.productIds.join(', ') || 'none',
  categories: sale.categoryIds.join(', ') || 'none',
  startsAt: sale.startsAt,
  endsAt: sale.endsAt,
  banner: sale.banner ?? 'none',
});
