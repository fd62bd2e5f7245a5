import { OptionalProps } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import type { ApiScope } from '../../core/access.js';

/**
 * An API key (contract section 19): a name, scopes, and of the key itself only a SHA-256 digest and
 * its last four characters. Revoked keys stay listed (what they did stays in the audit log under
 * their name) and authorize nothing.
 */
@ObjectType({ description: 'An API key (admins): its name, scopes and use; never the key itself, which is shown once when it is created.' })
@Entity({ tableName: 'api_key' })
export class ApiKey {
  [OptionalProps]?: 'createdAt' | 'lastUsedAt' | 'revokedAt' | 'createdBy';

  @Field(() => Int, { description: "The key's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'The name an admin gave it (what the audit log records its changes under).' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => [String], { description: 'What it may do: any of catalogue:read, catalogue:write, orders:read, orders:write, customers:read.' })
  @Property({ type: 'string[]', columnType: 'text[]' })
  scopes!: ApiScope[];

  /** SHA-256 of the whole key, `ask_` included. */
  @Property({ type: 'character', length: 64 })
  keyDigest!: string;

  @Field(() => String, { description: 'The last four characters of the key (all that is kept of it besides a digest).' })
  @Property({ type: 'character', length: 4 })
  last4!: string;

  @Field(() => String, { nullable: true, description: 'The username of the admin who created it (null once that account is gone).' })
  @Property({ type: 'string', length: 32, nullable: true })
  createdBy: string | null = null;

  @Field(() => GraphQLISODateTime, { description: 'When it was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it was last used, to the minute (null: never).' })
  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When it was revoked (null: it works).' })
  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;
}
