import { ForeignKeyConstraintViolationException, LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { conflictOnUnique } from '../../core/db-errors.js';
import { withEm, type RequestContext } from '../../core/context.js';
import { audited, describeChanges, named, recordAudit, type AuditFact } from '../audit/index.js';
import { AppError, badInput, conflict, notFound } from '../../core/errors.js';
import { cleanName, optionalId } from '../../core/input.js';
import { Changes, type ReadCache } from '../../core/read-cache.js';
import { Category } from './category.entity.js';
import { CARD_MEDIA_SLOTS, EGreetingCard } from './e-greeting-card.entity.js';
import { Product, ProductStatus } from './product.entity.js';
import { applyProductReferences, currentTranslations, CARD_FIELD, slotField, type CleanCard } from './product-references.js';
import { ProductType } from './product-type.entity.js';
import { emitProducts } from './product-events.js';
import { sameTranslations, translationsSnapshot, TRANSLATION_FIELDS } from './product-content.js';
import { defaultMessageSchema, translationsSchema, type ProductTranslationValues } from '../../rules/schemas.js';
import { parseInput } from '../../core/input.js';
import type { WebhookEvents } from '../webhooks/index.js';
import {
  MAX_ASSOCIATED_IMAGES,
  cleanDescription,
  cleanFontName,
  cleanSku,
  cleanTags,
  idList,
  parseMessageLocation,
  parsePrice,
  compareDecimal,
} from './product-rules.js';

/** A product as a client sends it; on update a key left out (undefined) keeps its value, null clears it. */
export interface ProductInput {
  name?: unknown;
  description?: unknown;
  sku?: unknown;
  price?: unknown;
  /** The regular price of a product on sale, above its price; null for none. */
  compareAtPrice?: unknown;
  /** draft, active (the default) or archived. */
  status?: unknown;
  categoryId?: unknown;
  productTypeId?: unknown;
  mainImageId?: unknown;
  tags?: unknown;
  associatedImageIds?: unknown;
  /** Only for e-greeting cards (type 1). */
  eGreetingCard?: unknown;
  /** `[{locale, name, description, defaultMessage}]` for de, fr, es: every translation it has from now on (left out: kept). */
  translations?: unknown;
}

/**
 * Saves products: each with its tags, associated images and card data in one transaction with its
 * audit entry and its webhook event; the storefront answers that show it are dropped from the read
 * cache afterwards.
 */
export class ProductWriter {
  constructor(
    private readonly cache: ReadCache,
    private readonly webhooks: WebhookEvents,
  ) {}

  async create(ctx: RequestContext, input: ProductInput): Promise<Product> {
    const fields = this.cleanFields(input, true);
    const product = await this.save(ctx, async (em) => {
      const product = em.create(Product, {
        name: fields.name!,
        price: fields.price!,
        compareAtPrice: fields.compareAtPrice ?? null,
        status: fields.status ?? ProductStatus.ACTIVE,
        description: fields.description ?? '',
        sku: fields.sku ?? null,
        tags: fields.tags ?? [],
        category: await this.category(em, fields.categoryId!),
        type: await this.type(em, fields.productTypeId!),
      });
      assertCompareAtAbovePrice(product);
      await applyProductReferences(em, product, fields, null);
      return product;
    }, (product) => ({ entity: 'product', id: product.id, action: 'created', summary: `Created ${named(product.name)} at ${product.price}` }), 'product.created');
    await this.cache.changed(Changes.product(product.id, [product.category.id]));
    ctx.log.info({ productId: product.id }, 'product created');
    return product;
  }

  async update(ctx: RequestContext, id: number, input: ProductInput): Promise<Product> {
    const fields = this.cleanFields(input, false);
    let formerCategoryId = 0;
    let before: ReturnType<typeof productSnapshot> | null = null;
    let after: readonly ProductTranslationValues[] = [];
    const saved = await this.save(ctx, async (em) => {
      // Locked, so that concurrent saves of one product replace its images one after the other.
      const product = await em.findOne(Product, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!product) throw notFound('Product');
      formerCategoryId = product.category.id;
      const translations = await currentTranslations(em, id);
      before = productSnapshot(product, translations);
      after = fields.translations ?? translations;
      // New words in another language are a change of the product like any other.
      if (!sameTranslations(after, translations)) product.updatedAt = new Date();
      if (fields.name !== undefined) product.name = fields.name;
      if (fields.price !== undefined) product.price = fields.price;
      if (fields.compareAtPrice !== undefined) product.compareAtPrice = fields.compareAtPrice;
      if (fields.status !== undefined) product.status = fields.status;
      assertCompareAtAbovePrice(product);
      if (fields.description !== undefined) product.description = fields.description;
      if (fields.sku !== undefined) product.sku = fields.sku;
      if (fields.tags !== undefined) product.tags = fields.tags;
      if (fields.categoryId !== undefined) product.category = await this.category(em, fields.categoryId);
      if (fields.productTypeId !== undefined) product.type = await this.type(em, fields.productTypeId);
      const card = await em.findOne(EGreetingCard, { product: id });
      await applyProductReferences(em, product, fields, card);
      return product;
    }, (product) => ({ entity: 'product', id, action: 'updated', summary: `${named(product.name)}: ${describeChanges(before!, productSnapshot(product, after), PRODUCT_FIELDS)}` }), 'product.updated');
    await this.cache.changed(Changes.product(id, [formerCategoryId, saved.category.id]));
    return saved;
  }

  async delete(ctx: RequestContext, id: number): Promise<void> {
    await audited(
      ctx,
      async (tx) => {
        // Told before it goes, while its row can still be read (an unknown id tells nothing and rolls back below).
        await emitProducts(this.webhooks, tx.em, 'product.deleted', [id]);
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
      status: input.status === undefined || input.status === null ? undefined : parseStatus(input.status),
      compareAtPrice: input.compareAtPrice === undefined ? undefined : input.compareAtPrice === null || input.compareAtPrice === '' ? null : parsePrice(input.compareAtPrice, 'compareAtPrice'),
      description: input.description !== undefined ? cleanDescription(input.description) : undefined,
      sku: input.sku !== undefined ? cleanSku(input.sku) : undefined,
      tags: input.tags !== undefined ? cleanTags(input.tags) : undefined,
      categoryId: has('categoryId') ? required('categoryId') : undefined,
      productTypeId: has('productTypeId') ? required('productTypeId') : undefined,
      mainImageId: input.mainImageId !== undefined ? optionalId(input.mainImageId, 'mainImageId') : undefined,
      associatedImageIds: input.associatedImageIds !== undefined ? idList(input.associatedImageIds, 'associatedImageIds', MAX_ASSOCIATED_IMAGES) : undefined,
      card: input.eGreetingCard === undefined ? undefined : input.eGreetingCard === null ? null : cleanCard(input.eGreetingCard),
      translations: input.translations === undefined ? undefined : parseInput(translationsSchema, input.translations, 'translations'),
    };
  }

  /** Runs a save in one transaction with its audit entry and webhook event; a unique SKU clash or a vanished reference becomes a clear error. */
  private async save(ctx: RequestContext, work: (em: EntityManager) => Promise<Product>, fact: (product: Product) => AuditFact, event: 'product.created' | 'product.updated'): Promise<Product> {
    const audited = async (em: EntityManager) => {
      const product = await work(em);
      await em.flush();
      await recordAudit(withEm(ctx, em), fact(product));
      await emitProducts(this.webhooks, em, event, [product.id]);
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
}

/** The card data as sent: every key optional (left out keeps, null clears). */
function cleanCard(value: unknown): CleanCard {
  if (typeof value !== 'object' || Array.isArray(value)) throw badInput('The greeting-card data must be an object.', CARD_FIELD);
  const input = value as Record<string, unknown>;
  const card: CleanCard = {};
  if (input.messageLocation !== undefined && input.messageLocation !== null) card.messageLocation = parseMessageLocation(input.messageLocation, `${CARD_FIELD}.messageLocation`);
  if (input.fontName !== undefined) card.fontName = cleanFontName(input.fontName, `${CARD_FIELD}.fontName`);
  if (input.defaultMessage !== undefined) card.defaultMessage = parseInput(defaultMessageSchema, input.defaultMessage, `${CARD_FIELD}.defaultMessage`);
  for (const slot of CARD_MEDIA_SLOTS) {
    const key = slotField(slot);
    if (input[key] !== undefined) card[slot] = optionalId(input[key], `${CARD_FIELD}.${key}`);
  }
  return card;
}

/** What the audit log compares of a product (its images and card data are summed up as "changed"). */
function productSnapshot(product: Product, translations: readonly ProductTranslationValues[]) {
  return { ...translationsSnapshot(translations), name: product.name, status: product.status, price: product.price, compareAtPrice: product.compareAtPrice ?? 'none', sku: product.sku, category: `#${product.category.id}`, type: `#${product.type.id}`, tags: product.tags.join(', '), description: product.description };
}

const PRODUCT_FIELDS = { name: 'name', status: 'status', price: 'price', compareAtPrice: 'compare-at price', sku: 'SKU', category: 'category', type: 'type', tags: 'tags', description: 'description', ...TRANSLATION_FIELDS } as const;

/** A compare-at price is the regular price of a product on sale: above its price (the database checks it too). */
function assertCompareAtAbovePrice(product: Product): void {
  if (product.compareAtPrice !== null && compareDecimal(product.compareAtPrice, product.price) <= 0) {
    throw badInput(`The compare-at price must be above the price (${product.price}), or left empty.`, 'compareAtPrice');
  }
}

const STATUSES: readonly string[] = Object.values(ProductStatus);

/** A status as a client sends it: draft, active or archived (any case). */
export function parseStatus(value: unknown, field = 'status'): ProductStatus {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!STATUSES.includes(text)) throw badInput('The status must be draft, active or archived.', field);
  return text as ProductStatus;
}
