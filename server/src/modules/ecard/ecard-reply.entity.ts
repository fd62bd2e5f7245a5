import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { OrderItem } from '../orders/index.js';

/** A recipient's thank-you for a card, sent from the e-card page (at most MAX_REPLIES_PER_CARD per card). */
@ObjectType('ThankYouReply', { description: "A recipient's thank-you for a card (its purchaser and admins see it)." })
@Entity({ tableName: 'ecard_reply' })
export class EcardReply {
  [OptionalProps]?: 'createdAt';

  @Field(() => Int, { description: "The reply's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Index({ name: 'ecard_reply_item_id_index' })
  @ManyToOne(() => OrderItem, { deleteRule: 'cascade' })
  item!: OrderItem;

  @Field(() => String, { description: "The recipient's name as they signed it (one line)." })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { description: 'Plain text, up to 500 characters; line breaks kept.' })
  @Property({ type: 'text' })
  message!: string;

  @Field(() => GraphQLISODateTime, { description: 'When it was written.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
