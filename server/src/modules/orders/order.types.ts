import { ArgsType, Field } from 'type-graphql';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { Order, OrderStatus } from './order.entity.js';

export const OrderConnection = Connection(Order, 'Order');

@ArgsType()
export class OrdersArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Words that must all appear in the order id, the e-mail, the status or an item name (any case).' })
  search?: string | null;

  @Field(() => OrderStatus, { nullable: true, description: 'Only orders with this status; every status when left out.' })
  status?: OrderStatus | null;

  @Field(() => String, { nullable: true, description: 'Orders placed from this day (YYYY-MM-DD, UTC) or moment (ISO 8601), inclusive.' })
  from?: string | null;

  @Field(() => String, { nullable: true, description: 'Orders placed up to this day (the whole day, UTC) or moment, inclusive.' })
  to?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only orders with an e-mail that failed for good.' })
  failedEmail?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Only orders with a group card.' })
  group?: boolean | null;
}
