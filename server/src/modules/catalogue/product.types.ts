import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { MessageLocation } from './e-greeting-card.entity.js';
import { Product, ProductStatus } from './product.entity.js';
import { ProductSort } from './product-sort.js';

registerEnumType(ProductSort, { name: 'ProductSort', description: 'The order of a product search: by name (the default), newest first, or by price either way.' });

export const ProductConnection = Connection(Product, 'Product');
export type ProductConnection = InstanceType<typeof ProductConnection>;

@ArgsType()
export class CategoryProductsArgs extends ConnectionArgs {
  @Field(() => Int)
  categoryId!: number;
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
}

@InputType({ description: 'The card data of an e-greeting card; a field left out keeps its value, null empties it.' })
export class EGreetingCardInput {
  @Field(() => MessageLocation, { nullable: true })
  messageLocation?: MessageLocation | null;

  @Field(() => String, { nullable: true, description: 'A family of the font service, e.g. "Open Sans".' })
  fontName?: string | null;

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

@InputType({ description: 'A product with its tags, images and card data, saved as one. On update an optional field left out keeps its value.' })
export class ProductInput {
  @Field(() => String)
  name!: string;

  @Field(() => DecimalScalar, { description: 'Greater than zero, at most two decimals.' })
  price!: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'The regular price of a product on sale, above the price; null for none.' })
  compareAtPrice?: string | null;

  @Field(() => ProductStatus, { nullable: true, description: 'ACTIVE when a new product leaves it out; kept on update.' })
  status?: ProductStatus | null;

  @Field(() => Int)
  categoryId!: number;

  @Field(() => Int)
  productTypeId!: number;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true })
  sku?: string | null;

  @Field(() => Int, { nullable: true, description: 'An image of the media library.' })
  mainImageId?: number | null;

  @Field(() => [String], { nullable: true, description: 'Trimmed; repeats (ignoring case) are dropped.' })
  tags?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Images of the media library, in display order.' })
  associatedImageIds?: number[] | null;

  @Field(() => EGreetingCardInput, { nullable: true, description: 'Only for e-greeting cards (product type 1).' })
  eGreetingCard?: EGreetingCardInput | null;
}
