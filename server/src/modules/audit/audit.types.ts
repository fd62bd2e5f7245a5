import { ArgsType, Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { Connection, ConnectionArgs } from '../../core/pagination.js';

/** One write of an admin or a staff member (see recordAudit). */
@ObjectType({ description: 'One change made by an admin or a staff member: who, when, what.' })
export class AuditEntry {
  @Field(() => ID, { description: "The entry's id." })
  id!: string;

  @Field(() => GraphQLISODateTime, { description: 'When the change was made.' })
  at!: Date;

  @Field(() => Int, { nullable: true, description: 'The id of who made the change, while their account exists.' })
  actorId!: number | null;

  @Field(() => String, { description: 'Their username, as it was then (kept when the account is removed).' })
  actorName!: string;

  @Field(() => String, { description: 'Their role then: admin or staff.' })
  actorRole!: string;

  @Field(() => String, { description: 'What kind of thing changed: category, product, product-type, media-folder, media-file, blog-post, settings, discount, order, e-mail, staff.' })
  entity!: string;

  @Field(() => String, { nullable: true, description: 'Its id (null when the change is not about one thing).' })
  entityId!: string | null;

  @Field(() => String, { description: 'created, updated, deleted, uploaded, refunded, resent, invited…' })
  action!: string;

  @Field(() => String, { description: 'A short summary of the change.' })
  summary!: string;
}

export const AuditEntryConnection = Connection(AuditEntry, 'AuditEntry');

@ArgsType()
export class AuditLogArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the changes of this person (a user id).' })
  actorId?: number | null;

  @Field(() => String, { nullable: true, description: 'Only changes of this kind of thing (see AuditEntry.entity).' })
  entity?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Oldest first (default: newest first).' })
  oldestFirst?: boolean | null;
}

@ObjectType({ description: 'Someone who appears in the audit log (for its filter).' })
export class AuditActor {
  @Field(() => Int, { description: 'Their user id (what `auditLog(actorId)` takes).' })
  id!: number;

  @Field(() => String, { description: 'Their username.' })
  username!: string;
}
