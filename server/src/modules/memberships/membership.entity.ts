import { BigIntType, OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';

export enum MembershipPeriod {
  MONTH = 'month',
  YEAR = 'year',
}
registerEnumType(MembershipPeriod, {
  name: 'MembershipPeriod',
  description: 'MONTH or YEAR: how long a paid period lasts.',
  valuesConfig: {
    MONTH: { description: 'A calendar month.' },
    YEAR: { description: 'A calendar year.' },
  },
});

export enum MembershipStatus {
  INCOMPLETE = 'incomplete',
  ACTIVE = 'active',
  PAST_DUE = 'past_due',
  CANCELLED = 'cancelled',
  LAPSED = 'lapsed',
  EXPIRED = 'expired',
}
registerEnumType(MembershipStatus, {
  name: 'MembershipStatus',
  description:
    'INCOMPLETE: started, its first payment not confirmed yet (Stripe): no benefits until it is; ACTIVE: paid (cancelAtPeriodEnd says whether it renews); PAST_DUE: a renewal failed, the benefits stay for 7 days; CANCELLED: cancelled and its last period has ended; LAPSED: not paid within 7 days of a failed renewal; EXPIRED: its first payment was never made (it gave no benefits).',
  valuesConfig: {
    INCOMPLETE: { description: 'Started, its first payment not confirmed yet (Stripe): no benefits until it is.' },
    ACTIVE: { description: 'Paid for the current period; `cancelAtPeriodEnd` says whether it renews.' },
    PAST_DUE: { description: 'A renewal failed; the benefits stay for 7 days while it is retried.' },
    CANCELLED: { description: 'Cancelled, and its last paid period has ended.' },
    LAPSED: { description: 'Not paid within 7 days of a failed renewal.' },
    EXPIRED: { description: 'Its first payment was never made; it gave no benefits.' },
  },
});

/** A plan the owner sells: a price per month or year, e-cards included, a percentage off everything else. */
@ObjectType({ description: 'A membership plan.' })
@Entity({ tableName: 'membership_plan' })
export class MembershipPlan {
  [OptionalProps]?: 'ecardsIncluded' | 'percentOffOther' | 'active' | 'providerProductId' | 'providerPriceId' | 'providerPriceKey' | 'createdAt' | 'updatedAt';

  @Field(() => Int, { description: "The plan's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'Its name (up to 80 characters), unique.' })
  @Property({ type: 'string', length: 80 })
  name!: string;

  @Field(() => DecimalScalar, { description: 'What each period costs.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  price!: string;

  @Field(() => MembershipPeriod, { description: 'How long a paid period lasts.' })
  @Enum({ items: () => MembershipPeriod })
  period!: MembershipPeriod;

  @Field(() => Boolean, { description: "E-cards cost 0.00 at checkout while the membership lasts." })
  @Property({ type: 'boolean', default: true })
  ecardsIncluded: boolean = true;

  @Field(() => Int, { description: 'Percent off albums and collections (0 to 90).' })
  @Property({ type: 'smallint', default: 0 })
  percentOffOther: number = 0;

  @Field(() => Boolean, { description: 'Offered on /membership (an inactive plan keeps its members).' })
  @Property({ type: 'boolean', default: true })
  active: boolean = true;

  /** The provider's product for the plan (Stripe Billing), made on the first subscribe. */
  @Property({ type: 'string', length: 200, nullable: true })
  providerProductId: string | null = null;

  /** The provider's recurring price, made for the price and period `providerPriceKey` names. */
  @Property({ type: 'string', length: 200, nullable: true })
  providerPriceId: string | null = null;

  @Property({ type: 'string', length: 120, nullable: true })
  providerPriceKey: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When the plan was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** A shopper's membership of a plan: its paid period, whether it renews, and how its card is charged. */
@ObjectType({ description: "A shopper's membership." })
@Entity({ tableName: 'membership' })
export class Membership {
  [OptionalProps]?: 'paymentMethod' | 'cardLast4' | 'providerSubscriptionId' | 'cancelAtPeriodEnd' | 'pastDueSince' | 'remindedFor' | 'endedAt' | 'giftMembershipId' | 'gift' | 'createdAt' | 'updatedAt';

  @Field(() => Int, { description: "The membership's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Field(() => MembershipPlan, { description: 'The plan it is a membership of.' })
  @ManyToOne(() => MembershipPlan, { eager: true })
  plan!: MembershipPlan;

  @Field(() => MembershipStatus, { description: 'Where it stands.' })
  @Enum({ items: () => MembershipStatus })
  status!: MembershipStatus;

  @Property({ type: 'string', length: 40 })
  provider!: string;

  /** The provider's reference to the card renewals charge (never the card itself). */
  @Property({ type: 'string', length: 200, nullable: true })
  paymentMethod: string | null = null;

  @Field(() => String, { nullable: true, description: 'The last four digits of the card renewals charge.' })
  @Property({ type: 'character', length: 4, nullable: true })
  cardLast4: string | null = null;

  /** The provider's subscription when the provider renews it (Stripe Billing); null when the shop renews it on its own clock. */
  @Property({ type: 'string', length: 200, nullable: true })
  providerSubscriptionId: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When the period paid for began.' })
  @Property({ type: 'datetime' })
  currentPeriodStart!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When the period paid for ends: the next renewal, or the end of a cancelled membership.' })
  @Property({ type: 'datetime' })
  currentPeriodEnd!: Date;

  @Field(() => Boolean, { description: 'Cancelled: the benefits last until currentPeriodEnd and it does not renew.' })
  @Property({ type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean = false;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When a renewal failed (PAST_DUE).' })
  @Property({ type: 'datetime', nullable: true })
  pastDueSince: Date | null = null;

  /** The period end a yearly plan's reminder was sent for. */
  @Property({ type: 'datetime', nullable: true })
  remindedFor: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it ended (CANCELLED or LAPSED).' })
  @Property({ type: 'datetime', nullable: true })
  endedAt: Date | null = null;

  /** The gift it was redeemed from (a gift membership: no card, and it does not renew). */
  @Property({ type: 'integer', nullable: true })
  giftMembershipId: number | null = null;

  @Field(() => Boolean, { description: 'Given as a present: it lasts the period given and never renews or charges anything.' })
  get gift(): boolean {
    return this.giftMembershipId !== null;
  }

  @Field(() => GraphQLISODateTime, { description: 'When the shopper joined.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** One charge of a membership, paid or failed. */
@ObjectType({ description: 'A charge of a membership.' })
@Entity({ tableName: 'membership_charge' })
export class MembershipCharge {
  [OptionalProps]?: 'reference' | 'message' | 'createdAt';

  @Field(() => String, { description: "The charge's id (a 64-bit integer, as a string)." })
  @PrimaryKey({ type: new BigIntType('string') })
  id!: string;

  @Property({ type: 'integer' })
  membershipId!: number;

  @Field(() => DecimalScalar, { description: 'What was charged (or tried), in dollars.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  amount!: string;

  @Field(() => GraphQLISODateTime, { description: 'The start of the period it paid for.' })
  @Property({ type: 'datetime' })
  periodStart!: Date;

  @Field(() => GraphQLISODateTime, { description: 'The end of the period it paid for.' })
  @Property({ type: 'datetime' })
  periodEnd!: Date;

  @Field(() => String, { description: '"paid" or "failed".' })
  @Property({ type: 'string' })
  status!: 'paid' | 'failed';

  @Property({ type: 'string', length: 200, nullable: true })
  reference: string | null = null;

  @Field(() => String, { nullable: true, description: 'Why it failed.' })
  @Property({ type: 'text', nullable: true })
  message: string | null = null;

  @Property({ type: 'string', length: 120 })
  idempotencyKey!: string;

  @Field(() => GraphQLISODateTime, { description: 'When it was charged (or tried).' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
