import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { SaleService } from './sale.service.js';
import { RunningSale, Sale, SaleInput } from './sale.types.js';

@Resolver(() => Sale)
export class SaleResolver {
  constructor(private readonly service: SaleService) {}

  @Allow('admin')
  @Query(() => [Sale], { description: 'Every scheduled sale, the latest start first.' })
  sales(@Ctx() ctx: RequestContext): Promise<Sale[]> {
    return this.service.list(ctx);
  }

  @Allow('public')
  @Query(() => [RunningSale], { description: 'The sales running now, the soonest to end first.' })
  runningSales(@Ctx() ctx: RequestContext): Promise<RunningSale[]> {
    return this.service.running(ctx.em);
  }

  @Allow('admin')
  @Mutation(() => Sale, { description: 'Schedules a sale; while it runs its products sell at the sale price, their regular price struck through.' })
  createSale(@Ctx() ctx: RequestContext, @Arg('input', () => SaleInput, { description: 'The sale.' }) input: SaleInput): Promise<Sale> {
    return this.service.create(ctx, { ...input });
  }

  @Allow('admin')
  @Mutation(() => Sale, { description: 'Changes a sale (running or not); the shop follows at once.' })
  updateSale(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The sale's id." }) id: number,
    @Arg('input', () => SaleInput, { description: 'The sale as it should be: an optional field left out is cleared.' }) input: SaleInput,
  ): Promise<Sale> {
    return this.service.update(ctx, id, { ...input });
  }

  @Allow('admin')
  @Mutation(() => ID, { description: 'Deletes a sale; its products go back to their price at once, orders keep what they paid. Returns the id.' })
  async deleteSale(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The sale's id." }) id: number): Promise<number> {
    await this.service.delete(ctx, id);
    return id;
  }
}
