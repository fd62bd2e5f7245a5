import { Collection, OptionalProps } from '@mikro-orm/core';
import { Check, Entity, Index, ManyToOne, OneToMany, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { User } from '../auth/index.js';

/**
 * A person in a shopper's address book. Each account sees only its own; an address is in one book
 * once (kept lower case). Pages are read in name order through `contact_user_name_index`, and a
 * search filters one account's contacts (2,000 at most) by `search_text`.
 */
@ObjectType({ description: "A person in the caller's address book." })
@Entity({ tableName: 'contact' })
@Unique({ name: 'contact_user_email_unique', properties: ['user', 'email'] })
@Index({ name: 'contact_user_name_index', expression: 'create index "contact_user_name_index" on "contact" ("user_id", "name_key", "id")' })
export class Contact {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'nameKey' | 'searchText';

  @Field(() => Int, { description: "The contact's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field(() => String, { description: 'Their name (up to 100 characters): what a card to them is addressed to.' })
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { description: 'Their e-mail address, in lower case (once per address book).' })
  @Property({ type: 'string', length: 254 })
  email!: string;

  /** The name in lower case: the address book's order (with the id after it). */
  @Property({ type: 'text', generated: '(lower("name")) stored' })
  nameKey?: string;

  /** Name and address in lower case, for the search. */
  @Property({ type: 'text', lazy: true, generated: `(lower("name" || ' ' || "email")) stored` })
  searchText?: string;

  @Field(() => GraphQLISODateTime, { description: 'When the contact was added.' })
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @OneToMany(() => ContactOccasion, (occasion) => occasion.contact, { orderBy: { month: 'asc', day: 'asc', id: 'asc' } })
  occasions = new Collection<ContactOccasion>(this);
}

/**
 * A day of the year a contact celebrates ("Birthday", 24 December, a year optional), and whether the
 * shopper is reminded of it N days before. `nextRemindAt` is when the next reminder goes out (09:00
 * in the shopper's zone; null when reminders are off): the processes that run jobs pick up the due
 * ones through `contact_occasion_due_index`.
 */
@ObjectType('Occasion', { description: 'A day of the year a contact celebrates, every year.' })
@Entity({ tableName: 'contact_occasion' })
@Unique({ name: 'contact_occasion_label_unique', expression: 'create unique index "contact_occasion_label_unique" on "contact_occasion" ("contact_id", lower("label"))' })
@Index({ name: 'contact_occasion_due_index', expression: 'create index "contact_occasion_due_index" on "contact_occasion" ("next_remind_at") where "next_remind_at" is not null' })
@Check({ name: 'contact_occasion_date_range', expression: 'month between 1 and 12 and day between 1 and 31' })
@Check({ name: 'contact_occasion_remind_range', expression: 'remind_days_before between 1 and 30' })
export class ContactOccasion {
  [OptionalProps]?: 'year' | 'remind' | 'remindDaysBefore' | 'nextRemindAt' | 'remindedAt';

  @Field(() => Int, { description: "The occasion's id." })
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @ManyToOne(() => Contact, { deleteRule: 'cascade' })
  contact!: Contact;

  @Field(() => String, { description: 'What it is: "Birthday", "Anniversary"...' })
  @Property({ type: 'string', length: 40 })
  label!: string;

  @Field(() => Int, { description: '1 to 12.' })
  @Property({ type: 'smallint' })
  month!: number;

  @Field(() => Int, { description: '1 to 31 (29 February falls on 28 February in other years).' })
  @Property({ type: 'smallint' })
  day!: number;

  @Field(() => Int, { nullable: true, description: 'The year it began (a birth year), if known.' })
  @Property({ type: 'smallint', nullable: true })
  year: number | null = null;

  @Field(() => Boolean, { description: '"Remind me": the shopper is e-mailed remindDaysBefore days before, every year.' })
  @Property({ type: 'boolean', default: true })
  remind: boolean = true;

  @Field(() => Int, { description: '1 to 30 (default 7).' })
  @Property({ type: 'smallint', default: 7 })
  remindDaysBefore: number = 7;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'When the next reminder goes out (09:00 where the shopper is); null when reminders are off.' })
  @Property({ type: 'datetime', nullable: true })
  nextRemindAt: Date | null = null;

  /** When the last reminder was queued. */
  @Property({ type: 'datetime', nullable: true })
  remindedAt: Date | null = null;
}
