import { Arg, Ctx, Field, GraphQLISODateTime, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { DecimalScalar } from '../../core/decimal.js';
import type { SalesService } from './sales.service.js';
import type { SalesSummary as Summary } from './sales.service.js';

@ObjectType({ description: "One day's charged orders (paid or delivered)." })
export class SalesDay {
  @Field(() => String, { description: 'YYYY-MM-DD in the time zone asked for.' })
  day!: string;

  @Field(() => DecimalScalar)
  revenue!: string;

  @Field(() => Int)
  orders!: number;
}

@ObjectType({ description: 'Sales at a glance: the last 30 days, today included.' })
export class SalesSummary {
  @Field(() => String)
  timeZone!: string;

  @Field(() => GraphQLISODateTime, { description: 'The start of the first day counted.' })
  since!: Date;

  @Field(() => [SalesDay], { description: 'Every one of the 30 days, oldest first (days without orders are zero).' })
  days!: SalesDay[];

  @Field(() => DecimalScalar, { description: 'Revenue of the 30 days: what charged orders brought, less what was refunded of them.' })
  revenue!: string;

  @Field(() => Int)
  orders!: number;

  @Field(() => Int, { description: 'Cards delivered to their recipients in the 30 days.' })
  cardsSent!: number;

  @Field(() => Int, { description: 'Cards first opened in the 30 days.' })
  cardsOpened!: number;
}

@Resolver()
export class SalesResolver {
  constructor(private readonly service: SalesService) {}

  @Allow('staff')
  @Query(() => SalesSummary, { description: 'Revenue and orders per day for the last 30 days, with the totals Revenue, Orders, Cards sent and Cards opened.' })
  salesSummary(@Ctx() ctx: RequestContext, @Arg('timeZone', () => String, { nullable: true, description: "The admin's IANA time zone for the days (default UTC)." }) timeZone?: string | null): Promise<Summary> {
    return this.service.summary(ctx, timeZone);
  }
}
