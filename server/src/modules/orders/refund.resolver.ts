import { Arg, Ctx, ID, Int, Mutation, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { RefundService } from './refund.service.js';
import { Order } from './order.entity.js';

@Resolver(() => Order)
export class RefundResolver {
  constructor(private readonly service: RefundService) {}

  @Allow('staff', 'orders:write')
  @Mutation(() => Order, {
    description:
      'Refunds an order, or only the lines (cards) named in `itemIds`, through its payment provider (exactly once each); the order becomes PARTIALLY_REFUNDED or REFUNDED. CONFLICT when it cannot be refunded. Refunded cards not sent yet stay unsent; sent ones show "This card was withdrawn".',
  })
  refundOrder(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: "The order's id." }) id: string,
    @Arg('itemIds', () => [Int], { nullable: true, description: 'The lines to refund; all lines still standing when left out.' }) itemIds?: number[] | null,
    @Arg('reason', () => String, { nullable: true, description: 'Why (up to 500 characters): kept on the order, in the audit log and the export; never sent to the customer.' }) reason?: string | null,
    @Arg('notify', () => Boolean, { nullable: true, description: '"Tell the customer": an e-mail of the refund to the purchaser.' }) notify?: boolean | null,
  ): Promise<Order> {
    return this.service.refund(ctx, id, itemIds, { reason, notify });
  }
}
