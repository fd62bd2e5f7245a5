import { OptionalProps } from '@mikro-orm/core';
import { Check, Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { MediaFile } from '../media/index.js';
import { Category } from './category.entity.js';
import { ProductType } from './product-type.entity.js';

/** Whether shoppers see a product: a draft (being prepared), active (in the shop) or archived (taken out). */
export enum ProductStatus {
  DRAFT = 'draft',
  ACTIVE = 'active',
  ARCHIVED = 'archived',
}
registerEnumType(ProductStatus, {
  name: 'ProductStatus',
  description: 'Shoppers see ACTIVE products only; drafts and archived products are seen by admins alone.',
  valuesConfig: {
    DRAFT: { description: 'Being prepared: not in the shop yet; admins and API keys with a catalogue scope see it.' },
    ACTIVE: { description: 'In the shop: listed, searchable and for sale.' },
    ARCHIVED: { description: 'Taken out of the shop without being deleted; admins and API keys with a catalogue scope see it.' },
  },
});

/**
 * Something the shop sells. Its associated images (`ProductImage`) and, for an e-greeting card, its
 * card data (`EGreetingCard`) live in tables of their own that the product service writes in the same
 * transaction as the product.
 */
@ObjectType({ description: 'A product of the shop: an e-greeting card, a music album, an image collection, ...' })
@Entity({ tableName: 'product' })
@Check({ name: 'product_price_positive', expression: 'price > 0' })
@Check({ name: 'product_status_check', expression: "status in ('draft', 'active', 'archived')" })
@Check({ name: 'product_compare_at_above_price', expression: 'compare_at_price is null or compare_at_price > price' })
@Index({ name: 'product_category_sort_index', properties: ['category', 'sortName', 'id'] })
@Index({ name: 'product_sort_index', properties: ['sortName', 'id'] })
@Index({ name: 'product_price_sort_index', properties: ['price', 'id'] })
@Index({ name: 'product_created_sort_index', properties: ['createdAt', 'id'] })
@Index({ name: 'product_updated_sort_index', properties: ['updatedAt', 'id'] })
@Index({ name: 'product_status_sort_index', properties: ['status', 'sortName', 'id'] })
@Index({ name: 'product_search_index', expression: 'create index "product_search_index" on "product" using gin ("search_text" gin_trgm_ops)' })
@Index({ name: 'product_on_sale_index', expression: 'create index "product_on_sale_index" on "product" ("price", "id") where "compare_at_price" is not null' })
@Index({ name: 'product_shop_price_sort_index', properties: ['shopPrice', 'id'] })
@Index({ name: 'product_sku_unique', expression: 'create unique index "product_sku_unique" on "product" (lower("sku")) where "sku" is not null' })
export class Product {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'description' | 'sku' | 'mainImage' | 'tags' | 'sortName' | 'searchText' | 'compareAtPrice' | 'shopPrice' | 'shopCompareAt' | 'status' | 'categoryId' | 'productTypeId' | 'mainImageId';

  @Field(() => Int, { description: "The product's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'The name shoppers see (1–200 characters).' })
  @Property({ type: 'string', length: 200 })
  name!: string;

  /** The name as lists sort it (case-insensitive); kept by the database. */
  @Property({ type: 'string', length: 200, generated: '(lower("name")) stored', lazy: true })
  sortName?: string;

  @Field(() => String, { description: 'Plain text (line breaks kept, no markup), up to 10,000 characters; empty when there is none.' })
  @Property({ type: 'text', default: '' })
  description: string = '';

  @Field(() => String, { nullable: true, description: 'Stock keeping unit; unique (ignoring case) when given.' })
  @Property({ type: 'string', length: 64, nullable: true })
  sku: string | null = null;

  /** The price the admin set (GraphQL `regularPrice`); shoppers pay `shopPrice`. */
  @Field(() => DecimalScalar, { name: 'regularPrice', description: 'The price the admin set, in dollars, exact, with two decimals: what the shop sells it for when no sale runs.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  price!: string;

  /** The compare-at price the admin set (GraphQL `regularCompareAtPrice`). */
  @Field(() => DecimalScalar, { name: 'regularCompareAtPrice', nullable: true, description: 'The compare-at price the admin set (above the regular price), or null.' })
  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  compareAtPrice: string | null = null;

  /**
   * What it sells for now: the lowest price of the sales running, or the regular price. Kept by the
   * database (see the scheduled-sales migration): it follows a sale's start and end within a moment.
   */
  @Field(() => DecimalScalar, { name: 'price', description: 'What it sells for now, in dollars: a running sale\'s price, or the regular price.' })
  @Property({ type: 'decimal', precision: 12, scale: 2, generated: '(coalesce("sale_price", "price")) stored' })
  shopPrice!: string;

  /** The price struck through beside shopPrice: the regular price during a sale, else the compare-at price. */
  @Field(() => DecimalScalar, { name: 'compareAtPrice', nullable: true, description: 'The price shown struck through beside the price with a "Sale" badge: the regular price while a sale runs, else the compare-at price the admin set; null when it is not on sale.' })
  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true, generated: '(case when "sale_price" is not null then "price" else "compare_at_price" end) stored' })
  shopCompareAt: string | null = null;

  @Field(() => ProductStatus, { description: 'ACTIVE: in the shop. DRAFT and ARCHIVED: seen by admins alone.' })
  @Property({ type: 'string', length: 8, default: 'active' })
  status: ProductStatus = ProductStatus.ACTIVE;

  /** Products go with their category (and so with the category's ancestors). */
  @ManyToOne(() => Category, { deleteRule: 'cascade' })
  category!: Category;

  /** A type in use cannot be deleted (the service says so; the foreign key makes sure). */
  @Index({ name: 'product_product_type_id_index' })
  @ManyToOne(() => ProductType, { deleteRule: 'no action', fieldName: 'product_type_id' })
  type!: ProductType;

  @Index({ name: 'product_main_image_id_index' })
  @ManyToOne(() => MediaFile, { nullable: true, deleteRule: 'set null' })
  mainImage: MediaFile | null = null;

  @Field(() => [String], { description: 'Free-text tags, trimmed and unique ignoring case.' })
  @Property({ type: 'string[]', columnType: 'text[]', defaultRaw: "'{}'" })
  tags: string[] = [];

  /** Name, description and tags in lower case, for the shop's text search; written by the service. */
  @Property({ type: 'text', default: '', lazy: true })
  searchText: string = '';

  @Field(() => GraphQLISODateTime, { description: 'When the product was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => GraphQLISODateTime, { description: 'When the product was last changed (a bulk action included).' })
  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Field(() => Int, { description: 'The category it is listed in.' })
  get categoryId(): number {
    return this.category.id;
  }

  @Field(() => Int, { description: '1 e-greeting card, 2 music album, 3 image collection, or a type an admin added.' })
  get productTypeId(): number {
    return this.type.id;
  }

  @Field(() => Int, { nullable: true, description: 'The media library image shown for it in lists and first on its page; null: none.' })
  get mainImageId(): number | null {
    return this.mainImage?.id ?? null;
  }
}

/** One of a product's associated images, in the order the admin gave them. */
@Entity({ tableName: 'product_image' })
@Unique({ name: 'product_image_product_position_unique', properties: ['product', 'position'] })
export class ProductImage {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Product, { deleteRule: 'cascade' })
  product!: Product;

  /** Deleting the file takes it out of the product's images. */
  @Index({ name: 'product_image_file_id_index' })
  @ManyToOne(() => MediaFile, { deleteRule: 'cascade' })
  file!: MediaFile;

  @Property({ type: 'smallint' })
  position!: number;
}
