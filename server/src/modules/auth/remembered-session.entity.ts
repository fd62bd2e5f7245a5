import { OptionalProps } from '@mikro-orm/core';
import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { User } from './user.entity.js';

/**
 * A browser that chose "Keep me signed in": the `session` cookie it holds names this row by a SHA-256
 * digest of its value (the cookie itself is never stored). Every use of the cookie swaps it for a new
 * one (see RememberedSessions); the tokens issued from it (auth_session rows) end with it.
 */
@Entity({ tableName: 'remembered_session' })
export class RememberedSession {
  [OptionalProps]?: 'createdAt' | 'rotatedAt';

  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  user!: User;

  /** The digest of the cookie this browser holds now. */
  @Property({ type: 'character', length: 64, unique: true, hidden: true })
  tokenHash!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  rotatedAt: Date = new Date();

  /** 30 days after the last use. */
  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

/**
 * A cookie the session has already swapped for a newer one. Seen again after the grace of a
 * rotation, it was copied: the whole session ends.
 */
@Entity({ tableName: 'remembered_session_retired' })
export class RetiredSessionCookie {
  @PrimaryKey({ type: 'character', length: 64 })
  tokenHash!: string;

  @ManyToOne(() => RememberedSession, { deleteRule: 'cascade', index: true })
  session!: RememberedSession;

  @Property({ type: 'datetime' })
  retiredAt!: Date;
}
