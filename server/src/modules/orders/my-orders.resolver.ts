import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { ConnectionArgs, type ConnectionResult } from '../../core/pagination.js';
import type { MyOrdersService } from './my-orders.service.js';
import { OrderItem } from './order-item.entity.js';
import type { Order } from './order.entity.js';
import { OrderConnection } from './order.types.js';

/** "My orders": a signed-in shopper's orders and what they can do with their cards. */
@Resolver(() => OrderItem)
export class MyOrdersResolver {
  constructor(private readonly service: MyOrdersService) {}

  @Allow('user')
  @Query(() => OrderConnection, { description: "The caller's own orders, newest first (orders placed while signed in)." })
  myOrders(@Ctx() ctx: RequestContext, @Args(() => ConnectionArgs) args: ConnectionArgs): Promise<ConnectionResult<Order>> {
    return this.service.myOrders(ctx, args);
  }

  @Allow('user')
  @Mutation(() => OrderItem, {
    description: "Moves one of the caller's scheduled cards to now (no deliveryDate) or another allowed moment: a day (YYYY-MM-DD, today up to a year ahead) and an hour (HH:MM, 09:00 unless given), in the zone it was ordered in; today at an hour gone means now. CONFLICT once it was sent.",
  })
  changeCardDate(
    @Ctx() ctx: RequestContext,
    @Arg('itemId', () => Int, { description: "The card's order line id." }) itemId: number,
    @Arg('deliveryDate', () => String, { nullable: true, description: 'YYYY-MM-DD; null sends the card now.' }) deliveryDate?: string | null,
    @Arg('deliveryTime', () => String, { nullable: true, description: 'HH:MM in the zone the card was ordered in (default 09:00).' }) deliveryTime?: string | null,
  ): Promise<OrderItem> {
    return this.service.changeDate(ctx, itemId, deliveryDate ?? null, deliveryTime ?? null);
  }

  @Allow('user')
  @Mutation(() => OrderItem, { description: "Sends one of the caller's sent cards to its recipient again (at most 3 times). CONFLICT when it was not sent yet." })
  resendMyCard(@Ctx() ctx: RequestContext, @Arg('itemId', () => Int, { description: "The card's order line id." }) itemId: number): Promise<OrderItem> {
    return this.service.resend(ctx, itemId);
  }

  @FieldResolver(() => Int, { nullable: true, description: "How many more times the purchaser may send this card again from My orders (3 in all; an admin's resends are not counted). Null for what is no e-card, and for callers who see the confirmation page only." })
  resendsLeft(@Root() item: OrderItem): number | null {
    return this.service.isRedacted(item.order) ? null : this.service.resendsLeft(item);
  }
}
