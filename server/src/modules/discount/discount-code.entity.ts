import { ArrayType, OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';

/** An int[] column as numbers. */
const idArray = () => new ArrayType<number>((value) => Number(value), (value) => String(value));

/**
 * A discount code: a percentage or an amount off an order, valid from `startsAt` until `endsAt`, at
 * most `maxUses` times, with its rules (products and categories, a minimum subtotal, once per
 * customer, a first order only). Codes are unique whatever their case (a unique index on lower(code)).
 */
@ObjectType({ description: 'A discount code (admins).' })
@Entity({ tableName: 'discount_code' })
export class DiscountCode {
  [OptionalProps]?: 'uses' | 'createdAt' | 'updatedAt' | 'percentOff' | 'amountOff' | 'startsAt' | 'endsAt' | 'maxUses' | 'productIds' | 'categoryIds' | 'minSubtotal' | 'oncePerCustomer' | 'firstOrderOnly';

  @Field(() => Int, { description: "The code's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'As the admin wrote it; shoppers may type it in any case.' })
  @Property({ type: 'string', length: 40 })
  code!: string;

  @Field(() => Int, { nullable: true, description: '1 to 100; set when the code takes a percentage off.' })
  @Property({ type: 'integer', nullable: true })
  percentOff: number | null = null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Set when the code takes an amount off (never more than the order).' })
  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  amountOff: string | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Valid from (null: at once).' })
  @Property({ type: 'datetime', nullable: true })
  startsAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Valid until, exclusive (null: no end).' })
  @Property({ type: 'datetime', nullable: true })
  endsAt: Date | null = null;

  @Field(() => Int, { nullable: true, description: 'How many orders may use it (null: no limit).' })
  @Property({ type: 'integer', nullable: true })
  maxUses: number | null = null;

  @Field(() => [Int], { description: 'The products it takes its discount off (with those of categoryIds); empty with no categories either: the whole order.' })
  @Property({ type: idArray(), columnType: 'int[]' })
  productIds: number[] = [];

  @Field(() => [Int], { description: 'The categories whose products (subcategories included) it takes its discount off.' })
  @Property({ type: idArray(), columnType: 'int[]' })
  categoryIds: number[] = [];

  @Field(() => DecimalScalar, { nullable: true, description: 'The subtotal a cart needs for the code (null: none).' })
  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  minSubtotal: string | null = null;

  @Field(() => Boolean, { description: 'Each customer (an account, and a purchaser e-mail address) may use it once.' })
  @Property({ type: 'boolean', default: false })
  oncePerCustomer: boolean = false;

  @Field(() => Boolean, { description: 'For a customer (account or e-mail address) without an earlier paid order.' })
  @Property({ type: 'boolean', default: false })
  firstOrderOnly: boolean = false;

  @Field(() => Int, { description: 'Orders that used it so far.' })
  @Property({ type: 'integer', default: 0 })
  uses: number = 0;

  @Field(() => GraphQLISODateTime, { description: 'When it was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
