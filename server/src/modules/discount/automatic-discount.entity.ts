import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { DiscountKind } from '../orders/index.js';

/**
 * A discount without a code, of one of two kinds: "N or more cards: P % off the cards" (`minCards`,
 * `percentOff`; a card line counts its recipients) or "orders from X: Y off" (`minSubtotal`,
 * `amountOff`). Of those that apply to a cart the one that takes the most off applies, unless a code
 * takes more.
 */
@ObjectType({ description: 'An automatic discount (admins): no code, it applies to every cart that qualifies.' })
@Entity({ tableName: 'automatic_discount' })
export class AutomaticDiscount {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'minCards' | 'percentOff' | 'minSubtotal' | 'amountOff' | 'startsAt' | 'endsAt' | 'kind';

  @Field(() => Int, { description: "The discount's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'What shoppers see in the cart, e.g. "3 cards, 15 % off".' })
  @Property({ type: 'string', length: 120 })
  name!: string;

  @Field(() => DiscountKind, { description: 'CARDS: N or more cards, P % off the cards; SUBTOTAL: orders from X, Y off.' })
  get kind(): DiscountKind {
    return this.minCards !== null ? DiscountKind.CARDS : DiscountKind.SUBTOTAL;
  }

  @Field(() => Int, { nullable: true, description: 'CARDS: how many cards (recipients) a cart needs.' })
  @Property({ type: 'integer', nullable: true })
  minCards: number | null = null;

  @Field(() => Int, { nullable: true, description: 'CARDS: the percentage off the cards (1 to 100).' })
  @Property({ type: 'integer', nullable: true })
  percentOff: number | null = null;

  @Field(() => DecimalScalar, { nullable: true, description: 'SUBTOTAL: the subtotal a cart needs.' })
  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  minSubtotal: string | null = null;

  @Field(() => DecimalScalar, { nullable: true, description: 'SUBTOTAL: the amount off (never more than the cart).' })
  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  amountOff: string | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Applies from (null: at once).' })
  @Property({ type: 'datetime', nullable: true })
  startsAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Applies until, exclusive (null: no end).' })
  @Property({ type: 'datetime', nullable: true })
  endsAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
