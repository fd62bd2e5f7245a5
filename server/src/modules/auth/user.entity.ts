import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';

import { Role } from '../../core/viewer.js';
import { DEFAULT_LOCALE, type Locale } from '../../rules/locales.js';

export { Role };
registerEnumType(Role, {
  name: 'Role',
  description: 'What a user may do: admins manage the shop; staff use Orders, Customers and Sales; customers shop.',
  valuesConfig: {
    ADMIN: { description: 'Runs the shop: the whole console, the blog and the settings.' },
    STAFF: { description: "The shop's people: Orders (search, details, resends, refunds), Customers and Sales, nothing else." },
    CUSTOMER: { description: 'A shopper with an account: their orders, address book, group cards and settings.' },
  },
});

@ObjectType({ description: 'A registered user of the shop.' })
@Entity({ tableName: 'app_user' })
// Usernames are unique whatever their case: "Alice" cannot register beside "alice".
@Unique({ name: 'app_user_username_lower_unique', expression: 'create unique index "app_user_username_lower_unique" on "app_user" (lower("username"))' })
export class User {
  [OptionalProps]?: 'createdAt' | 'role' | 'emailConfirmedAt' | 'notifyOpened' | 'timeZone' | 'locale';

  @Field(() => Int, { description: "The user's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Field(() => String, { description: 'The username: 3 to 32 letters, digits, "_", "." or "-", unique ignoring case.' })
  @Property({ type: 'string', length: 32, unique: true })
  username!: string;

  @Field(() => String, { description: 'The e-mail address, in lower case (unique).' })
  @Property({ type: 'string', length: 254, unique: true })
  email!: string;

  @Property({ type: 'string', hidden: true, lazy: false })
  passwordHash!: string;

  @Field(() => Role, { description: 'What the user may do.' })
  @Enum({ items: () => Role, nativeEnumName: 'user_role', type: 'string' })
  role: Role = Role.CUSTOMER;

  @Field(() => GraphQLISODateTime, { description: 'When the account was created.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  /** When the address was confirmed by its link (null: not yet). */
  @Property({ type: 'datetime', nullable: true })
  emailConfirmedAt: Date | null = null;

  /** Whether the first opening of a card of this account's orders e-mails the purchaser (account settings). */
  @Property({ type: 'boolean', default: true })
  notifyOpened: boolean = true;

  /** The shopper's time zone as their browser last said (address book, checkout): occasion reminders come at 09:00 there. */
  @Property({ type: 'string', length: 64, nullable: true })
  timeZone: string | null = null;

  /** The language of the page the shopper last signed up or signed in from: e-mails sent later without a request (occasion reminders, membership notices) speak it. */
  @Property({ type: 'string', length: 2, default: DEFAULT_LOCALE })
  locale: Locale = DEFAULT_LOCALE;
}
