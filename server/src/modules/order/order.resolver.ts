import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { loadRef } from '../../core/loaders.js';
import type { ConnectionResult } from '../../core/pagination.js';
import type { Services } from '../../services.js';
import { Product } from '../catalogue/product.entity.js';
import { OrderItem } from './order-item.entity.js';
import { Order } from './order.entity.js';
import type { CartQuote as CartQuoteResult } from './order.service.js';
import { CartLineInput, CartQuote, OrderConnection, OrdersArgs, PlaceOrderInput } from './order.types.js';

@Resolver(() => Order)
export class OrderResolver {
  constructor(private readonly services: Services) {}

  @Allow('storefront')
  @Query(() => CartQuote, { description: 'Prices a cart from the catalogue; lines of products that no longer exist are dropped and reported.' })
  cartQuote(@Ctx() ctx: RequestContext, @Arg('lines', () => [CartLineInput]) lines: CartLineInput[]): Promise<CartQuoteResult> {
    return this.services.orders.quote(ctx, lines);
  }

  @Allow('storefront')
  @Query(() => Order, { description: 'An order by its number (the confirmation page).' })
  order(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string): Promise<Order> {
    return this.services.orders.get(ctx, id);
  }

  @Allow('admin')
  @Query(() => OrderConnection, { description: 'Orders, newest first, optionally searched. `first` may be up to 1000.' })
  orders(@Ctx() ctx: RequestContext, @Args(() => OrdersArgs) args: OrdersArgs): Promise<ConnectionResult<Order>> {
    return this.services.orders.search(ctx, args);
  }

  @Allow('storefront')
  @Mutation(() => Order, { description: 'Pays for a cart and places the order. PAYMENT_DECLINED when the payment is refused; the same idempotency key never places a second order.' })
  placeOrder(@Ctx() ctx: RequestContext, @Arg('input', () => PlaceOrderInput) input: PlaceOrderInput): Promise<Order> {
    return this.services.orders.place(ctx, input);
  }

  @Allow('admin')
  @Mutation(() => OrderItem, { description: "Sends an e-card's e-mail to its recipient again." })
  resendCardEmail(@Ctx() ctx: RequestContext, @Arg('itemId', () => Int) itemId: number): Promise<OrderItem> {
    return this.services.orders.resendCard(ctx, itemId);
  }

  @FieldResolver(() => [OrderItem])
  items(@Ctx() ctx: RequestContext, @Root() order: Order): Promise<OrderItem[]> {
    return this.services.orders.itemsOf(ctx, order);
  }
}

@Resolver(() => OrderItem)
export class OrderItemResolver {
  @FieldResolver(() => Product, { nullable: true, description: 'The product, unless it was deleted since.' })
  product(@Ctx() ctx: RequestContext, @Root() item: OrderItem): Promise<Product | null> {
    return loadRef(ctx, Product, item.product);
  }
}
