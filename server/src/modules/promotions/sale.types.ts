import { Field, GraphQLISODateTime, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';

/** Where a sale stands at a moment. */
export enum SaleState {
  SCHEDULED = 'scheduled',
  RUNNING = 'running',
  ENDED = 'ended',
}
registerEnumType(SaleState, { name: 'SaleState', description: 'SCHEDULED: it has not started; RUNNING: its prices are the shop\'s now; ENDED: it is over.' });

@ObjectType({ description: 'A product a sale names: its id and name.' })
export class SaleProduct {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  name!: string;
}

@ObjectType({ description: 'A scheduled sale (admins): a percentage or an amount off products and categories (with their subcategories) from its start until its end.' })
export class Sale {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  name!: string;

  @Field(() => Int, { nullable: true, description: '1 to 90; set when the sale takes a percentage off.' })
  percentOff!: number | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Set when the sale takes an amount off each product (a price never goes below 0.01).' })
  amountOff!: string | null;

  @Field(() => [Int], { description: 'The products it is for, besides those of its categories.' })
  productIds!: number[];

  @Field(() => [SaleProduct], { description: 'The products it names, by name (read with the sale, in the same statement).' })
  products!: SaleProduct[];

  @Field(() => [Int], { description: 'The categories it is for, each with its subcategories.' })
  categoryIds!: number[];

  @Field(() => GraphQLISODateTime, { description: 'When its prices start (to the second).' })
  startsAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When its prices end (exclusive).' })
  endsAt!: Date;

  @Field(() => String, { nullable: true, description: 'Shown in the shop\'s announcement bar while it runs.' })
  banner!: string | null;

  @Field(() => SaleState)
  state!: SaleState;

  @Field(() => Int, { description: 'How many products it prices now (the lowest price of overlapping sales wins, so a product may be priced by another).' })
  pricedProducts!: number;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@InputType({ description: 'A scheduled sale: give exactly one of percentOff and amountOff, and at least one product or category.' })
export class SaleInput {
  @Field(() => String, { description: 'At most 120 characters.' })
  name!: string;

  @Field(() => Int, { nullable: true, description: '1 to 90.' })
  percentOff?: number | null;

  @Field(() => DecimalScalar, { nullable: true })
  amountOff?: string | null;

  @Field(() => [Int], { nullable: true })
  productIds?: number[] | null;

  @Field(() => [Int], { nullable: true, description: 'Each with its subcategories.' })
  categoryIds?: number[] | null;

  @Field(() => GraphQLISODateTime)
  startsAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'After the start.' })
  endsAt!: Date;

  @Field(() => String, { nullable: true, description: 'At most 200 characters; shown in the announcement bar while the sale runs.' })
  banner?: string | null;
}

@ObjectType({ description: 'A sale running now, as shoppers see it: its name, its banner and its end.' })
export class RunningSale {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  banner!: string | null;

  @Field(() => GraphQLISODateTime)
  endsAt!: Date;
}
