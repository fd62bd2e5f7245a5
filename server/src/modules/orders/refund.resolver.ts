import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { RefundService } from './refund.service.js';
import { Order } from './order.entity.js';

@Resolver(() => Order)
export class RefundResolver {
  constructor(private readonly service: RefundService) {}

  @Allow('admin')
  @Mutation(() => Order, { description: 'Refunds a paid or delivered order through its payment provider (exactly once); CONFLICT when it cannot be refunded. Unsent cards stay unsent; sent ones show "This card was withdrawn".' })
  refundOrder(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string): Promise<Order> {
    return this.service.refund(ctx, id);
  }
}
