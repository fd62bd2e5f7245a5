import { Field, GraphQLISODateTime, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';

/** Where a sale stands at a moment. */
export enum SaleState {
  SCHEDULED = 'scheduled',
  RUNNING = 'running',
  ENDED = 'ended',
}
registerEnumType(SaleState, {
  name: 'SaleState',
  description: 'SCHEDULED: it has not started; RUNNING: its prices are the shop\'s now; ENDED: it is over.',
  valuesConfig: {
    SCHEDULED: { description: 'Its start has not come yet.' },
    RUNNING: { description: "Between its start and its end: its prices are the shop's now." },
    ENDED: { description: 'Its end has passed.' },
  },
});

@ObjectType({ description: 'A product a sale names: its id and name.' })
export class SaleProduct {
  @Field(() => Int, { description: "The product's id." })
  id!: number;

  @Field(() => String, { description: "The product's name." })
  name!: string;
}

@ObjectType({ description: 'A scheduled sale (admins): a percentage or an amount off products and categories (with their subcategories) from its start until its end.' })
export class Sale {
  @Field(() => Int, { description: "The sale's id." })
  id!: number;

  @Field(() => String, { description: 'Its name (up to 120 characters), as orders and Sales figures remember it.' })
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

  @Field(() => SaleState, { description: 'Where it stands now.' })
  state!: SaleState;

  @Field(() => Int, { description: 'How many products it prices now (the lowest price of overlapping sales wins, so a product may be priced by another).' })
  pricedProducts!: number;

  @Field(() => GraphQLISODateTime, { description: 'When it was created.' })
  createdAt!: Date;
}

@InputType({ description: 'A scheduled sale: give exactly one of percentOff and amountOff, and at least one product or category.' })
export class SaleInput {
  @Field(() => String, { description: 'At most 120 characters.' })
  name!: string;

  @Field(() => Int, { nullable: true, description: '1 to 90.' })
  percentOff?: number | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'An amount off each product, in dollars (a price never goes below 0.01).' })
  amountOff?: string | null;

  @Field(() => [Int], { nullable: true, description: 'The products it is for, besides those of its categories.' })
  productIds?: number[] | null;

  @Field(() => [Int], { nullable: true, description: 'Each with its subcategories.' })
  categoryIds?: number[] | null;

  @Field(() => GraphQLISODateTime, { description: 'When its prices start (to the second).' })
  startsAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'After the start.' })
  endsAt!: Date;

  @Field(() => String, { nullable: true, description: 'At most 200 characters; shown in the announcement bar while the sale runs.' })
  banner?: string | null;
}

@ObjectType({ description: 'A sale running now, as shoppers see it: its name, its banner and its end.' })
export class RunningSale {
  @Field(() => String, { description: "The sale's name." })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Its line for the announcement bar; null: none.' })
  banner!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When its prices end.' })
  endsAt!: Date;
}
