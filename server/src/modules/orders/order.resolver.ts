import { Arg, Args, Ctx, FieldResolver, GraphQLISODateTime, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { maskEmail } from '../../core/input.js';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { ConnectionResult } from '../../core/pagination.js';
import type { OrderService } from './order.service.js';
import { Product } from '../catalogue/index.js';
import { OrderItem } from './order-item.entity.js';
import { OrderEmail } from './order-email.types.js';
import { forbidden } from '../../core/errors.js';
import { seesOrders } from '../../core/viewer.js';
import { Order } from './order.entity.js';
import { OrderNote } from './order-note.entity.js';
import { OrderEvent } from './order-timeline.js';
import { OrderConnection, OrdersArgs } from './order.types.js';

@Resolver(() => Order)
export class OrderResolver {
  constructor(private readonly service: OrderService) {}

  @Allow('storefront', 'orders:read')
  @Query(() => Order, {
    description: "An order by its number (the confirmation page). Unless the caller is an admin or the order's owner, e-mail addresses are masked and messages left out.",
  })
  order(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The order's id (a UUID, any case)." }) id: string): Promise<Order> {
    return this.service.get(ctx, id);
  }

  @Allow('staff', 'orders:read')
  @Query(() => OrderConnection, { description: 'Orders, newest first, optionally searched and filtered. `first` may be up to 1000. `totalCount` is counted up to 10,000: 10,001 means more than 10,000.' })
  orders(@Ctx() ctx: RequestContext, @Args(() => OrdersArgs) args: OrdersArgs): Promise<ConnectionResult<Order>> {
    return this.service.search(ctx, args);
  }

  @Allow('staff', 'orders:write')
  @Mutation(() => OrderItem, { description: "Sends an e-card's e-mail to its recipient again; CONFLICT for a refunded card." })
  resendCardEmail(@Ctx() ctx: RequestContext, @Arg('itemId', () => Int, { description: "The card's order line id." }) itemId: number): Promise<OrderItem> {
    return this.service.resendCard(ctx, itemId);
  }

  @Allow('staff', 'orders:write')
  @Mutation(() => OrderNote, { description: 'Adds an internal note to an order (up to 2,000 characters); audited.' })
  addOrderNote(
    @Ctx() ctx: RequestContext,
    @Arg('orderId', () => ID, { description: "The order's id." }) orderId: string,
    @Arg('text', () => String, { description: 'The note, 1 to 2,000 characters.' }) text: string,
  ): Promise<OrderNote> {
    return this.service.addNote(ctx, orderId, text);
  }

  @FieldResolver(() => String, { nullable: true, description: "Why it was refunded (each refund's reason); admins and staff see it, anyone else null." })
  async refundReason(@Ctx() ctx: RequestContext, @Root() order: Order): Promise<string | null> {
    return seesOrders(await ctx.viewer()) ? order.refundReason : null;
  }

  @FieldResolver(() => [OrderEvent], { description: 'What happened to it, oldest first: placed, e-mails sent or failed, cards opened, thank-yous, refunds, notes. Admins and staff see it; anyone else an empty list.' })
  async timeline(@Ctx() ctx: RequestContext, @Root() order: Order): Promise<OrderEvent[]> {
    if (!seesOrders(await ctx.viewer())) return [];
    return this.service.timelineOf(ctx, order);
  }

  @FieldResolver(() => [OrderNote], { description: 'Internal notes, oldest first: admins and staff see them, anyone else an empty list.' })
  async notes(@Ctx() ctx: RequestContext, @Root() order: Order): Promise<OrderNote[]> {
    if (!seesOrders(await ctx.viewer())) return [];
    return this.service.notesOf(ctx, order);
  }

  @FieldResolver(() => String, { description: "Who placed the order. Masked (j•••@example.com) unless the caller is an admin, staff, an API key with an orders scope, or the order's owner." })
  purchaserEmail(@Root() order: Order): string {
    return this.service.isRedacted(order) ? maskEmail(order.purchaserEmail) : order.purchaserEmail;
  }

  @FieldResolver(() => [OrderEmail], { description: 'Its e-mails (receipt, cards, resends) with their state and the reason of the last failure. Admins and staff only.' })
  async emails(@Ctx() ctx: RequestContext, @Root() order: Order): Promise<OrderEmail[]> {
    if (!seesOrders(await ctx.viewer())) throw forbidden('Staff and admins only');
    return this.service.emailsOf(ctx, order);
  }

  @Allow('staff', 'orders:write')
  @Mutation(() => Order, { description: "Sends the purchaser's receipt again." })
  resendReceipt(@Ctx() ctx: RequestContext, @Arg('orderId', () => ID, { description: "The order's id." }) orderId: string): Promise<Order> {
    return this.service.resendReceipt(ctx, orderId);
  }

  @Allow('staff', 'orders:write')
  @Mutation(() => OrderEmail, { description: "Tries a failed e-mail of an order again (with a fresh retry period): one of those its `emails` lists. NOT_FOUND for any other e-mail (the admins' E-mail view retries those)." })
  retryEmail(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The e-mail's id (`OrderEmail.id`)." }) id: number): Promise<OrderEmail> {
    return this.service.retryEmail(ctx, id);
  }

  @FieldResolver(() => [OrderItem], { description: 'Its lines, in the order they were bought.' })
  items(@Ctx() ctx: RequestContext, @Root() order: Order): Promise<OrderItem[]> {
    return this.service.itemsOf(ctx, order);
  }
}

@Resolver(() => OrderItem)
export class OrderItemResolver {
  constructor(private readonly service: OrderService) {}

  @FieldResolver(() => String, { nullable: true, description: "Where the card or gift goes; null for other lines. Masked unless the caller is an admin, staff, an API key with an orders scope, or the order's owner." })
  recipientEmail(@Root() item: OrderItem): string | null {
    return item.recipientEmail && this.service.isRedacted(item.order) ? maskEmail(item.recipientEmail) : item.recipientEmail;
  }

  @FieldResolver(() => String, { nullable: true, description: "The card's (or gift's) personal message, up to 500 characters; null without one, and unless the caller is an admin, staff, an API key with an orders scope, or the order's owner." })
  message(@Root() item: OrderItem): string | null {
    return this.service.isRedacted(item.order) ? null : item.message;
  }

  @FieldResolver(() => GraphQLISODateTime, { nullable: true, description: "The first view of the e-card page by its recipient; null until then, and for callers who see the confirmation page only (not an admin, staff, an API key with an orders scope or the order's owner)." })
  openedAt(@Root() item: OrderItem): Date | null {
    return this.service.isRedacted(item.order) ? null : item.openedAt;
  }

  @FieldResolver(() => Product, { nullable: true, description: 'The product, unless it was deleted since.' })
  product(@Ctx() ctx: RequestContext, @Root() item: OrderItem): Promise<Product | null> {
    return this.service.productOf(ctx, item);
  }
}
