import { BigIntType, Collection, OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, OneToMany, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';

export enum GiftCardStatus {
  ACTIVE = 'active',
  VOIDED = 'voided',
}
registerEnumType(GiftCardStatus, {
  name: 'GiftCardStatus',
  description: 'ACTIVE: its balance can be spent; VOIDED: an admin voided it (its balance is gone).',
  valuesConfig: {
    ACTIVE: { description: 'Its balance can be spent.' },
    VOIDED: { description: 'Voided (by an admin, or because the order that bought it was refunded): its balance is gone.' },
  },
});

export enum GiftCardSource {
  ISSUED = 'issued',
  PURCHASED = 'purchased',
}
registerEnumType(GiftCardSource, {
  name: 'GiftCardSource',
  description: 'ISSUED: an admin issued it; PURCHASED: a shopper bought it.',
  valuesConfig: {
    ISSUED: { description: 'An admin issued it, with a reason.' },
    PURCHASED: { description: 'A shopper bought it in an order, for its recipient.' },
  },
});

export enum GiftCardEntryKind {
  ISSUED = 'issued',
  REDEEMED = 'redeemed',
  RELEASED = 'released',
  REFUNDED = 'refunded',
  ADJUSTED = 'adjusted',
  VOIDED = 'voided',
}
registerEnumType(GiftCardEntryKind, {
  name: 'GiftCardEntryKind',
  description: 'ISSUED: its first balance; REDEEMED: an order spent it; RELEASED: an order that was never paid gave it back; REFUNDED: a refund put it back; ADJUSTED: an admin changed the balance; VOIDED: an admin voided it.',
  valuesConfig: {
    ISSUED: { description: 'Its first balance, when it was issued or bought.' },
    REDEEMED: { description: 'An order spent some of it.' },
    RELEASED: { description: 'An order that was never paid gave back what it had taken.' },
    REFUNDED: { description: 'A refund put back what an order had spent.' },
    ADJUSTED: { description: 'An admin added to or took from the balance.' },
    VOIDED: { description: 'The card was voided: its balance went to 0.' },
  },
});

/**
 * A gift card: a balance in the shop's currency known by a 16-character code, of which only a
 * SHA-256 digest and the last four characters are kept. The balance changes only with a ledger
 * entry beside it (GiftCardEntry), and never goes below 0 (a CHECK in the database).
 */
@ObjectType({ description: 'A gift card (admins): its balance and where it came from; never its code.' })
@Entity({ tableName: 'gift_card' })
export class GiftCard {
  [OptionalProps]?: 'currency' | 'status' | 'reason' | 'recipientEmail' | 'orderId' | 'expiresAt' | 'createdAt' | 'updatedAt' | 'orderItemId' | 'designPath' | 'senderName' | 'recipientName' | 'message';

  @Field(() => Int, { description: "The gift card's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  /** SHA-256 of the code as shoppers type it once normalised (capitals, no dashes or spaces). */
  @Property({ type: 'character', length: 64 })
  codeDigest!: string;

  @Field(() => String, { description: 'The last four characters of its code (all that is kept of it besides a digest).' })
  @Property({ type: 'character', length: 4 })
  last4!: string;

  @Field(() => DecimalScalar, { description: 'What it held when it was issued or bought.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  initialAmount!: string;

  @Field(() => DecimalScalar, { description: 'What can still be spent (0.00 once voided).' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  balance!: string;

  @Field(() => String, { description: 'ISO 4217 code of its currency.' })
  @Property({ type: 'character', length: 3, default: 'USD' })
  currency: string = 'USD';

  @Field(() => GiftCardStatus, { description: 'Whether it can be spent.' })
  @Enum({ items: () => GiftCardStatus, default: GiftCardStatus.ACTIVE })
  status: GiftCardStatus = GiftCardStatus.ACTIVE;

  @Field(() => GiftCardSource, { description: 'Whether an admin issued it or a shopper bought it.' })
  @Enum({ items: () => GiftCardSource })
  source!: GiftCardSource;

  @Field(() => String, { nullable: true, description: 'Why an admin issued it.' })
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Field(() => String, { nullable: true, description: 'Who it was sent to, when it was sent.' })
  @Property({ type: 'string', length: 254, nullable: true })
  recipientEmail: string | null = null;

  @Field(() => String, { nullable: true, description: 'The order that bought it, when a shopper did.' })
  @Property({ type: 'uuid', nullable: true })
  orderId: string | null = null;

  /** The order line that bought it. */
  @Property({ type: 'integer', nullable: true })
  orderItemId: number | null = null;

  @Field(() => String, { nullable: true, description: "A bought card's design: the path of its product's picture." })
  @Property({ type: 'string', length: 500, nullable: true })
  designPath: string | null = null;

  @Field(() => String, { nullable: true, description: 'Who bought it for its recipient.' })
  @Property({ type: 'string', length: 100, nullable: true })
  senderName: string | null = null;

  @Field(() => String, { nullable: true, description: 'Who a bought card is for; null for an issued one.' })
  @Property({ type: 'string', length: 100, nullable: true })
  recipientName: string | null = null;

  @Field(() => String, { nullable: true, description: "The buyer's message to its recipient." })
  @Property({ type: 'text', nullable: true })
  message: string | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it stops being accepted (null: never).' })
  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was issued or bought.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @OneToMany(() => GiftCardEntry, (entry) => entry.giftCard, { orderBy: { id: 'asc' } })
  entries = new Collection<GiftCardEntry>(this);
}

/** One change of a gift card's balance, with the order, the person and the reason behind it. */
@ObjectType({ description: "One change of a gift card's balance." })
@Entity({ tableName: 'gift_card_entry' })
export class GiftCardEntry {
  [OptionalProps]?: 'orderId' | 'reason' | 'actor' | 'createdAt';

  @Field(() => String, { description: "The entry's id (a 64-bit integer, as a string)." })
  @PrimaryKey({ type: new BigIntType('string') })
  id!: string;

  @ManyToOne(() => GiftCard, { deleteRule: 'cascade' })
  giftCard!: GiftCard;

  @Field(() => GiftCardEntryKind, { description: 'What changed the balance.' })
  @Enum({ items: () => GiftCardEntryKind })
  kind!: GiftCardEntryKind;

  @Field(() => DecimalScalar, { description: 'The change: positive when money came onto the card, negative when it left it.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  amount!: string;

  @Field(() => DecimalScalar, { description: 'The balance after this change.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  balanceAfter!: string;

  @Field(() => String, { nullable: true, description: 'The order that spent it or was refunded.' })
  @Property({ type: 'uuid', nullable: true })
  orderId: string | null = null;

  @Field(() => String, { nullable: true, description: 'Why an admin issued, adjusted or voided it.' })
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Field(() => String, { nullable: true, description: 'Who made the change (an admin\'s username; null: a shopper or the shop).' })
  @Property({ type: 'string', length: 120, nullable: true })
  actor: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When the change was made.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
