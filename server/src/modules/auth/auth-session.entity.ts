import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { RememberedSession } from './remembered-session.entity.js';
import { User } from './user.entity.js';

/**
 * One issued token (by its `jti`). A token authorizes only while its session row exists:
 * logout deletes the row, a password change deletes all of the user's rows. A token issued from a
 * remembered session ("Keep me signed in") ends with that session.
 */
@Entity({ tableName: 'auth_session' })
export class AuthSession {
  [OptionalProps]?: 'createdAt' | 'rememberedSession';

  @PrimaryKey({ type: 'uuid' })
  jti!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  user!: User;

  @ManyToOne(() => RememberedSession, { nullable: true, deleteRule: 'cascade', index: true })
  rememberedSession: RememberedSession | null = null;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
