import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { ConnectionResult } from '../../core/pagination.js';
import type { ProductService } from './product.service.js';
import { MediaFile } from '../media/index.js';
import { EGreetingCard } from './e-greeting-card.entity.js';
import { ProductType } from './product-type.entity.js';
import { Product } from './product.entity.js';
import { ProductTranslation } from './product-translation.entity.js';
import { localized, readProductsIn, translationsOf } from './product-content.js';
import { AdminProductsArgs, BulkProductActionInput, BulkProductsResult, BulkUndoResult, CategoryProductsArgs, ProductConnection, ProductInput, SearchProductsArgs } from './product.types.js';

const LOCALE_ARG = 'The language of its name, description and default message: en (the default), de, fr or es; English where a field is not translated. BAD_USER_INPUT for another.';

@Resolver(() => Product)
export class ProductResolver {
  constructor(private readonly service: ProductService) {}

  @Allow('storefront', 'catalogue:read')
  @Query(() => ProductConnection, { description: "A page of a category's products, sorted by name." })
  products(@Ctx() ctx: RequestContext, @Args(() => CategoryProductsArgs) { categoryId, locale, ...page }: CategoryProductsArgs): Promise<ConnectionResult<Product>> {
    readProductsIn(ctx, locale);
    return this.service.byCategory(ctx, categoryId, page);
  }

  @Allow('storefront', 'catalogue:read')
  @Query(() => ProductConnection, { description: 'Products whose name, description or tags hold every word of the query, in a category (and below), of a type and between two prices; sorted by name unless `sort` says otherwise.' })
  searchProducts(@Ctx() ctx: RequestContext, @Args(() => SearchProductsArgs) { locale, ...args }: SearchProductsArgs): Promise<ConnectionResult<Product>> {
    return this.service.search(ctx, { ...args, locale: readProductsIn(ctx, locale) });
  }

  @Allow('admin', 'catalogue:read')
  @Query(() => ProductConnection, { description: "The console's list of every product, whatever its status, in pages of 50." })
  adminProducts(@Ctx() ctx: RequestContext, @Args(() => AdminProductsArgs) args: AdminProductsArgs): Promise<ConnectionResult<Product>> {
    return this.service.adminList(ctx, args);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => BulkProductsResult, { description: 'One action on up to 1,000 products, all or nothing, each product audited.' })
  bulkUpdateProducts(
    @Ctx() ctx: RequestContext,
    @Arg('ids', () => [Int], { description: 'The products, 1 to 1,000; an unknown id refuses the whole action (BAD_USER_INPUT on `ids`).' }) ids: number[],
    @Arg('action', () => BulkProductActionInput, { description: 'What is done to each.' }) action: BulkProductActionInput,
  ): Promise<BulkProductsResult> {
    return this.service.bulkUpdate(ctx, ids, action);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => BulkUndoResult, { description: 'Gives the products of a bulk action (publish, archive, move, price) back what they had, within a day; products changed since are left as they are.' })
  undoBulkUpdateProducts(@Ctx() ctx: RequestContext, @Arg('undoId', () => String, { description: 'The `undoId` the bulk action answered.' }) undoId: string): Promise<BulkUndoResult> {
    return this.service.undoBulkUpdate(ctx, undoId);
  }

  @Allow('storefront', 'catalogue:read')
  @Query(() => Product, { description: 'One product with its type, images and card data. NOT_FOUND for an unknown id, and for a draft or archived product unless the caller is an admin or an API key with a catalogue scope.' })
  async product(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The product's id." }) id: number,
    @Arg('locale', () => String, { nullable: true, description: LOCALE_ARG }) locale?: string | null,
  ): Promise<Product> {
    readProductsIn(ctx, locale);
    return (await this.service.storefront(ctx, id)).product;
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => Product, { description: 'Creates a product with its tags, images and card data, all or nothing.' })
  createProduct(@Ctx() ctx: RequestContext, @Arg('input', () => ProductInput, { description: 'The new product.' }) input: ProductInput): Promise<Product> {
    return this.service.create(ctx, input);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => Product, { description: 'Saves a product with its tags, images and card data, all or nothing.' })
  updateProduct(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The product's id." }) id: number,
    @Arg('input', () => ProductInput, { description: 'The product as it should be; optional fields left out keep their value.' }) input: ProductInput,
  ): Promise<Product> {
    return this.service.update(ctx, id, input);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => Boolean, { description: 'Deletes a product with its images and card data (the orders that sold it keep their lines); true once done. NOT_FOUND for an unknown id.' })
  async deleteProduct(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The product's id." }) id: number): Promise<boolean> {
    await this.service.delete(ctx, id);
    return true;
  }

  @FieldResolver(() => String, { description: 'The name shoppers see, in the language asked (English where it is not translated).' })
  name(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<string> {
    return localized(ctx, product.id, 'name', product.name);
  }

  @FieldResolver(() => String, { description: 'Plain text (line breaks kept, no markup), in the language asked (English where it is not translated); empty when there is none.' })
  description(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<string> {
    return localized(ctx, product.id, 'description', product.description);
  }

  @FieldResolver(() => [ProductTranslation], { description: 'Its content in the shop\'s other languages (de, fr, es), as the editor shows it; a language without any is absent.' })
  translations(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<ProductTranslation[]> {
    return translationsOf(ctx, product.id);
  }

  @FieldResolver(() => ProductType, { description: "The product's type." })
  async productType(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<ProductType> {
    return this.service.typeOf(ctx, product);
  }

  @FieldResolver(() => MediaFile, { nullable: true, description: 'Its main image, a media library file; null: none.' })
  mainImage(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<MediaFile | null> {
    return this.service.mainImageOf(ctx, product);
  }

  @FieldResolver(() => String, { nullable: true, description: 'Where the main image is served: `/api/{mainImagePath}`.' })
  async mainImagePath(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<string | null> {
    return (await this.service.mainImageOf(ctx, product))?.filePath ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: 'A small version of the main image for grids and lists.' })
  async mainImageThumbnailPath(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<string | null> {
    const image = await this.service.mainImageOf(ctx, product);
    return image?.thumbnailPath ?? image?.filePath ?? null;
  }

  @FieldResolver(() => [MediaFile], { description: 'The associated images, in display order.' })
  associatedImages(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<MediaFile[]> {
    return this.service.associatedImagesOf(ctx, product);
  }

  @FieldResolver(() => EGreetingCard, { nullable: true, description: 'The card data; null unless the product is an e-greeting card.' })
  eGreetingCard(@Ctx() ctx: RequestContext, @Root() product: Product): Promise<EGreetingCard | null> {
    return this.service.cardOf(ctx, product);
  }
}

@Resolver(() => EGreetingCard)
export class EGreetingCardResolver {
  @FieldResolver(() => String, { description: 'The message its personalisation form starts from, in the language asked (English where it is not translated); empty: none.' })
  defaultMessage(@Ctx() ctx: RequestContext, @Root() card: EGreetingCard): Promise<string> {
    return localized(ctx, card.product.id, 'defaultMessage', card.defaultMessage);
  }
}
