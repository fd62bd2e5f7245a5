import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';

/**
 * A discount code: a percentage or an amount off an order, valid from `startsAt` until `endsAt`, at
 * most `maxUses` times. Codes are unique whatever their case (a unique index on lower(code)).
 */
@ObjectType({ description: 'A discount code (admins).' })
@Entity({ tableName: 'discount_code' })
export class DiscountCode {
  [OptionalProps]?: 'uses' | 'createdAt' | 'updatedAt' | 'percentOff' | 'amountOff' | 'startsAt' | 'endsAt' | 'maxUses';

  @Field(() => Int)
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

  @Field(() => Int, { description: 'Orders that used it so far.' })
  @Property({ type: 'integer', default: 0 })
  uses: number = 0;

  @Field(() => GraphQLISODateTime)
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
