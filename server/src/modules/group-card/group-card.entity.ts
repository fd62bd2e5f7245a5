import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { OrderItem } from '../orders/index.js';

/**
 * A card its purchaser made a group card: whoever has its signing link (`/sign/{signingToken}`) may
 * sign it until `collectUntil`. The token is random and distinct from the card's own address, so a
 * signer never reaches the card before it is delivered.
 */
@Entity({ tableName: 'group_card' })
export class GroupCard {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Unique({ name: 'group_card_item_id_unique' })
  @ManyToOne(() => OrderItem, { deleteRule: 'cascade' })
  item!: OrderItem;

  @Unique({ name: 'group_card_signing_token_unique' })
  @Property({ type: 'string', length: 64 })
  signingToken!: string;

  @Property({ type: 'datetime' })
  collectUntil!: Date;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

/** An address the purchaser invited to sign (once per card); `signedAt` once a signature came through its link. */
@ObjectType('GroupCardInvitation', { description: 'An address invited to sign a group card (its purchaser and admins see them).' })
@Entity({ tableName: 'group_card_invitation' })
@Unique({ name: 'group_card_invitation_email_unique', properties: ['groupCard', 'email'] })
export class GroupCardInvitation {
  [OptionalProps]?: 'signedAt' | 'remindedAt';

  @Field(() => Int, { description: "The invitation's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => GroupCard, { deleteRule: 'cascade' })
  groupCard!: GroupCard;

  @Field(() => String, { description: 'The address invited, in lower case.' })
  @Property({ type: 'string', length: 254 })
  email!: string;

  /** In the invitation's link (`/sign/{token}?invite={code}`): tells which invited address signed. */
  @Unique({ name: 'group_card_invitation_code_unique' })
  @Property({ type: 'string', length: 32 })
  code!: string;

  @Field(() => GraphQLISODateTime, { description: 'When it was invited.' })
  @Property({ type: 'datetime' })
  invitedAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When a signature came through this invitation.' })
  @Property({ type: 'datetime', nullable: true })
  signedAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When its one reminder went out.' })
  @Property({ type: 'datetime', nullable: true })
  remindedAt: Date | null = null;
}

/**
 * One signature: a name and a plain-text message. Its signer changes or removes it with its edit
 * token, of which only a hash is kept; the purchaser may remove any.
 */
@ObjectType('GroupCardSignature', { description: "A signature on a group card: a name and a plain-text message, shown on the delivered card in the card's font." })
@Entity({ tableName: 'group_card_signature' })
export class GroupCardSignature {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'idempotencyKeyHash' | 'invitation';

  @Field(() => Int, { description: "The signature's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => GroupCard, { deleteRule: 'cascade' })
  groupCard!: GroupCard;

  @Field(() => String, { description: 'One line, up to 100 characters.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { description: 'Plain text, up to 500 characters; line breaks kept.' })
  @Property({ type: 'text' })
  message!: string;

  @Property({ type: 'character', length: 64, hidden: true })
  editTokenHash!: string;

  @Property({ type: 'character', length: 64, nullable: true, hidden: true })
  idempotencyKeyHash: string | null = null;

  /** The signer's client address, hashed: the same words twice from one address are one signature. */
  @Property({ type: 'character', length: 64, hidden: true })
  clientKeyHash!: string;

  @Property({ type: 'character', length: 64, hidden: true })
  contentHash!: string;

  @ManyToOne(() => GroupCardInvitation, { nullable: true, deleteRule: 'set null' })
  invitation: GroupCardInvitation | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was written.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => GraphQLISODateTime, { description: 'When it was last changed (the same as createdAt until then).' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt: Date = new Date();
}
