import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { badInput, notFound } from '../../core/errors.js';
import { seesAllProducts } from '../../core/viewer.js';
import { groupBy, loadRef } from '../../core/loaders.js';
import { subtreeIds } from '../../core/tree.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { MediaFile, type MediaUsageProvider } from '../media/index.js';
import { Category } from './category.entity.js';
import { EGreetingCard, findCardsWithMedia } from './e-greeting-card.entity.js';
import { Product, ProductImage, ProductStatus } from './product.entity.js';
import { productMediaUsages } from './product-references.js';
import { E_GREETING_CARD_TYPE_ID, ProductType } from './product-type.entity.js';
import { ProductWriter, type ProductInput } from './product-writer.js';
import { compareDecimal, parsePrice } from './product-rules.js';
import { AdminProductSort, ProductSort } from './product-sort.js';
import { ADMIN_SORTS, SORTS, type SortKey } from './product-sort-keys.js';
import { bulkUpdateProducts, type BulkActionInput } from './product-bulk.js';
import { undoBulkChange } from './product-bulk-undo.js';
import type { WebhookEvents } from '../webhooks/index.js';

export { ProductSort } from './product-sort.js';
import { containsEveryWord, escapeLike, searchWords } from '../../core/text-search.js';
import { DEFAULT_LOCALE, type Locale } from '../../rules/locales.js';
import { CacheKeys, jsonAnswer, type CachedAnswer, type ReadCache } from '../../core/read-cache.js';
import { categoryProductsJson, productDetailJson } from './catalogue-reads.js';
import { loadStorefrontProducts, type StorefrontProduct } from './storefront-product.js';
import { localized, translationsOf } from './product-content.js';

export type { ProductInput } from './product-writer.js';
export type { AdminProductListArgs, ProductDetail, ProductPageArgs, ProductSearchArgs } from './product-read-args.js';
import type { AdminProductListArgs, ProductDetail, ProductPageArgs, ProductSearchArgs } from './product-read-args.js';

/** The console lists products 50 to a page. */
const ADMIN_PAGE = 50;

const POPULATE = ['mainImage', 'type'] as const;
const SEARCH_WORDS = 8;

/**
 * The products of the shop. A product is saved with its tags, associated images and card data in
 * one transaction; lists are keyset pages sorted by name, read in a fixed number of queries.
 */
export class ProductService {
  private readonly writer: ProductWriter;

  constructor(
    private readonly cache: ReadCache,
    /** Where creations, changes and deletions are told to the webhook endpoints. */
    private readonly webhooks: WebhookEvents,
  ) {
    this.writer = new ProductWriter(cache, webhooks);
  }

  // ---- storefront answers (one query each, through the read cache) ----

  /** The REST detail of a product (`GET /api/products/{id}?lang=`), in one language. */
  async detailAnswer(ctx: RequestContext, id: number, locale: Locale = DEFAULT_LOCALE): Promise<CachedAnswer> {
    const answer = await this.shopDetail(ctx, id, locale);
    if (answer) return answer;
    // A draft or an archived product: for admins only, read as it is (never kept: shoppers share the cache).
    const hidden = seesAllProducts(await ctx.viewer()) ? await productDetailJson(ctx.em, id, locale, true) : null;
    if (hidden === null) throw notFound('Product');
    return jsonAnswer(hidden);
  }

  /** The detail of a product in the shop, as every shopper reads it (GraphQL's `product(id)` is answered from it too), or null: none in the shop. */
  shopDetail(ctx: RequestContext, id: number, locale: Locale = DEFAULT_LOCALE): Promise<CachedAnswer | null> {
    return this.cache.read(CacheKeys.product(id, locale), async () => {
      const json = await productDetailJson(ctx.em, id, locale);
      return json === null ? null : jsonAnswer(json);
    });
  }

