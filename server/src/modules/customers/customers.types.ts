import { ArgsType, Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { Connection, ConnectionArgs } from '../../core/pagination.js';

export enum CustomerSort {
  NEWEST = 'newest',
  NAME = 'name',
  EMAIL = 'email',
  ORDERS = 'orders',
  SPENT = 'spent',
  LAST_ORDER = 'last_order',
}

registerEnumType(CustomerSort, {
  name: 'CustomerSort',
  description: 'What the Customers list is sorted by (each through an index, any size).',
  valuesConfig: {
    NEWEST: { description: 'When the account was made (newest first by default).' },
    NAME: { description: 'The username, ignoring case (A to Z by default).' },
    EMAIL: { description: 'The e-mail address (A to Z by default).' },
    ORDERS: { description: 'How many orders it paid (most first by default).' },
    SPENT: { description: 'What it spent, less refunds (most first by default).' },
    LAST_ORDER: { description: 'Its latest order (most recent first by default; accounts without orders last).' },
  },
});

/** A shopper's account as the Customers view shows it. */
@ObjectType({ description: "A shopper's account with its orders at a glance (admins and staff)." })
export class Customer {
  @Field(() => Int, { description: "The account's user id." })
  id!: number;

  @Field(() => String, { description: 'The username.' })
  username!: string;

  @Field(() => String, { description: 'The e-mail address, in lower case.' })
  email!: string;

  @Field(() => GraphQLISODateTime, { description: 'When the account was made.' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the e-mail address was confirmed; null while it is not.' })
  emailConfirmedAt!: Date | null;

  @Field(() => Boolean, { description: 'Whether the e-mail address is confirmed.' })
  get confirmed(): boolean {
    return this.emailConfirmedAt !== null;
  }

  @Field(() => Int, { description: 'Orders paid from the account (refunded ones included).' })
  ordersCount!: number;

  @Field(() => DecimalScalar, { description: 'What the account paid, less refunds.' })
  totalSpent!: string;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When its latest paid order was placed; null: none yet.' })
  lastOrderAt!: Date | null;
}

export const CustomerConnection = Connection(Customer, 'Customer');

@ArgsType()
export class CustomersArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Words that must all appear in the username or the e-mail address (any case).' })
  search?: string | null;

  @Field(() => CustomerSort, { nullable: true, defaultValue: CustomerSort.NEWEST, description: 'The column to sort by (NEWEST unless asked).' })
  sort?: CustomerSort | null;

  @Field(() => Boolean, { nullable: true, description: 'Largest (or newest, or Z) first; default: true for NEWEST, ORDERS, SPENT and LAST_ORDER, false for NAME and EMAIL.' })
  descending?: boolean | null;
}
