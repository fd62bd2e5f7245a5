import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { CategoryService } from './category.service.js';
import { Category } from './category.entity.js';
import { CategoryInput } from './catalogue.types.js';

@Resolver(() => Category)
export class CategoryResolver {
  constructor(private readonly service: CategoryService) {}

  @Allow('storefront', 'catalogue:read')
  @Query(() => [Category], { description: 'Every category, as a flat list: build the tree from `parentId`.' })
  categories(@Ctx() ctx: RequestContext): Promise<Category[]> {
    return this.service.list(ctx);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => Category, { description: 'Adds a category, at the top level or under `parentId`.' })
  createCategory(@Ctx() ctx: RequestContext, @Arg('input', () => CategoryInput, { description: 'Its name (required), parent and image.' }) input: CategoryInput): Promise<Category> {
    return this.service.create(ctx, input);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => Category, { description: 'Renames, moves (refusing cycles) or changes the image of a category.' })
  updateCategory(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The category's id." }) id: number,
    @Arg('input', () => CategoryInput, { description: 'What changes; a field left out keeps its value.' }) input: CategoryInput,
  ): Promise<Category> {
    return this.service.update(ctx, id, input);
  }

  @Allow('admin', 'catalogue:write')
  @Mutation(() => Boolean, { description: 'Deletes a category with its subcategories and their products.' })
  async deleteCategory(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The category's id." }) id: number): Promise<boolean> {
    await this.service.delete(ctx, id);
    return true;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Where the image is served: `/api/{imagePath}`.' })
  imagePath(@Root() category: Category): string | null {
    return category.media?.filePath ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: 'A small version of the image for trees and lists.' })
  imageThumbnailPath(@Root() category: Category): string | null {
    return category.media?.thumbnailPath ?? category.media?.filePath ?? null;
  }
}
