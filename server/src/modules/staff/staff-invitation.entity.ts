import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { User } from '../auth/index.js';

/**
 * An invitation to join the staff: its link (`/staff/accept?token=…`) works once, for 7 days. Only a
 * hash of the token is kept, so the table cannot be used to accept anyone's invitation.
 */
@ObjectType({ description: 'An invitation to join the staff that has not been accepted yet.' })
@Entity({ tableName: 'staff_invitation' })
export class StaffInvitation {
  [OptionalProps]?: 'createdAt' | 'acceptedAt' | 'acceptedUser' | 'emailError' | 'invitedBy';

  @Field(() => Int, { description: "The invitation's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'The address it went to.' })
  @Property({ type: 'string', length: 254 })
  email!: string;

  @Field(() => String, { description: 'admin or staff.' })
  @Property({ type: 'string' })
  role!: string;

  @Property({ type: 'character', length: 64, hidden: true })
  tokenHash!: string;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  invitedBy: User | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When its link stops working (7 days after it was sent).' })
  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  acceptedAt: Date | null = null;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  acceptedUser: User | null = null;

  /** Filled from its mail job when the invitation is listed (the column is no longer written). */
  @Field(() => String, { nullable: true, description: 'Why the invitation e-mail has not gone out yet (the queue keeps retrying it; the link can still be passed on by hand).' })
  @Property({ type: 'text', nullable: true, persist: false })
  emailError: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was sent.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