  /** Every product of a category by name (`GET /api/products/category/{id}?lang=`), in one language. */
  async categoryListAnswer(ctx: RequestContext, categoryId: number, locale: Locale = DEFAULT_LOCALE): Promise<CachedAnswer> {
    const answer = await this.cache.read(CacheKeys.categoryList(categoryId, locale), async () => {
      const json = await categoryProductsJson(ctx.em, categoryId, locale);
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
    // Drafts and archived products are seen by admins alone (the product page shows them a ribbon).
    if (!read || (read.product.status !== ProductStatus.ACTIVE && !seesAllProducts(await ctx.viewer()))) throw notFound('Product');
    return read;
  }

  /** A product's name and description in `locale`, each the English where it is not translated (what a page's head says). */
  async contentIn(ctx: RequestContext, product: Pick<Product, 'id' | 'name' | 'description'>, locale: Locale): Promise<{ name: string; description: string }> {
    if (locale === DEFAULT_LOCALE) return { name: product.name, description: product.description };
    const translation = (await translationsOf(ctx, product.id)).find((row) => row.locale === locale);
    return { name: translation?.name || product.name, description: translation?.description || product.description };
  }

  /** The product with its associated images and card data (the REST detail shape). */
  async detail(ctx: RequestContext, id: number): Promise<ProductDetail> {
    const product = await this.get(ctx, id);
    const [associatedImages, card, translations] = await Promise.all([this.associatedImagesOf(ctx, product), this.cardOf(ctx, product), translationsOf(ctx, product.id)]);
    return { product, associatedImages, card, translations };
  }

  /** A page of a category's products, by name. */
  async byCategory(ctx: RequestContext, categoryId: number, args: ProductPageArgs): Promise<ConnectionResult<Product>> {
    await this.requireCategory(ctx.em, categoryId);
    // The console lists a category's drafts and archived products too; shoppers see the shop's, and so
    // do API keys (their answer is then the one cached for everyone; `adminProducts` lists them all).
    return this.page(ctx, (await ctx.isAdmin()) ? { category: categoryId } : { category: categoryId, status: ProductStatus.ACTIVE }, args);
  }

  /** Products whose name, description or tags hold every word of the query (in a category and the ones below it), by name. */
  /** `counted: false` (a list without a total, as REST answers it) skips counting every match. */
  async search(ctx: RequestContext, args: ProductSearchArgs, options: { counted?: boolean } = {}): Promise<ConnectionResult<Product>> {
    // The shop's search: products in the shop only.
    const locale = args.locale ?? DEFAULT_LOCALE;
    const where: FilterQuery<Product>[] = [{ status: ProductStatus.ACTIVE }];
    if (locale === DEFAULT_LOCALE) where.push(...containsEveryWord(args.query, SEARCH_WORDS));
    else if (searchWords(args.query, SEARCH_WORDS).length) where.push({ id: { $in: await idsWithEveryWord(ctx.em, args.query, locale) } });
    const minPrice = args.minPrice == null || args.minPrice === '' ? null : parsePriceBound(args.minPrice, 'minPrice');
    const maxPrice = args.maxPrice == null || args.maxPrice === '' ? null : parsePriceBound(args.maxPrice, 'maxPrice');
    if (minPrice !== null && maxPrice !== null && compareDecimal(minPrice, maxPrice) > 0) throw badInput('The lowest price must not be above the highest.', 'minPrice');
    if (args.categoryId != null) where.push({ category: { $in: await subtreeIds(ctx.em, 'category', args.categoryId) } });
    if (args.productTypeId != null) where.push({ type: args.productTypeId });
    // Shoppers find products by what they sell for now (a running sale's price).
    if (minPrice !== null) where.push({ shopPrice: { $gte: minPrice } });
    if (maxPrice !== null) where.push({ shopPrice: { $lte: maxPrice } });
    if (args.onSale) where.push({ shopCompareAt: { $ne: null } });
    return this.page(ctx, where.length ? { $and: where } : {}, args, SORTS[args.sort ?? ProductSort.NAME], options.counted);
  }

  /**
   * Every product, for the console (contract section 16): words of the name, description or tags, or
   * a SKU; a category (and below), a type, a status, on sale; by name, price or last change; pages of 50.
   */
  async adminList(ctx: RequestContext, args: AdminProductListArgs, options: { counted?: boolean } = {}): Promise<ConnectionResult<Product>> {
    const where: FilterQuery<Product>[] = [];
    const query = args.query?.trim() ?? '';
    if (query) {
      // A SKU is found whole, through its unique index on lower(sku); words through the trigram index.
      const bySku = await ctx.em.execute<{ id: number }[]>(`select id from product where lower(sku) = lower(?) and sku is not null`, [query]);
      where.push({ $or: [{ $and: containsEveryWord(query, SEARCH_WORDS) }, ...(bySku.length ? [{ id: { $in: bySku.map((row) => row.id) } }] : [])] });
    }
    if (args.categoryId != null) where.push({ category: { $in: await subtreeIds(ctx.em, 'category', args.categoryId) } });
    if (args.productTypeId != null) where.push({ type: args.productTypeId });
    if (args.status != null) where.push({ status: args.status });
    if (args.onSale != null) where.push({ shopCompareAt: args.onSale ? { $ne: null } : null });
    const sort = ADMIN_SORTS[args.sort ?? AdminProductSort.NAME];
    return this.page(ctx, where.length ? { $and: where } : {}, { ...args, first: args.first ?? ADMIN_PAGE }, sort, options.counted);
  }

  /** A bulk action on chosen products (see product-bulk.ts). */
  bulkUpdate(ctx: RequestContext, ids: unknown, action: BulkActionInput): Promise<{ updated: number; undoId: string | null }> {
    return bulkUpdateProducts(ctx, this.cache, this.webhooks, ids, action);
  }

  /** Undoes a bulk action (see product-bulk-undo.ts). */
  undoBulkUpdate(ctx: RequestContext, changeId: unknown): Promise<{ restored: number; skipped: number }> {
    return undoBulkChange(ctx, this.cache, this.webhooks, changeId);
  }

  /** A product's name in the language the request reads products in (see product-content.ts). */
  nameOf(ctx: RequestContext, product: Product): Promise<string> {
    return localized(ctx, product.id, 'name', product.name);
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

  // ---- writes (see product-writer.ts) ----

  create(ctx: RequestContext, input: ProductInput): Promise<Product> {
    return this.writer.create(ctx, input);
  }

  update(ctx: RequestContext, id: number, input: ProductInput): Promise<Product> {
    return this.writer.update(ctx, id, input);
  }

  delete(ctx: RequestContext, id: number): Promise<void> {
    return this.writer.delete(ctx, id);
  }

  /** Lets the media library say which products use a file (main image, associated image, card). */
  readonly mediaUsages: MediaUsageProvider = productMediaUsages;


  // ---- internals ----

  private async requireCategory(em: EntityManager, id: number): Promise<void> {
    if ((await em.count(Category, { id })) === 0) throw notFound('Category');
  }

  private page(ctx: RequestContext, where: FilterQuery<Product>, args: ProductPageArgs, sort: SortKey = SORTS[ProductSort.NAME], counted = true): Promise<ConnectionResult<Product>> {
    const { direction, key } = sort;
    return keysetPage(ctx.em, Product, where, {
      size: pageSize(args.first),
      after: args.after,
      direction,
      // Each order ends with the id, so that equal names, prices or moments page without gaps or repeats.
      keys: [key, { property: 'id', cursor: 'id', type: 'number', valueOf: (p) => p.id }],
      populate: POPULATE,
      counted,
    });
  }
}

/**
 * The products holding every word of a search in their English text (name, description, tags) or in
 * their translation into `locale` (name, description): each word is looked up through the trigram
 * index of either table, and the products found for every word are kept.
 */
async function idsWithEveryWord(em: EntityManager, query: string | null | undefined, locale: Locale): Promise<number[]> {
  const words = searchWords(query, SEARCH_WORDS);
  const params: unknown[] = [];
  const sets = words.map((word) => {
    const pattern = `%${escapeLike(word)}%`;
    params.push(pattern, locale, pattern);
    return `(select id from product where search_text like ? union select product_id from product_translation where locale = ? and search_text like ?)`;
  });
  const rows = await em.execute<{ id: number }[]>(sets.join(' intersect '), params);
  return rows.map((row) => row.id);
}

/** A price bound of a search: an amount like a price, zero allowed. */
function parsePriceBound(value: unknown, field: string): string {
  if (value === 0 || value === '0' || value === '0.00' || value === '0.0') return '0.00';
  return parsePrice(value, field);
}

