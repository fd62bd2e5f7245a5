import { Ctx, FieldResolver, GraphQLISODateTime, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context.js';
import { OrderItem, type Order } from '../orders/index.js';
import type { EcardLoopService } from './ecard-loop.service.js';
import { EcardReply } from './ecard-reply.entity.js';

/** What a card's recipient did with it, on My orders and Order Details: their thank-yous and the reminder they got. */
@Resolver(() => OrderItem)
export class EcardReplyResolver {
  constructor(
    private readonly loop: EcardLoopService,
    /** Says which orders were looked up by someone who may only see their confirmation page. */
    private readonly orders: { isRedacted(order: Order): boolean },
  ) {}

  @FieldResolver(() => [EcardReply], { description: "The recipient's thank-you replies, oldest first (admins and the order's owner; empty for others)." })
  async replies(@Ctx() ctx: RequestContext, @Root() item: OrderItem): Promise<EcardReply[]> {
    if (!item.itemUrlUuid || this.orders.isRedacted(item.order)) return [];
    const loader = ctx.loader<number, EcardReply[]>('item.replies', (ids) => this.loop.repliesOf(ctx, ids));
    return (await loader.load(item.id)) ?? [];
  }

  @FieldResolver(() => GraphQLISODateTime, { nullable: true, description: 'When the one reminder of an unopened card went to its recipient (admins and owners only).' })
  remindedAt(@Root() item: OrderItem): Date | null {
    return this.orders.isRedacted(item.order) ? null : item.remindedAt;
  }
}
