import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { User } from './user.entity.js';

export enum AccountTokenPurpose {
  /** `/reset-password?token=…`: sets a new password; 1 hour, once. */
  PASSWORD_RESET = 'password-reset',
  /** `/verify-email?token=…` sent on registering: confirms the account's address; 7 days. */
  EMAIL_CONFIRM = 'email-confirm',
  /** `/verify-email?token=…` sent to a new address: the address changes once it is opened; 7 days. */
  EMAIL_CHANGE = 'email-change',
}

/**
 * A link the shop e-mailed about an account. Only a SHA-256 digest of the link's token is kept, so
 * the table cannot be used to reset or confirm anything. `email` is the address the link went to
 * (for a change of address, the new one). A reset asked for an address no account uses is kept
 * too, without a user: it can never be used, but asking cost the same.
 */
@Entity({ tableName: 'account_token' })
export class AccountToken {
  [OptionalProps]?: 'createdAt' | 'usedAt' | 'user';

  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Enum({ items: () => AccountTokenPurpose, type: 'string' })
  purpose!: AccountTokenPurpose;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'cascade' })
  user: User | null = null;

  @Property({ type: 'string', length: 254 })
  email!: string;

  @Property({ type: 'character', length: 64, hidden: true })
  tokenHash!: string;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
