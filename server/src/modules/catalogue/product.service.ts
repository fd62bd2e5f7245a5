import { ForeignKeyConstraintViolationException, LockMode, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import { withEm, type RequestContext } from '../../core/context.js';
import { audited, describeChanges, named, recordAudit, type AuditFact } from '../audit/audit.js';
import { AppError, badInput, conflict, notFound } from '../../core/errors.js';
import { groupBy, loadRef } from '../../core/loaders.js';
import { subtreeIds } from '../../core/tree.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { MediaFile } from '../media/media-file.entity.js';
import type { MediaUsageProvider } from '../media/media-usages.js';
import { cleanName, optionalId } from '../../core/input.js';
import { Category } from './category.entity.js';
import { CARD_MEDIA_SLOTS, EGreetingCard, findCardsWithMedia } from './e-greeting-card.entity.js';
import { Product, ProductImage } from './product.entity.js';
import { applyProductReferences, CARD_FIELD, productMediaUsages, slotField, type CleanCard } from './product-references.js';
import { E_GREETING_CARD_TYPE_ID, ProductType } from './product-type.entity.js';
import {
  MAX_ASSOCIATED_IMAGES,
  cleanDescription,
  cleanFontName,
  cleanSku,
  cleanTags,
  idList,
  parseMessageLocation,
  parsePrice,
} from './product-rules.js';
import { containsEveryWord } from '../../core/text-search.js';
import { CacheKeys, Changes, jsonAnswer, type CachedAnswer, type ReadCache } from '../../core/read-cache.js';
import { categoryProductsJson, productDetailJson } from './catalogue-reads.js';
import { loadStorefrontProducts, type StorefrontProduct } from './storefront-product.js';

/** A product as a client sends it; on update a key left out (undefined) keeps its value, null clears it. */
export interface ProductInput {
  name?: unknown;
  description?: unknown;
  sku?: unknown;
  price?: unknown;
  categoryId?: unknown;
  productTypeId?: unknown;
  mainImageId?: unknown;
  tags?: unknown;
  associatedImageIds?: unknown;
  /** Only for e-greeting cards (type 1). */
  eGreetingCard?: unknown;
}

export interface ProductPageArgs {
  first?: number | null;
  after?: string | null;
}

export interface ProductSearchArgs extends ProductPageArgs {
  query?: string | null;
  categoryId?: number | null;
  productTypeId?: number | null;
}

/** A product with everything its detail page shows. */
export interface ProductDetail {
  product: Product;
  associatedImages: MediaFile[];
  card: EGreetingCard | null;
}

const POPULATE = ['mainImage', 'type'] as const;
const SEARCH_WORDS = 8;

/**
 * The products of the shop. A product is saved with its tags, associated images and card data in
 * one transaction; lists are keyset pages sorted by name, read in a fixed number of queries.
 */
export class ProductService {
  constructor(private readonly cache: ReadCache) {}

  // ---- storefront answers (one query each, through the read cache) ----

  /** The REST detail of a product (`GET /api/products/{id}`). */
  async detailAnswer(ctx: RequestContext, id: number): Promise<CachedAnswer> {
    const answer = await this.cache.read(CacheKeys.product(id), async () => {
      const json = await productDetailJson(ctx.em, id);
      return json === null ? null : jsonAnswer(json);
    });
    if (!answer) throw notFound('Product');
    return answer;
  }

  /** Every product of a category by name (`GET /api/products/category/{id}`). */
  async categoryListAnswer(ctx: RequestContext, categoryId: number): Promise<CachedAnswer> {
    const answer = await this.cache.read(CacheKeys.categoryList(categoryId), async () => {
      const json = await categoryProductsJson(ctx.em, categoryId);
      return json === null ? null : jsonAnswer(json);
    });
    if (!answer) throw notFound('Category');
    return answer;
  }

  // ---- reads ----

  async get(ctx: RequestContext, id: number): Promise<Product> {
    const product = await ctx.em.findOne(Product, id, { populate: POPULATE });
    if (!product) throw notFound('Product');
    return product;
  }

  /**
   * A product as the storefront shows it (GraphQL `product(id)`, the product page): the product with
   * its type, images, card data and category name in one query (batched across a request), its
   * field resolvers then answered from it without another query.
   */
  async storefront(ctx: RequestContext, id: number): Promise<StorefrontProduct> {
    const loader = ctx.loader<number, StorefrontProduct>('product.storefront', async (ids) => {
      const found = await loadStorefrontProducts(ctx.em, ids);
      for (const [productId, read] of found) {
        this.imagesLoader(ctx).prime(productId, read.images);
        if (read.card) this.cardLoader(ctx).prime(productId, read.card);
      }
      return found;
    });
    const read = await loader.load(id);
    if (!read) throw notFound('Product');
    return read;
  }

  /** The product with its associated images and card data (the REST detail shape). */
  async detail(ctx: RequestContext, id: number): Promise<ProductDetail> {
    const product = await this.get(ctx, id);
    const [associatedImages, card] = await Promise.all([this.associatedImagesOf(ctx, product), this.cardOf(ctx, product)]);
    return { product, associatedImages, card };
  }

  /** A page of a category's products, by name. */
  async byCategory(ctx: RequestContext, categoryId: number, args: ProductPageArgs): Promise<ConnectionResult<Product>> {
    await this.requireCategory(ctx.em, categoryId);
    return this.page(ctx, { category: categoryId }, args);
  }

  /** Products whose name, description or tags hold every word of the query (in a category and the ones below it), by name. */
  async search(ctx: RequestContext, args: ProductSearchArgs): Promise<ConnectionResult<Product>> {
    const where: FilterQuery<Product>[] = containsEveryWord(args.query, SEARCH_WORDS);
    if (args.categoryId != null) where.push({ category: { $in: await subtreeIds(ctx.em, 'category', args.categoryId) } });
    if (args.productTypeId != null) where.push({ type: args.productTypeId });
    return this.page(ctx, where.length ? { $and: where } : {}, args);
  }

  /** The type of a product (as read with it, or batched across the products of a request). */
  async typeOf(ctx: RequestContext, product: Product): Promise<ProductType> {
    return (await loadRef(ctx, ProductType, product.type))!;
  }

  /** The main image of a product, if any (as read with it, or batched across the products of a request). */
  mainImageOf(ctx: RequestContext, product: Product): Promise<MediaFile | null> {
    return loadRef(ctx, MediaFile, product.mainImage);
  }

  /** The associated images of a product, in order; batched across the products of a request. */
  async associatedImagesOf(ctx: RequestContext, product: Product): Promise<MediaFile[]> {
    return (await this.imagesLoader(ctx).load(product.id)) ?? [];
  }

  /** The card data of an e-greeting card (null for other types); batched across a request. */
  async cardOf(ctx: RequestContext, product: Product): Promise<EGreetingCard | null> {
    if (product.type.id !== E_GREETING_CARD_TYPE_ID) return null;
    return this.cardLoader(ctx).load(product.id);
  }

  private imagesLoader(ctx: RequestContext) {
    return ctx.loader<number, MediaFile[]>('product.associatedImages', async (ids) => {
      const rows = await ctx.em.find(ProductImage, { product: { $in: [...ids] } }, { populate: ['file'], orderBy: { product: 'asc', position: 'asc' } });
      return groupBy(rows, (row) => row.product.id, (row) => row.file);
    });
  }

  private cardLoader(ctx: RequestContext) {
    return ctx.loader<number, EGreetingCard>('product.card', async (ids) => {
      const rows = await findCardsWithMedia(ctx.em, [...ids]);
      return new Map(rows.map((card) => [card.product.id, card]));
    });
  }

  /** How many products have the type (a type in use cannot be deleted). */
  countOfType(ctx: RequestContext, typeId: number): Promise<number> {
    return ctx.em.count(Product, { type: typeId });
  }

  // ---- writes ----

  async create(ctx: RequestContext, input: ProductInput): Promise<Product> {
    const fields = this.cleanFields(input, true);
    const product = await this.save(ctx, async (em) => {
      const product = em.create(Product, {
        name: fields.name!,
        price: fields.price!,
        description: fields.description ?? '',
        sku: fields.sku ?? null,
        tags: fields.tags ?? [],
        category: await this.category(em, fields.categoryId!),
        type: await this.type(em, fields.productTypeId!),
      });
      await applyProductReferences(em, product, fields, null);
      return product;
    }, (product) => ({ entity: 'product', id: product.id, action: 'created', summary: `Created ${named(product.name)} at ${product.price}` }));
    await this.cache.changed(Changes.product(product.id, [product.category.id]));
    ctx.log.info({ productId: product.id }, 'product created');
    return product;
  }

  async update(ctx: RequestContext, id: number, input: ProductInput): Promise<Product> {
    const fields = this.cleanFields(input, false);
    let formerCategoryId = 0;
    let before: ReturnType<typeof productSnapshot> | null = null;
    const saved = await this.save(ctx, async (em) => {
      // Locked, so that concurrent saves of one product replace its images one after the other.
      const product = await em.findOne(Product, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!product) throw notFound('Product');
      formerCategoryId = product.category.id;
      before = productSnapshot(product);
      if (fields.name !== undefined) product.name = fields.name;
      if (fields.price !== undefined) product.price = fields.price;
      if (fields.description !== undefined) product.description = fields.description;
      if (fields.sku !== undefined) product.sku = fields.sku;
      if (fields.tags !== undefined) product.tags = fields.tags;
      if (fields.categoryId !== undefined) product.category = await this.category(em, fields.categoryId);
      if (fields.productTypeId !== undefined) product.type = await this.type(em, fields.productTypeId);
      const card = await em.findOne(EGreetingCard, { product: id });
      await applyProductReferences(em, product, fields, card);
      return product;
    }, (product) => ({ entity: 'product', id, action: 'updated', summary: `${named(product.name)}: ${describeChanges(before!, productSnapshot(product), PRODUCT_FIELDS)}` }));
    await this.cache.changed(Changes.product(id, [formerCategoryId, saved.category.id]));
    return saved;
  }

  async delete(ctx: RequestContext, id: number): Promise<void> {
    await audited(
      ctx,
      async (tx) => {
        const [row] = await tx.em.execute<{ name: string }[]>('delete from "product" where "id" = ? returning "name"', [id]);
        if (!row) throw notFound('Product');
        return row.name;
      },
      (name) => ({ entity: 'product', id, action: 'deleted', summary: `Deleted ${named(name)}` }),
    );
    // Which category lists held it is not known here without another read: they all go.
    await this.cache.changed([...Changes.product(id, []), 'category:']);
    ctx.log.info({ productId: id }, 'product deleted');
  }

  /** Lets the media library say which products use a file (main image, associated image, card). */
  readonly mediaUsages: MediaUsageProvider = productMediaUsages;


  // ---- internals ----

  /** Checks and cleans what can be checked without the database; undefined keeps a value on update. */
  private cleanFields(input: ProductInput, creating: boolean) {
    const has = (key: keyof ProductInput) => creating || input[key] !== undefined;
    const required = (key: 'categoryId' | 'productTypeId') => {
      const id = optionalId(input[key], key);
      if (id === null) throw badInput(key === 'categoryId' ? 'Choose a category.' : 'Choose a product type.', key);
      return id;
    };
    return {
      name: has('name') ? cleanName(input.name) : undefined,
      price: has('price') ? parsePrice(input.price) : undefined,
      description: input.description !== undefined ? cleanDescription(input.description) : undefined,
      sku: input.sku !== undefined ? cleanSku(input.sku) : undefined,
      tags: input.tags !== undefined ? cleanTags(input.tags) : undefined,
      categoryId: has('categoryId') ? required('categoryId') : undefined,
      productTypeId: has('productTypeId') ? required('productTypeId') : undefined,
      mainImageId: input.mainImageId !== undefined ? optionalId(input.mainImageId, 'mainImageId') : undefined,
      associatedImageIds: input.associatedImageIds !== undefined ? idList(input.associatedImageIds, 'associatedImageIds', MAX_ASSOCIATED_IMAGES) : undefined,
      card: input.eGreetingCard === undefined ? undefined : input.eGreetingCard === null ? null : cleanCard(input.eGreetingCard),
    };
  }

  /** Runs a save in one transaction with its audit entry; a unique SKU clash or a vanished reference becomes a clear error. */
  private async save(ctx: RequestContext, work: (em: EntityManager) => Promise<Product>, fact: (product: Product) => AuditFact): Promise<Product> {
    const audited = async (em: EntityManager) => {
      const product = await work(em);
      await em.flush();
      await recordAudit(withEm(ctx, em), fact(product));
      return product;
    };
    try {
      return await conflictOnUnique(() => ctx.em.transactional(audited), () => conflict('Another product has this SKU.', 'sku'));
    } catch (error) {
      if (error instanceof ForeignKeyConstraintViolationException) throw new AppError('CONFLICT', 'Something the product refers to was deleted meanwhile; try again.');
      throw error;
    }
  }

  private async category(em: EntityManager, id: number): Promise<Category> {
    // Shared lock: the category cannot be deleted under the product being saved.
    const category = await em.findOne(Category, id, { lockMode: LockMode.PESSIMISTIC_READ });
    if (!category) throw badInput('The category does not exist.', 'categoryId');
    return category;
  }

  private async type(em: EntityManager, id: number): Promise<ProductType> {
    const type = await em.findOne(ProductType, id, { lockMode: LockMode.PESSIMISTIC_READ });
    if (!type) throw badInput('The product type does not exist.', 'productTypeId');
    return type;
  }

  private async requireCategory(em: EntityManager, id: number): Promise<void> {
    if ((await em.count(Category, { id })) === 0) throw notFound('Category');
  }

  private page(ctx: RequestContext, where: FilterQuery<Product>, args: ProductPageArgs): Promise<ConnectionResult<Product>> {
    return keysetPage(ctx.em, Product, where, {
      size: pageSize(args.first),
      after: args.after,
      direction: 'asc',
      keys: [
        { property: 'sortName', cursor: 'n', type: 'string', valueOf: (p) => p.sortName ?? p.name.toLowerCase() },
        { property: 'id', cursor: 'id', type: 'number', valueOf: (p) => p.id },
      ],
      populate: POPULATE,
    });
  }

}

/** The card data as sent: every key optional (left out keeps, null clears). */
function cleanCard(value: unknown): CleanCard {
  if (typeof value !== 'object' || Array.isArray(value)) throw badInput('The greeting-card data must be an object.', CARD_FIELD);
  const input = value as Record<string, unknown>;
  const card: CleanCard = {};
  if (input.messageLocation !== undefined && input.messageLocation !== null) card.messageLocation = parseMessageLocation(input.messageLocation, `${CARD_FIELD}.messageLocation`);
  if (input.fontName !== undefined) card.fontName = cleanFontName(input.fontName, `${CARD_FIELD}.fontName`);
  for (const slot of CARD_MEDIA_SLOTS) {
    const key = slotField(slot);
    if (input[key] !== undefined) card[slot] = optionalId(input[key], `${CARD_FIELD}.${key}`);
  }
  return card;
}

/** What the audit log compares of a product (its images and card data are summed up as "changed"). */
function productSnapshot(product: Product) {
  return { name: product.name, price: product.price, sku: product.sku, category: `#${product.category.id}`, type: `#${product.type.id}`, tags: product.tags.join(', '), description: product.description };
}

const PRODUCT_FIELDS = { name: 'name', price: 'price', sku: 'SKU', category: 'category', type: 'type', tags: 'tags', description: 'description' } as const;
