import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/access.js';
import type { RequestContext } from '../../core/context.js';
import type { ConnectionResult } from '../../core/pagination.js';
import { Contact, ContactOccasion } from './contact.entity.js';
import type { ContactImportResult, ContactService } from './contact.service.js';
import { ContactConnection, ContactImport, ContactInput, ContactsArgs } from './contact.types.js';

/** The address book (contract section 12): the caller's own contacts, and only theirs. */
@Resolver(() => Contact)
export class ContactResolver {
  constructor(private readonly service: ContactService) {}

  @Allow('user')
  @Query(() => ContactConnection, { description: "The caller's contacts in name order, optionally searched; `first` up to 100." })
  contacts(@Ctx() ctx: RequestContext, @Args(() => ContactsArgs) args: ContactsArgs): Promise<ConnectionResult<Contact>> {
    return this.service.list(ctx, args);
  }

  @Allow('user')
  @Mutation(() => Contact, { description: 'Adds a contact; CONFLICT when the address is already in the book or the book holds 2,000 contacts.' })
  createContact(@Ctx() ctx: RequestContext, @Arg('input', () => ContactInput, { description: 'The contact with its occasions.' }) input: ContactInput): Promise<Contact> {
    return this.service.create(ctx, input);
  }

  @Allow('user')
  @Mutation(() => Contact, { description: "Changes one of the caller's contacts (NOT_FOUND for anyone else's)." })
  updateContact(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The contact's id." }) id: number,
    @Arg('input', () => ContactInput, { description: 'The contact as it should be.' }) input: ContactInput,
  ): Promise<Contact> {
    return this.service.update(ctx, id, input);
  }

  @Allow('user')
  @Mutation(() => Int, { description: "Deletes one of the caller's contacts with its occasions; returns its id." })
  deleteContact(@Ctx() ctx: RequestContext, @Arg('id', () => Int, { description: "The contact's id." }) id: number): Promise<number> {
    return this.service.delete(ctx, id);
  }

  @Allow('user')
  @Mutation(() => ContactImport, {
    description: 'Imports a CSV file (header name,email,birthday; a birthday YYYY-MM-DD or MM-DD): every line, or when any line is wrong none, each wrong line listed. Addresses already in the book are updated.',
  })
  importContacts(@Ctx() ctx: RequestContext, @Arg('csv', () => String, { description: 'The whole file as text (UTF-8), up to the size an import allows.' }) csv: string): Promise<ContactImportResult> {
    return this.service.importCsv(ctx, csv);
  }

  @Allow('user')
  @Mutation(() => String, { nullable: true, description: "Keeps the caller's time zone (IANA, as the browser says) on their account: occasion reminders come at 09:00 there. Returns the zone kept, or null for an unknown one." })
  rememberTimeZone(@Ctx() ctx: RequestContext, @Arg('timeZone', () => String, { description: 'An IANA time zone, e.g. "Europe/London".' }) timeZone: string): Promise<string | null> {
    return this.service.rememberMyTimeZone(ctx, timeZone);
  }

  @FieldResolver(() => [ContactOccasion], { description: 'By date in the year.' })
  occasions(@Ctx() ctx: RequestContext, @Root() contact: Contact): Promise<ContactOccasion[]> {
    return this.service.occasionsOf(ctx, contact);
  }
}
