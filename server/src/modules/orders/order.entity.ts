import { Collection, OptionalProps } from '@mikro-orm/core';
import { Check, Entity, Enum, Index, ManyToOne, OneToMany, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { fromCents, toCents } from '../../core/money.js';
import { User } from '../auth/index.js';
import { OrderItem } from './order-item.entity.js';
import { DEFAULT_LOCALE, orderNumber, type Locale } from '../../rules/index.js';

export enum OrderStatus {
  PENDING = 'pending',
  PAID = 'paid',
  DELIVERED = 'delivered',
  /** Some of its cards (lines) were refunded; the rest stand. */
  PARTIALLY_REFUNDED = 'partially_refunded',
  CANCELLED = 'cancelled',
  REFUNDED = 'refunded',
}

registerEnumType(OrderStatus, {
  name: 'OrderStatus',
  description: 'paid: charged, cards waiting for their day; delivered: every card (or the receipt of a card-less order) has gone out; partially_refunded: some of its lines were refunded; refunded: all of it was.',
  valuesConfig: {
    PENDING: { description: 'Written at checkout, its payment not settled yet (e.g. a card being confirmed with Stripe). Not listed to shoppers; dropped after 30 minutes.' },
    PAID: { description: 'Charged; its cards wait for their day.' },
    DELIVERED: { description: 'Every card (or the receipt of an order without cards) has gone out.' },
    PARTIALLY_REFUNDED: { description: 'Some of its lines were refunded; the rest stand.' },
    CANCELLED: { description: 'A checkout left unpaid for 30 minutes after a payment was started: the payment was cancelled at the provider and nothing was charged.' },
    REFUNDED: { description: 'All of it was refunded.' },
  },
});

/** Which discount an order (or a cart's quote) got. */
export enum DiscountKind {
  /** A discount code. */
  CODE = 'code',
  /** An automatic discount "N or more cards: P % off the cards". */
  CARDS = 'cards',
  /** An automatic discount "orders from X: Y off". */
  SUBTOTAL = 'subtotal',
}

registerEnumType(DiscountKind, {
  name: 'DiscountKind',
  description: 'CODE: a discount code; CARDS: an automatic discount on N or more cards; SUBTOTAL: an automatic discount on orders from an amount.',
  valuesConfig: {
    CODE: { description: 'A discount code the shopper typed.' },
    CARDS: { description: 'An automatic discount: N or more e-cards, a percentage off the cards.' },
    SUBTOTAL: { description: 'An automatic discount: orders from an amount, an amount off.' },
  },
});

/**
 * A placed order. Its id is a UUID (it appears in the confirmation address); `search_text` is kept by
 * the database from the id, the e-mail, the status and the item names so that the admin search is
 * one indexed column whatever changes.
 */
@ObjectType({ description: 'A placed and paid order.' })
@Entity({ tableName: 'order' })
@Check({ name: 'order_total_not_negative', expression: 'total >= 0' })
@Index({ name: 'order_newest_index', expression: 'create index "order_newest_index" on "order" ("created_at" desc, "id" desc)' })
@Index({ name: 'order_search_index', expression: 'create index "order_search_index" on "order" using gin ("search_text" gin_trgm_ops)' })
export class Order {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'status' | 'user' | 'cardLast4' | 'cardBrand' | 'paymentReference' | 'receiptSentAt' | 'searchText' | 'notifyOpened' | 'discountCode' | 'discountAmount' | 'discountName' | 'discountKind' | 'refundedAt' | 'refundedAmount' | 'refundReason' | 'giftCardAmount' | 'giftCardLast4' | 'membershipId' | 'locale';

  @Field(() => ID, { description: 'The order\'s id (a UUID).' })
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Field(() => String, { description: 'The order number shoppers see (confirmation page, e-mails, My orders): the first 8 characters of the id, in capitals. The admin search finds an order by it.' })
  get number(): string {
    return orderNumber(this.id);
  }

  /** Exposed by OrderResolver, masked for callers who see the confirmation page only. */
  @Property({ type: 'string', length: 254 })
  purchaserEmail!: string;

  @Field(() => OrderStatus, { description: 'Where the order stands: paid, delivered, refunded, ...' })
  @Enum({ items: () => OrderStatus })
  status: OrderStatus = OrderStatus.PENDING;

  @Field(() => DecimalScalar, { description: 'What was charged, exact.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  total!: string;

  /** The signed-in shopper who placed it, if any. */
  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  user: User | null = null;

  @Field(() => String, { description: 'The payment provider that took the payment ("test" built in).' })
  @Property({ type: 'string', length: 40 })
  paymentProvider!: string;

  /** The provider's charge id, for refunds and disputes; null while the order is pending. */
  @Property({ type: 'string', length: 200, nullable: true })
  paymentReference: string | null = null;

  @Field(() => String, { nullable: true, description: 'The last four digits of the card; nothing else of it is kept.' })
  @Property({ type: 'character', length: 4, nullable: true })
  cardLast4: string | null = null;

  @Field(() => String, { nullable: true, description: 'The brand of the card that paid, as the payment provider names it (e.g. "Visa"); null when it was not told or nothing was charged.' })
  @Property({ type: 'string', length: 40, nullable: true })
  cardBrand: string | null = null;

  /** A retry with the same key gets this order back instead of a second one. */
  @Unique({ name: 'order_idempotency_key_unique' })
  @Property({ type: 'string', length: 100 })
  idempotencyKey!: string;

  /** A digest of what was asked for, to refuse reusing a key for a different order. */
  @Property({ type: 'string', length: 64 })
  requestHash!: string;

  /** The item names, lower case, for the search. */
  @Property({ type: 'text', lazy: true })
  itemNames!: string;

  @Property({
    type: 'text',
    lazy: true,
    generated: `(lower("id"::text || ' ' || "purchaser_email" || ' ' || "status"::text || ' ' || "item_names")) stored`,
  })
  searchText?: string;

  @Field(() => String, { nullable: true, description: 'The discount code the order used, as the shop spells it.' })
  @Property({ type: 'string', length: 40, nullable: true })
  discountCode: string | null = null;

  @Field(() => DecimalScalar, { description: 'What the discount (a code or an automatic discount) took off (0.00 without one); the total is after it.' })
  @Property({ type: 'decimal', precision: 12, scale: 2, default: '0' })
  discountAmount: string = '0.00';

  @Field(() => String, { nullable: true, description: 'The discount that applied, by name: the code as the shop spells it, or the automatic discount\'s name.' })
  @Property({ type: 'string', length: 120, nullable: true })
  discountName: string | null = null;

  @Field(() => DiscountKind, { nullable: true, description: 'Which kind of discount applied (null: none).' })
  @Enum({ items: () => DiscountKind, nullable: true })
  discountKind: DiscountKind | null = null;

  @Field(() => DecimalScalar, { description: 'What a gift card paid of the total (0.00 without one).' })
  @Property({ type: 'decimal', precision: 12, scale: 2, default: '0' })
  giftCardAmount: string = '0.00';

  @Field(() => String, { nullable: true, description: 'The last four characters of the gift card that paid part of it.' })
  @Property({ type: 'character', length: 4, nullable: true })
  giftCardLast4: string | null = null;

  @Field(() => Int, { nullable: true, description: "The membership that priced it (its e-cards free, a percentage off the rest)." })
  @Property({ type: 'integer', nullable: true })
  membershipId: number | null = null;

  @Field(() => DecimalScalar, { description: 'What the payment provider was charged: the total less what a gift card paid.' })
  get chargedAmount(): string {
    return fromCents(toCents(this.total) - toCents(this.giftCardAmount));
  }

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the order was refunded (the last refund, for a partly refunded one).' })
  @Property({ type: 'datetime', nullable: true })
  refundedAt: Date | null = null;

  @Field(() => DecimalScalar, { description: 'What was given back so far (0.00 when nothing was); at most the total.' })
  @Property({ type: 'decimal', precision: 12, scale: 2, default: '0' })
  refundedAmount: string = '0.00';

  @Property({ type: 'datetime', nullable: true })
  receiptSentAt: Date | null = null;

  /** Why it was refunded, as the shop's people wrote it (each refund's reason, joined); shown to admins and staff alone. */
  @Property({ type: 'text', nullable: true })
  refundReason: string | null = null;

  /** "Tell me when my card is opened": the first opening of each card e-mails the purchaser. */
  @Field(() => Boolean, { description: 'Whether the first opening of each card e-mails the purchaser.' })
  @Property({ type: 'boolean', default: true })
  notifyOpened: boolean = true;

  @Field(() => String, { description: 'The language it was bought in (en, de, fr, es): its receipt, its cards\' e-mails, pages and reminders speak it.' })
  @Property({ type: 'string', length: 2, default: DEFAULT_LOCALE })
  locale: Locale = DEFAULT_LOCALE;

  @Field(() => GraphQLISODateTime, { description: 'When the order was placed.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @OneToMany(() => OrderItem, (item) => item.order, { orderBy: { position: 'asc' } })
  items = new Collection<OrderItem>(this);
}
