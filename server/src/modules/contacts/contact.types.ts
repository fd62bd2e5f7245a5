import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Connection, ConnectionArgs } from '../../core/pagination.js';
import { DEFAULT_REMIND_DAYS, MAX_CONTACTS, MAX_CONTACTS_CSV_BYTES, MAX_OCCASIONS, MAX_REMIND_DAYS, MIN_REMIND_DAYS } from '../../rules/occasions.js';
import { Contact } from './contact.entity.js';

export const ContactConnection = Connection(Contact, 'Contact');

@ArgsType()
export class ContactsArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Words that must all appear in the name or the e-mail address (any case).' })
  search?: string | null;
}

@InputType({ description: 'A day of the year a contact celebrates, every year.' })
export class OccasionInput {
  @Field(() => String, { description: '"Birthday", "Anniversary"... (once per contact, whatever the case).' })
  label!: string;

  @Field(() => Int, { description: '1 to 12.' })
  month!: number;

  @Field(() => Int, { description: '1 to 31, a day the month has (29 February falls on 28 February in other years).' })
  day!: number;

  @Field(() => Int, { nullable: true, description: 'The year it began (a birth year), if known.' })
  year?: number | null;

  @Field(() => Int, { nullable: true, description: `"Remind me" this many days before: ${MIN_REMIND_DAYS} to ${MAX_REMIND_DAYS}, ${DEFAULT_REMIND_DAYS} when left out; null turns the reminder off.` })
  remindDaysBefore?: number | null;

  @Field(() => Boolean, { nullable: true, description: '"Remind me" on or off (default on).' })
  remind?: boolean | null;
}

@InputType({ description: 'A contact of the address book.' })
export class ContactInput {
  @Field(() => String, { description: 'Their name, one line, 1 to 100 characters.' })
  name!: string;

  @Field(() => String, { description: 'One address; each is in an address book once.' })
  email!: string;

  @Field(() => [OccasionInput], { nullable: true, description: `Up to ${MAX_OCCASIONS}; on update, the contact's occasions become these (one of the same label keeps its reminder state).` })
  occasions?: OccasionInput[] | null;
}

@ObjectType({ description: 'A line of an imported file that could not be read.' })
export class ContactImportError {
  @Field(() => Int, { description: 'The line of the file (1 is the header).' })
  line!: number;

  @Field(() => String, { description: 'What is wrong with it.' })
  message!: string;
}

@ObjectType({ description: `What an import did: every contact of the file, or (when any line is wrong) none. At most ${MAX_CONTACTS} contacts an account; files up to ${MAX_CONTACTS_CSV_BYTES / 1024} kB.` })
export class ContactImport {
  @Field(() => Int, { description: 'Contacts added or updated (an address already in the book is updated).' })
  imported!: number;

  @Field(() => [ContactImportError], { description: 'Every wrong line (the first 100), with its number; empty when the file was imported.' })
  errors!: ContactImportError[];
}
