import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { asksFor } from '../../core/selection.js';
import { Order } from '../orders/index.js';
import { Product, readProductsIn } from '../catalogue/index.js';
import type { CartQuote as CartQuoteResult, CartQuoteLine as CartQuoteLineResult, CheckoutService, QuotedProduct } from './checkout.service.js';
import { CartLineInput, CartQuote, CartQuoteLine, PaymentSetup, PlaceOrderInput } from './checkout.types.js';

@Resolver()
export class CheckoutResolver {
  constructor(private readonly checkout: CheckoutService) {}

  @Allow('storefront')
  @Query(() => CartQuote, { description: 'Prices a cart from the catalogue; lines of products that no longer exist are dropped and reported.' })
  cartQuote(
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
    @Arg('lines', () => [CartLineInput], { description: 'The cart, up to 50 lines.' }) lines: CartLineInput[],
    @Arg('discountCode', () => String, { nullable: true, description: 'A discount code to price the cart with; one that cannot be used is BAD_USER_INPUT on discountCode, saying why.' }) discountCode?: string | null,
    @Arg('locale', () => String, { nullable: true, description: "The language of the lines' product names: en (the default), de, fr or es; English where a name is not translated. BAD_USER_INPUT for another." }) locale?: string | null,
  ): Promise<CartQuoteResult<QuotedProduct>> {
    readProductsIn(ctx, locale);
    return this.checkout.quote(ctx, lines, discountCode, { withProducts: asksFor(info, ['lines', 'product']) });
  }

  @Allow('storefront')
  @Query(() => PaymentSetup, { description: 'Whether checkout takes payments (the payment page says so when it does not).' })
  paymentSetup(): PaymentSetup {
    return this.checkout.paymentSetup();
  }

  @Allow('storefront')
  @Mutation(() => Order, { description: 'Pays for a cart and places the order. PAYMENT_DECLINED when the payment is refused; the same idempotency key never places a second order.' })
  placeOrder(@Ctx() ctx: RequestContext, @Arg('input', () => PlaceOrderInput, { description: 'The cart, the purchaser, the payment and the idempotency key.' }) input: PlaceOrderInput): Promise<Order> {
    return this.checkout.place(ctx, input);
  }
}

@Resolver(() => CartQuoteLine)
export class CartQuoteLineResolver {
  constructor(private readonly checkout: CheckoutService) {}

  @FieldResolver(() => Product, { description: 'The product as the shop shows it (read only when asked for, in one query for every line).' })
  product(@Ctx() ctx: RequestContext, @Root() line: CartQuoteLineResult<QuotedProduct>): Promise<Product> {
    return this.checkout.productOf(ctx, line.product);
  }
}
