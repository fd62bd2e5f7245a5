import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { ProductTypeService } from './product-type.service.js';
import { ProductType } from './product-type.entity.js';

@Resolver(() => ProductType)
export class ProductTypeResolver {
  constructor(private readonly service: ProductTypeService) {}

  @Allow('storefront', 'catalogue:read')
  @Query(() => [ProductType], { description: 'Every product type, by id (the built-in ones first).' })
  productTypes(@Ctx() ctx: RequestContext): Promise<ProductType[]> {
    return this.service.list(ctx);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => ProductType, { description: 'Adds a product type; CONFLICT on `name` when one of that name exists (ignoring case).' })
  createProductType(@Ctx() ctx: RequestContext, @Arg('name', () => String, { description: 'Its name, 1–100 characters.' }) name: string): Promise<ProductType> {
    return this.service.create(ctx, { name });
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => ProductType, { description: 'Renames a product type; the built-in types cannot be renamed (CONFLICT).' })
  updateProductType(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The type's id." }) id: number,
    @Arg('name', () => String, { description: 'Its new name, 1–100 characters, unique ignoring case.' }) name: string,
  ): Promise<ProductType> {
    return this.service.update(ctx, id, { name });
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => Boolean, { description: 'Refused (CONFLICT) for the built-in types 1–3 and for types in use.' })
  async deleteProductType(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The type's id." }) id: number): Promise<boolean> {
    await this.service.delete(ctx, id);
    return true;
  }
}
