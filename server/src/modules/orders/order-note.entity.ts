import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Order } from './order.entity.js';

/** The longest internal note (contract section 16). */
export const MAX_ORDER_NOTE = 2000;

/** An internal note on an order, written by the shop's people for each other; shoppers never see it. */
@ObjectType({ description: "An internal note on an order (admins and staff only)." })
@Entity({ tableName: 'order_note' })
@Index({ name: 'order_note_order_index', properties: ['order', 'createdAt'] })
export class OrderNote {
  [OptionalProps]?: 'createdAt';

  @Field(() => Int, { description: "The note's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Order, { deleteRule: 'cascade', fieldName: 'order_id' })
  order!: Order;

  @Field(() => String, { description: 'What it says (up to 2,000 characters).' })
  @Property({ type: 'text' })
  text!: string;

  @Field(() => String, { description: 'Who wrote it, by their username at the time.' })
  @Property({ type: 'string', length: 100 })
  author!: string;

  @Field(() => GraphQLISODateTime, { description: 'When it was written.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
