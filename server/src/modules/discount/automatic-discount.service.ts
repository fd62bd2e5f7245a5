import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { CacheKeys, type ReadCache } from '../../core/read-cache.js';
import { notFound } from '../../core/errors.js';
import { named, recordAudit } from '../audit/index.js';
import { AutomaticDiscount } from './automatic-discount.entity.js';
import type { AutomaticTerms } from './discount-pricing.js';
import { cleanAutomaticInput } from './discount-rules.js';

interface Row {
  name: string;
  min_cards: number | null;
  percent_off: number | null;
  min_subtotal: string | null;
  amount_off: string | null;
  starts_at: Date | null;
  ends_at: Date | null;
}

/**
 * Automatic discounts: the admin's list, creating and deleting them (each audited as a discount), and
 * the ones that apply at a moment. Every quote and checkout asks for them: the few rows are kept in
 * the shop's read cache (whatever their start and end, chosen by the moment asked) and a write empties
 * it in every process, so that a checkout reads no more of the database for them.
 */
export class AutomaticDiscountService {
  constructor(
    private readonly clock: () => Date,
    private readonly cache: ReadCache,
  ) {}

  list(ctx: RequestContext): Promise<AutomaticDiscount[]> {
    return ctx.em.find(AutomaticDiscount, {}, { orderBy: { name: 'asc', id: 'asc' } });
  }

  async create(ctx: RequestContext, raw: Record<string, unknown>): Promise<AutomaticDiscount> {
    const input = cleanAutomaticInput(raw);
    const discount = await ctx.em.fork().transactional(async (em) => {
      const discount = em.create(AutomaticDiscount, input);
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'discount', id: `automatic-${discount.id}`, action: 'created', summary: `Created automatic discount ${named(discount.name)}: ${termsOf(discount)}` });
      return discount;
    });
    await this.cache.changed([CacheKeys.automaticDiscounts]);
    ctx.log.info({ automaticDiscountId: discount.id }, 'automatic discount created');
    return discount;
  }

  async delete(ctx: RequestContext, id: number): Promise<void> {
    await ctx.em.fork().transactional(async (em) => {
      const [row] = await em.execute<{ name: string }[]>('delete from "automatic_discount" where "id" = ? returning "name"', [id]);
      if (!row) throw notFound('Automatic discount');
      await recordAudit(withEm(ctx, em), { entity: 'discount', id: `automatic-${id}`, action: 'deleted', summary: `Deleted automatic discount ${named(row.name)}` });
    });
    await this.cache.changed([CacheKeys.automaticDiscounts]);
    ctx.log.info({ automaticDiscountId: id }, 'automatic discount deleted');
  }

  /** The automatic discounts that apply at `at` (now by default). */
  async running(em: EntityManager, at: Date = this.clock()): Promise<AutomaticTerms[]> {
    const rows = await this.cache.read(CacheKeys.automaticDiscounts, () =>
      em.execute<Row[]>(`select "name", "min_cards", "percent_off", "min_subtotal"::text as "min_subtotal", "amount_off"::text as "amount_off", "starts_at", "ends_at" from "automatic_discount" order by "id"`),
    );
    return rows
      .filter((row) => (!row.starts_at || new Date(row.starts_at) <= at) && (!row.ends_at || new Date(row.ends_at) > at))
      .map((row) => ({ name: row.name, minCards: row.min_cards, percentOff: row.percent_off, minSubtotal: row.min_subtotal, amountOff: row.amount_off }));
  }
}

/** "3 or more cards: 15% off the cards" or "orders from $50.00: $5.00 off". */
const termsOf = (d: AutomaticDiscount) => (d.minCards !== null ? `${d.minCards} or more cards: ${d.percentOff}% off the cards` : `orders from $${d.minSubtotal}: $${d.amountOff} off`);
