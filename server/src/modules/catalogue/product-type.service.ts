import { Changes, type ReadCache } from '../../core/read-cache.js';
import { ForeignKeyConstraintViolationException } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import type { RequestContext } from '../../core/context.js';
import { audited, named } from '../audit/index.js';
import { conflict, notFound } from '../../core/errors.js';
import { cleanName } from '../../core/input.js';
import { BUILT_IN_PRODUCT_TYPES, ProductType } from './product-type.entity.js';
import { isGiftCardType, isGiftMembershipType } from '../../rules/index.js';

/** The types known by their names (gift cards, gift memberships): they keep them. */
const knownByName = (name: string) => isGiftCardType(name) || isGiftMembershipType(name);

const BUILT_IN_IDS = new Set<number>(BUILT_IN_PRODUCT_TYPES.map((t) => t.id));

/** Product types: the three built-in ones and any an admin adds. Names are unique whatever their case. */
export class ProductTypeService {
  /** `productsOfType` counts the products of a type (the product module's), so that a type in use is kept. */
  constructor(
    private readonly productsOfType: (ctx: RequestContext, typeId: number) => Promise<number>,
    private readonly cache: ReadCache,
  ) {}

  list(ctx: RequestContext): Promise<ProductType[]> {
    return ctx.em.find(ProductType, {}, { orderBy: { id: 'asc' } });
  }

  /** The first product offered of the type named so (any case); null for none (gift memberships are sold through one). */
  async firstOfTypeNamed(ctx: RequestContext, typeName: string): Promise<number | null> {
    const [row] = await ctx.em.execute<{ id: number }[]>(
      `select p.id from product p join product_type t on t.id = p.product_type_id where lower(t.name) = lower(?) and p.status = 'active' order by p.id limit 1`,
      [typeName],
    );
    return row ? Number(row.id) : null;
  }

  async get(ctx: RequestContext, id: number): Promise<ProductType> {
    const type = await ctx.em.findOne(ProductType, id);
    if (!type) throw notFound('Product type');
    return type;
  }

  async create(ctx: RequestContext, input: { name?: unknown }): Promise<ProductType> {
    const name = cleanName(input.name, 'name', 100);
    await this.assertNameFree(ctx, name, null);
    const type = await audited(
      ctx,
      async (tx) => {
        const type = tx.em.create(ProductType, { name });
        await this.flush(tx);
        return type;
      },
      (type) => ({ entity: 'product-type', id: type.id, action: 'created', summary: `Created ${named(name)}` }),
    );
    await this.cache.changed(Changes.productType());
    return type;
  }

  async update(ctx: RequestContext, id: number, input: { name?: unknown }): Promise<ProductType> {
    const type = await this.get(ctx, id);
    const name = cleanName(input.name, 'name', 100);
    await this.assertNameFree(ctx, name, id);
    // Gift cards and gift memberships are known by their type's name: it stays as it is.
    if (knownByName(type.name) && name !== type.name) throw conflict(`"${type.name}" is built in and cannot be renamed.`, 'name');
    const before = type.name;
    await audited(
      ctx,
      async (tx) => {
        type.name = name;
        await this.flush(tx);
      },
      () => ({ entity: 'product-type', id, action: 'updated', summary: `Renamed ${named(before)} to ${named(name)}` }),
    );
    await this.cache.changed(Changes.productType());
    return type;
  }

  async delete(ctx: RequestContext, id: number): Promise<void> {
    const type = await this.get(ctx, id);
    if (BUILT_IN_IDS.has(id) || knownByName(type.name)) throw conflict(`"${type.name}" is built in and cannot be deleted.`);
    const used = await this.productsOfType(ctx, id);
    if (used) throw conflict(`"${type.name}" is used by ${used} product${used === 1 ? '' : 's'}; it cannot be deleted.`);
    try {
      await audited(ctx, (tx) => tx.em.nativeDelete(ProductType, { id }), () => ({ entity: 'product-type', id, action: 'deleted', summary: `Deleted ${named(type.name)}` }));
    } catch (error) {
      // A product of this type was saved between the count and the delete.
      if (error instanceof ForeignKeyConstraintViolationException) throw conflict(`"${type.name}" is used by products; it cannot be deleted.`);
      throw error;
    }
    await this.cache.changed(Changes.productType());
  }

  private async assertNameFree(ctx: RequestContext, name: string, exceptId: number | null): Promise<void> {
    const clash = await ctx.em.getConnection().execute<{ id: number }[]>(
      'select id from product_type where lower(name) = lower(?) and id <> ? limit 1',
      [name, exceptId ?? 0],
    );
    if (clash.length) throw conflict(`A product type named "${name}" already exists.`, 'name');
  }

  private async flush(ctx: RequestContext): Promise<void> {
    await conflictOnUnique(() => ctx.em.flush(), () => conflict('A product type with that name already exists.', 'name'));
  }
}
