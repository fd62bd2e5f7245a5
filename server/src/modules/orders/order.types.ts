import { ArgsType, Field } from 'type-graphql';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { Order } from './order.entity.js';

export const OrderConnection = Connection(Order, 'Order');

@ArgsType()
export class OrdersArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Words that must all appear in the order id, the e-mail, the status or an item name (any case).' })
  search?: string | null;
}
