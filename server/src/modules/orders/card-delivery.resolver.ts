import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context.js';
import { OrderItem } from './order-item.entity.js';
import type { OrderService } from './order.service.js';

/** What My orders and Order Details say of a card whose e-mail was kept back on purpose. */
@Resolver(() => OrderItem)
export class CardDeliveryResolver {
  constructor(private readonly orders: OrderService) {}

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Why the card was not delivered, e.g. "Not delivered: the recipient unsubscribed" (its e-mail was withheld). Null when it went out or is still on its way, and for callers who see the confirmation page only.',
  })
  notDeliveredReason(@Ctx() ctx: RequestContext, @Root() item: OrderItem): Promise<string | null> | null {
    if (!item.itemUrlUuid || this.orders.isRedacted(item.order)) return null;
    return this.orders.notDeliveredReason(ctx, item);
  }
}
