import { ArgsType, Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { MessageLocation } from './e-greeting-card.entity.js';
import { Product, ProductStatus } from './product.entity.js';
import { AdminProductSort, ProductSort } from './product-sort.js';

registerEnumType(ProductSort, {
  name: 'ProductSort',
  description: 'The order of a product search: by name (the default), newest first, or by price either way.',
  valuesConfig: {
    NAME: { description: 'By name, A to Z, ignoring case.' },
    NEWEST: { description: 'Newest first (by creation time).' },
    PRICE_ASC: { description: 'By the price shoppers pay now, lowest first.' },
    PRICE_DESC: { description: 'By the price shoppers pay now, highest first.' },
  },
});

registerEnumType(AdminProductSort, {
  name: 'AdminProductSort',
  description: "The order of the console's product list: by name (the default), by price either way, or last changed first.",
  valuesConfig: {
    NAME: { description: 'By name, A to Z, ignoring case.' },
    PRICE_ASC: { description: 'By regular price, lowest first.' },
    PRICE_DESC: { description: 'By regular price, highest first.' },
    UPDATED: { description: 'Last changed first.' },
  },
});

export enum BulkProductActionType {
  PUBLISH = 'publish',
  ARCHIVE = 'archive',
  MOVE = 'move',
  PRICE = 'price',
  ADD_TAG = 'add_tag',
  REMOVE_TAG = 'remove_tag',
  DELETE = 'delete',
}
registerEnumType(BulkProductActionType, {
  name: 'BulkProductActionType',
  description: 'What a bulk action does to each chosen product.',
  valuesConfig: {
    PUBLISH: { description: 'Sets the status to ACTIVE. Can be undone.' },
    ARCHIVE: { description: 'Sets the status to ARCHIVED. Can be undone.' },
    MOVE: { description: 'Moves the products to `categoryId`. Can be undone.' },
    PRICE: { description: 'Sets the regular price to `price`, or changes it by `percent`; each must stay above zero and below its compare-at price. Can be undone.' },
    ADD_TAG: { description: 'Adds `tag` where it is missing (ignoring case).' },
    REMOVE_TAG: { description: 'Removes `tag` (ignoring case).' },
    DELETE: { description: 'Deletes the products for good.' },
  },
});

@InputType({ description: 'What a bulk action does to every chosen product.' })
export class BulkProductActionInput {
  @Field(() => BulkProductActionType, { description: 'The action; the other fields are read as it needs them.' })
  type!: BulkProductActionType;

  @Field(() => Int, { nullable: true, description: 'MOVE: the category the products go to.' })
  categoryId?: number | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'PRICE: the new price of each (or give percent).' })
  price?: string | null;

  @Field(() => Float, { nullable: true, description: 'PRICE: raise each price by this percentage (a negative one lowers it), rounded to the cent.' })
  percent?: number | null;

  @Field(() => String, { nullable: true, description: 'ADD_TAG, REMOVE_TAG: the tag.' })
  tag?: string | null;
}

@ObjectType({ description: 'What a bulk action did.' })
export class BulkProductsResult {
  @Field(() => Int, { description: 'How many products the action changed (every chosen one: it is all or nothing).' })
  updated!: number;

  @Field(() => String, { nullable: true, description: 'Names the change for `undoBulkUpdateProducts` (for a day); null for actions that cannot be undone (tags, delete) or that changed nothing.' })
  undoId!: string | null;
}

@ObjectType({ description: 'What undoing a bulk action did.' })
export class BulkUndoResult {
  @Field(() => Int, { description: 'How many products got back what they had before the action.' })
  restored!: number;

  @Field(() => Int, { description: 'How many were left as they are: changed again since, deleted, or unable to take the old value.' })
  skipped!: number;
}

@ArgsType()
export class AdminProductsArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Words of the name, the description or the tags, or a SKU.' })
  query?: string | null;

  @Field(() => Int, { nullable: true, description: 'Only products of this category and the categories below it.' })
  categoryId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Only products of this type (1 = e-greeting cards).' })
  productTypeId?: number | null;

  @Field(() => ProductStatus, { nullable: true, description: 'Only products with this status; every status when left out.' })
  status?: ProductStatus | null;

  @Field(() => Boolean, { nullable: true, description: 'true: only products with a compare-at price; false: only those without.' })
  onSale?: boolean | null;

  @Field(() => AdminProductSort, { nullable: true, description: 'NAME unless asked.' })
  sort?: AdminProductSort | null;
}

export const ProductConnection = Connection(Product, 'Product');
export type ProductConnection = InstanceType<typeof ProductConnection>;

@ArgsType()
export class CategoryProductsArgs extends ConnectionArgs {
  @Field(() => Int, { description: "The category: its own products, not its subcategories'. Shoppers and API keys get active products only; admins every status." })
  categoryId!: number;

