import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { SalesService, SalesSummary as Summary } from './sales.service.js';
import { SalesSummary, SalesSummaryArgs } from './sales.types.js';

@Resolver()
export class SalesResolver {
  constructor(private readonly service: SalesService) {}

  @Allow('staff')
  @Query(() => SalesSummary, {
    description:
      'Sales over a range of days (the last 30 unless asked otherwise) in the time zone given, each total beside the previous range of the same length: gross (what was charged for the orders placed in the range), refunds (given back of those orders), net, orders, average order, cards sent and opened; the figures per day or per week, and the top 10 products.',
  })
  salesSummary(@Ctx() ctx: RequestContext, @Args(() => SalesSummaryArgs) args: SalesSummaryArgs): Promise<Summary> {
    return this.service.summary(ctx, args);
  }
}
