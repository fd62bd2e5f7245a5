import { OptionalProps } from '@mikro-orm/core';
import { Check, Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { DecimalScalar } from '../../core/decimal.js';
import { multiply } from '../../core/money.js';
import { Product } from '../catalogue/index.js';
import { Order } from './order.entity.js';
import type { CardDesign } from './card-design.js';

/**
 * One line of an order, as sold: name and price are copied from the product at the time of sale, and
 * an e-card keeps a copy of its design (`card`) so that later edits of the product never change a
 * card someone already bought.
 */
@ObjectType({ description: 'A line of an order, as sold.' })
@Entity({ tableName: 'order_item' })
@Check({ name: 'order_item_quantity_positive', expression: 'quantity between 1 and 99' })
@Unique({ name: 'order_item_order_position_unique', properties: ['order', 'position'] })
export class OrderItem {
  [OptionalProps]?: 'product' | 'itemUrlUuid' | 'recipientName' | 'recipientEmail' | 'senderName' | 'message' | 'deliverAt' | 'timeZone' | 'card' | 'deliveredAt' | 'openedAt' | 'lineTotal' | 'ecardPath' | 'remindedAt' | 'refundedAt' | 'ownerResends' | 'giftCard' | 'giftMembershipPlanId' | 'giftMembership';

  @Field(() => Int, { description: "The line's id (what card actions such as `resendCardEmail` and `refundOrder(itemIds)` name)." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Order;

  @Property({ type: 'smallint' })
  position!: number;

  /** Null once the product is deleted; the item keeps its name and price. */
  @Index({ name: 'order_item_product_id_index' })
  @ManyToOne(() => Product, { nullable: true, deleteRule: 'set null' })
  product: Product | null = null;

  @Field(() => String, { description: 'The product name as sold.' })
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Field(() => DecimalScalar, { description: 'The unit price as sold.' })
  @Property({ type: 'decimal', precision: 12, scale: 2 })
  price!: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'The unit price it was compared with when sold (the regular price a sale lowered, or the compare-at price), shown struck through; null for none.' })
  @Property({ type: 'decimal', precision: 12, scale: 2, nullable: true })
  compareAtPrice: string | null = null;

  /** The scheduled sale that priced it (null once that sale is deleted; its name stays). */
  @Property({ type: 'integer', nullable: true })
  saleId: number | null = null;

  @Field(() => String, { nullable: true, description: 'The name of the sale that priced it, as it was then.' })
  @Property({ type: 'string', length: 120, nullable: true })
  saleName: string | null = null;

  @Field(() => Int, { description: 'How many, 1 to 99 (an e-card line is one card to one recipient: 1).' })
  @Property({ type: 'smallint' })
  quantity!: number;

  @Field(() => String, { nullable: true, description: 'E-cards only: the card is at `/ecards/{itemUrlUuid}.html`.' })
  @Unique({ name: 'order_item_item_url_uuid_unique' })
  @Property({ type: 'uuid', nullable: true })
  itemUrlUuid: string | null = null;

  @Field(() => String, { nullable: true, description: "The recipient's name (e-cards, gifts); null for other lines." })
  @Property({ type: 'string', length: 100, nullable: true })
  recipientName: string | null = null;

  /** Exposed by OrderItemResolver, masked for callers who see the confirmation page only. */
  @Property({ type: 'string', length: 254, nullable: true })
  recipientEmail: string | null = null;

  @Field(() => String, { nullable: true, description: "The sender's name as the card signs it; null for lines that are no card or gift." })
  @Property({ type: 'string', length: 100, nullable: true })
  senderName: string | null = null;

  /** Exposed by OrderItemResolver, left out for callers who see the confirmation page only. */
  @Property({ type: 'text', nullable: true })
  message: string | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: "When the card's e-mail is (or was) due." })
  @Property({ type: 'datetime', nullable: true })
  deliverAt: Date | null = null;

  /** The shopper's time zone, for showing the delivery day as they chose it. */
  @Property({ type: 'string', length: 64, nullable: true })
  timeZone: string | null = null;

  /** The e-card's design as sold (placement, font, image and song paths). */
  @Property({ type: 'json', nullable: true })
  card: CardDesign | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: "When the card's e-mail first went out." })
  @Property({ type: 'datetime', nullable: true })
  deliveredAt: Date | null = null;

  /** Exposed by OrderItemResolver, null for callers who see the confirmation page only. */
  @Property({ type: 'datetime', nullable: true })
  openedAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the one reminder of an unopened card went to its recipient.' })
  @Property({ type: 'datetime', nullable: true })
  remindedAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When this line was refunded; a refunded card is withdrawn (never sent, its page says so).' })
  @Property({ type: 'datetime', nullable: true })
  refundedAt: Date | null = null;

  @Field(() => Boolean, { description: 'A gift card bought (its amount is the price; it goes to its recipient by e-mail once the order is paid).' })
  @Property({ type: 'boolean', default: false })
  giftCard: boolean = false;

  /** A gift membership bought: the plan whose period it gives (its code goes to its recipient once the order is paid). */
  @Property({ type: 'integer', nullable: true })
  giftMembershipPlanId: number | null = null;

  @Field(() => Boolean, { description: 'A gift membership bought (its code goes to its recipient by e-mail once the order is paid).' })
  get giftMembership(): boolean {
    return this.giftMembershipPlanId !== null;
  }

  /** How often the purchaser sent the card again from My orders (an admin's resends are not counted). */
  @Property({ type: 'smallint', default: 0 })
  ownerResends = 0;

  @Field(() => DecimalScalar, { description: 'The unit price as sold times the quantity, in dollars.' })
  get lineTotal(): string {
    return multiply(this.price, this.quantity);
  }

  @Field(() => String, { nullable: true, description: 'Where the e-card is: `/ecards/{itemUrlUuid}.html`.' })
  get ecardPath(): string | null {
    return this.itemUrlUuid ? ecardPath(this.itemUrlUuid) : null;
  }
}

export const ecardPath = (uuid: string) => `/ecards/${uuid}.html`;