  @Field(() => String, { nullable: true, description: 'The language of the names, descriptions and default messages: en (the default), de, fr or es; English where a field is not translated. BAD_USER_INPUT for another.' })
  locale?: string | null;
}

@ArgsType()
export class SearchProductsArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Words that must all appear in the name, the description or the tags.' })
  query?: string | null;

  @Field(() => Int, { nullable: true, description: 'Only products of this type (1 = e-greeting cards).' })
  productTypeId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Only products of this category and the categories below it.' })
  categoryId?: number | null;

  @Field(() => ProductSort, { nullable: true, description: 'NAME unless asked.' })
  sort?: ProductSort | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Only products priced at least this (inclusive).' })
  minPrice?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only products on sale (with a compare-at price) when true.' })
  onSale?: boolean | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Only products priced at most this (inclusive).' })
  maxPrice?: string | null;

  @Field(() => String, { nullable: true, description: 'The language searched (besides English) and of the names, descriptions and default messages: en (the default), de, fr or es; English where a field is not translated. BAD_USER_INPUT for another.' })
  locale?: string | null;
}

@InputType({ description: 'The card data of an e-greeting card; a field left out keeps its value, null empties it.' })
export class EGreetingCardInput {
  @Field(() => MessageLocation, { nullable: true, description: 'Where the message sits on the greeting image (MIDDLE_CENTER for a new card that leaves it out).' })
  messageLocation?: MessageLocation | null;

  @Field(() => String, { nullable: true, description: 'A family of the font service, e.g. "Open Sans".' })
  fontName?: string | null;

  @Field(() => String, { nullable: true, description: 'The message its personalisation form starts from, in English, up to 500 characters; empty for none.' })
  defaultMessage?: string | null;

  @Field(() => Int, { nullable: true, description: 'An audio file.' })
  song1Id?: number | null;

  @Field(() => Int, { nullable: true, description: 'An audio file.' })
  song2Id?: number | null;

  @Field(() => Int, { nullable: true, description: 'An audio file.' })
  song3Id?: number | null;

  @Field(() => Int, { nullable: true, description: 'An image.' })
  coverImageId?: number | null;

  @Field(() => Int, { nullable: true, description: 'An image: the inside of the card, where the message goes.' })
  greetingImageId?: number | null;

  @Field(() => Int, { nullable: true, description: 'An image.' })
  backImageId?: number | null;

  @Field(() => Int, { nullable: true, description: 'An image.' })
  extraImage1Id?: number | null;

  @Field(() => Int, { nullable: true, description: 'An image.' })
  extraImage2Id?: number | null;

  @Field(() => Int, { nullable: true, description: 'An image.' })
  extraImage3Id?: number | null;
}

@InputType({ description: "A product's content in one of the shop's other languages; an empty field is not translated (the English is shown)." })
export class ProductTranslationInput {
  @Field(() => String, { description: 'de, fr or es; each at most once.' })
  locale!: string;

  @Field(() => String, { nullable: true, description: 'The name, up to 200 characters.' })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'The description, plain text up to 10,000 characters.' })
  description?: string | null;

  @Field(() => String, { nullable: true, description: "A card's default message, up to 500 characters." })
  defaultMessage?: string | null;
}

@InputType({ description: 'A product with its tags, images and card data, saved as one. On update an optional field left out keeps its value.' })
export class ProductInput {
  @Field(() => String, { description: 'The name shoppers see, 1–200 characters.' })
  name!: string;

  @Field(() => DecimalScalar, { description: 'Greater than zero, at most two decimals.' })
  price!: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'The regular price of a product on sale, above the price; null for none.' })
  compareAtPrice?: string | null;

  @Field(() => ProductStatus, { nullable: true, description: 'ACTIVE when a new product leaves it out; kept on update.' })
  status?: ProductStatus | null;

  @Field(() => Int, { description: 'The category it is listed in.' })
  categoryId!: number;

  @Field(() => Int, { description: 'Its type: 1 e-greeting card, 2 music album, 3 image collection, or one an admin added.' })
  productTypeId!: number;

  @Field(() => String, { nullable: true, description: 'Plain text, up to 10,000 characters; null or empty for none.' })
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'Stock keeping unit, up to 64 characters, unique ignoring case; null for none.' })
  sku?: string | null;

  @Field(() => Int, { nullable: true, description: 'An image of the media library.' })
  mainImageId?: number | null;

  @Field(() => [String], { nullable: true, description: 'Trimmed; repeats (ignoring case) are dropped.' })
  tags?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Images of the media library, in display order.' })
  associatedImageIds?: number[] | null;

  @Field(() => EGreetingCardInput, { nullable: true, description: 'Only for e-greeting cards (product type 1).' })
  eGreetingCard?: EGreetingCardInput | null;

  @Field(() => [ProductTranslationInput], { nullable: true, description: 'Every translation the product has from now on (languages left out have none); left out on update: kept.' })
  translations?: ProductTranslationInput[] | null;
}
