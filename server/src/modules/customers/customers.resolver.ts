import { Arg, Args, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import { ConnectionArgs, type ConnectionResult } from '../../core/pagination.js';
import { OrderConnection, type Order } from '../orders/index.js';
import type { CustomersService } from './customers.service.js';
import type { MembershipService } from '../memberships/index.js';
import { Customer, CustomerConnection, CustomersArgs } from './customers.types.js';

@Resolver(() => Customer)
export class CustomersResolver {
  constructor(
    private readonly service: CustomersService,
    private readonly memberships: Pick<MembershipService, 'currentPlanOf'>,
  ) {}

  @FieldResolver(() => String, { nullable: true, description: "The plan of the customer's current membership; null: not a member." })
  membership(@Ctx() ctx: RequestContext, @Root() customer: Customer): Promise<string | null> {
    return this.memberships.currentPlanOf(ctx, customer.id);
  }

  @Allow('staff', 'customers:read')
  @Query(() => CustomerConnection, { description: "The shop's customers (shopper accounts), searched by name or e-mail, sorted by any column." })
  customers(@Ctx() ctx: RequestContext, @Args(() => CustomersArgs) args: CustomersArgs): Promise<ConnectionResult<Customer>> {
    return this.service.list(ctx, args);
  }

  @Allow('staff', 'customers:read')
  @Query(() => Customer, { description: 'One customer; NOT_FOUND for an unknown id or an account that is not a shopper’s.' })
  customer(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The account's user id." }) id: number): Promise<Customer> {
    return this.service.get(ctx, id);
  }

  @FieldResolver(() => OrderConnection, { description: "The customer's orders, newest first." })
  orders(@Ctx() ctx: RequestContext, @Root() customer: Customer, @Args(() => ConnectionArgs) args: ConnectionArgs): Promise<ConnectionResult<Order>> {
    return this.service.ordersOf(ctx, customer.id, args);
  }
}
