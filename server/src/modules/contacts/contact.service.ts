import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, conflict, notFound, said } from '../../core/errors.js';
import { conflictOnUnique } from '../../core/db-errors.js';
import { groupBy } from '../../core/loaders.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { containsEveryWord } from '../../core/text-search.js';
import { knownTimeZone } from '../../rules/delivery.js';
import { BIRTHDAY, DEFAULT_REMIND_DAYS, MAX_CONTACTS, MAX_CONTACTS_CSV_BYTES, type OccasionDate } from '../../rules/occasions.js';
import { accountTimeZone, setAccountTimeZone } from '../auth/index.js';
import { cleanContact, type ContactValue } from './contact-rules.js';
import { Contact, ContactOccasion } from './contact.entity.js';
import { contactsCsv, MAX_LISTED_PROBLEMS, parseContactsCsv, type CsvContact, type CsvProblem } from './contacts-csv.js';
import type { OccasionReminders } from './occasion-reminders.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  full: { id: 'error.contacts.full', defaultMessage: 'Your address book is full: it holds at most {max, number} contacts.' },
  none: { id: 'error.contacts.none', defaultMessage: 'Contact not found' },
  duplicate: { id: 'error.contacts.duplicate', defaultMessage: '{email} is already in your address book.' },
});

export interface ContactsArgs {
  search?: string | null;
  first?: number | null;
  after?: string | null;
}

export interface ContactImportResult {
  imported: number;
  errors: CsvProblem[];
}

const SEARCH_WORDS = 6;

/**
 * A signed-in shopper's address book (contract section 12): their contacts and occasions, searched
 * and paged on the server, imported from and exported to CSV. Every call works on the caller's own
 * book only: another account's contact is simply not found. Writes to one book take turns (a
 * transaction-scoped advisory lock per account), so the 2,000-contact limit holds under concurrency.
 */
export class ContactService {
  constructor(private readonly reminders: OccasionReminders) {}

  /** The caller's contacts in name order, searched by every word in the name or address. */
  async list(ctx: RequestContext, args: ContactsArgs): Promise<ConnectionResult<Contact>> {
    const { user } = await ctx.requireViewer();
    const words = containsEveryWord(args.search, SEARCH_WORDS);
    const where: FilterQuery<Contact> = { user: user.id, ...(words.length ? { $and: words } : {}) };
    return keysetPage<Contact>(ctx.em, Contact, where, {
      size: pageSize(args.first),
      after: args.after,
      direction: 'asc',
      keys: [
        { property: 'nameKey', cursor: 'n', type: 'string', valueOf: (c) => c.nameKey ?? c.name.toLowerCase() },
        { property: 'id', cursor: 'id', type: 'number', valueOf: (c) => c.id },
      ],
    });
  }

  /** The occasions of a contact, by date; batched across the contacts of a request. */
  async occasionsOf(ctx: RequestContext, contact: Contact): Promise<ContactOccasion[]> {
    const loader = ctx.loader<number, ContactOccasion[]>('contact.occasions', async (ids) =>
      groupBy(await ctx.em.find(ContactOccasion, { contact: { $in: [...ids] } }, { orderBy: { month: 'asc', day: 'asc', id: 'asc' } }), (row) => row.contact.id),
    );
    return (await loader.load(contact.id)) ?? [];
  }

  async create(ctx: RequestContext, input: unknown): Promise<Contact> {
    const { user } = await ctx.requireViewer();
    const value = cleanContact(input);
    const id = await this.inBook(ctx, user.id, async (em, zone) => {
      const count = await em.count(Contact, { user: user.id });
      if (count >= MAX_CONTACTS) throw conflict(said(refusals.full, { max: MAX_CONTACTS }));
      if (await em.count(Contact, { user: user.id, email: value.email })) throw duplicate(value.email);
      const contact = em.create(Contact, { user: user.id, name: value.name, email: value.email });
      this.setOccasions(em, contact, [], value, zone);
      await em.flush();
      return contact.id;
    });
    return this.own(ctx.em, id, user.id);
  }

  async update(ctx: RequestContext, id: number, input: unknown): Promise<Contact> {
    const { user } = await ctx.requireViewer();
    const value = cleanContact(input);
    await this.inBook(ctx, user.id, async (em, zone) => {
      const contact = await this.own(em, id, user.id);
      if (contact.email !== value.email && (await em.count(Contact, { user: user.id, email: value.email }))) throw duplicate(value.email);
      contact.name = value.name;
      contact.email = value.email;
      this.setOccasions(em, contact, await em.find(ContactOccasion, { contact }), value, zone);
      await em.flush();
    });
    return this.own(ctx.em, id, user.id, true);
  }

  /** Deletes one of the caller's contacts with its occasions (their reminders stop); returns its id. */
  async delete(ctx: RequestContext, id: number): Promise<number> {
    const { user } = await ctx.requireViewer();
    const removed = await ctx.em.nativeDelete(Contact, { id, user: user.id });
    if (!removed) throw notFound(refusals.none);
    return id;
  }

  /**
   * Imports a CSV file (`name,email,birthday`): all of it or, when any line is wrong, nothing, with
   * every wrong line listed. A contact whose address is already in the book is updated (its name, and
   * its Birthday when the line gives one); the book never goes over 2,000 contacts.
   */
  async importCsv(ctx: RequestContext, csv: string): Promise<ContactImportResult> {
    const { user } = await ctx.requireViewer();
    if (typeof csv !== 'string') throw badInput('Send the file as text.', 'csv');
    if (Buffer.byteLength(csv, 'utf8') > MAX_CONTACTS_CSV_BYTES) {
      throw badInput(`The file is too large: an address book file can be at most ${MAX_CONTACTS_CSV_BYTES / 1024} kB (${MAX_CONTACTS.toLocaleString('en-US')} contacts fit well within it).`, 'csv');
    }
    const { contacts, problems } = parseContactsCsv(csv);
    if (problems.length) return { imported: 0, errors: listed(problems) };
    if (!contacts.length) return { imported: 0, errors: [{ line: 2, message: 'The file has no contacts under its header.' }] };

    return this.inBook(ctx, user.id, async (em, zone) => {
      const existing = new Set(
        (await em.execute<{ email: string }[]>('select email from contact where user_id = ? and email in (?)', [user.id, contacts.map((c) => c.email)])).map((row) => row.email),
      );
      const count = await em.count(Contact, { user: user.id });
      const added = contacts.filter((c) => !existing.has(c.email));
      if (count + added.length > MAX_CONTACTS) {
        const over = added[MAX_CONTACTS - count]!;
        return { imported: 0, errors: [{ line: over.line, message: `Your address book holds ${count.toLocaleString('en-US')} contacts and can hold at most ${MAX_CONTACTS.toLocaleString('en-US')}: this file would take it past that from this line on.` }] };
      }
      await this.upsertAll(em, user.id, contacts, zone);
      ctx.log.info({ userId: user.id, imported: contacts.length, added: added.length }, 'address book imported');
      return { imported: contacts.length, errors: [] };
    });
  }

  /** The caller's address book as a CSV file the import reads back (name order). */
  async exportCsv(ctx: RequestContext): Promise<string> {
    const { user } = await ctx.requireViewer();
    const rows = await ctx.em.execute<{ name: string; email: string; month: number | null; day: number | null; year: number | null }[]>(
      `select c.name, c.email, o.month, o.day, o.year from contact c
         left join contact_occasion o on o.contact_id = c.id and lower(o.label) = lower(?)
        where c.user_id = ? order by c.name_key, c.id`,
      [BIRTHDAY, user.id],
    );
    return contactsCsv(rows.map((row) => ({ name: row.name, email: row.email, birthday: row.month ? { month: row.month, day: row.day!, year: row.year } : null })));
  }

  /** An account's address book as "Download my data" gives it: every contact with its occasions, in one query. */
  async exportData(em: EntityManager, userId: number): Promise<unknown[]> {
    const rows = await em.execute<{ contact: unknown }[]>(
      `select json_build_object(
                'name', c.name, 'email', c.email, 'created_at', c.created_at,
                'occasions', coalesce((select json_agg(json_build_object('label', o.label, 'month', o.month, 'day', o.day, 'year', o.year,
                                                                            'remind', o.remind, 'remind_days_before', o.remind_days_before,
                                                                            'next_reminder_at', o.next_remind_at) order by o.month, o.day, o.id)
                                         from contact_occasion o where o.contact_id = c.id), '[]'::json)) as contact
         from contact c where c.user_id = ? order by c.name_key, c.id`,
      [userId],
    );
    return rows.map((row) => row.contact);
  }

  /** The caller's time zone, as their browser says, kept on their account (see rememberTimeZone). */
  async rememberMyTimeZone(ctx: RequestContext, timeZone: unknown): Promise<string | null> {
    const { user } = await ctx.requireViewer();
    return typeof timeZone === 'string' ? this.rememberTimeZone(ctx, user.id, timeZone) : null;
  }

  /**
   * Keeps the time zone a signed-in shopper's browser said (from the address book or a checkout) on
   * their account; when it changed, their reminders move to 09:00 in the new zone. An unknown zone is ignored.
   */
  async rememberTimeZone(ctx: RequestContext, userId: number, timeZone: string): Promise<string | null> {
    const zone = knownTimeZone(timeZone);
    if (!zone) return null;
    // Nearly always the zone it already has: one read, no transaction (a checkout pays for this).
    if ((await accountTimeZone(ctx.em, userId)) === zone) return zone;
    await ctx.em.fork().transactional(async (em) => {
      if (await setAccountTimeZone(em, userId, zone)) await this.reminders.reschedule(withEm(ctx, em), { userId }, zone);
    });
    return zone;
  }

  // ---- internals ----

  /** Runs a write of one account's book in a transaction of its own, its writes taking turns, with the account's time zone. */
  private async inBook<T>(ctx: RequestContext, userId: number, work: (em: EntityManager, zone: string) => Promise<T>): Promise<T> {
    return ctx.em.fork().transactional(async (em) => {
      // One book's writes take turns: two imports at once cannot both fit under the limit.
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`contacts:${userId}`]);
      const zone = (await accountTimeZone(em, userId)) ?? 'UTC';
      return conflictOnUnique(() => work(em, zone), () => duplicate('That address'));
    });
  }

  /** One of the account's contacts (not found when it is anyone else's). */
  private async own(em: EntityManager, id: number, userId: number, refresh = false): Promise<Contact> {
    const contact = await em.findOne(Contact, { id, user: userId }, { refresh });
    if (!contact) throw notFound(refusals.none);
    return contact;
  }

  /**
   * A contact's occasions as the input says: an occasion of the same label is kept (and changed), so
   * its reminder state carries on; the others are added or removed. Reminder times are set here.
   */
  private setOccasions(em: EntityManager, contact: Contact, current: ContactOccasion[], value: ContactValue, zone: string): void {
    const byLabel = new Map(current.map((occasion) => [occasion.label.toLocaleLowerCase(), occasion]));
    const kept = new Set<ContactOccasion>();
    for (const wanted of value.occasions) {
      const occasion = byLabel.get(wanted.label.toLocaleLowerCase()) ?? em.create(ContactOccasion, { contact, label: wanted.label, month: wanted.month, day: wanted.day });
      Object.assign(occasion, wanted);
      this.reminders.schedule(occasion, zone);
      kept.add(occasion);
    }
    for (const occasion of current) if (!kept.has(occasion)) em.remove(occasion);
  }

  /** Writes an imported file's contacts (new and known addresses alike) and their birthdays in a few set-based statements. */
  private async upsertAll(em: EntityManager, userId: number, contacts: CsvContact[], zone: string): Promise<void> {
    const ids = await em.execute<{ id: number; email: string }[]>(
      `insert into contact (user_id, name, email)
       select ?, name, email from jsonb_to_recordset(?::jsonb) as t(name text, email text)
       on conflict (user_id, email) do update set name = excluded.name, updated_at = now()
       returning id, email`,
      [userId, JSON.stringify(contacts.map((c) => ({ name: c.name, email: c.email })))],
    );
    const idOf = new Map(ids.map((row) => [row.email, Number(row.id)]));
    const born = contacts.filter((c): c is CsvContact & { birthday: OccasionDate } => c.birthday !== null);
    if (!born.length) return;
    // A known contact's Birthday takes the file's date and keeps its "Remind me" choice.
    const occasions = await em.execute<{ id: number; month: number; day: number; remind: boolean; remind_days_before: number }[]>(
      `insert into contact_occasion (contact_id, label, month, day, year, remind, remind_days_before)
       select contact_id, ?, month, day, year, true, ? from jsonb_to_recordset(?::jsonb) as t(contact_id int, month smallint, day smallint, year smallint)
       on conflict (contact_id, lower(label)) do update set month = excluded.month, day = excluded.day, year = excluded.year
       returning id, month, day, remind, remind_days_before`,
      [BIRTHDAY, DEFAULT_REMIND_DAYS, JSON.stringify(born.map((c) => ({ contact_id: idOf.get(c.email)!, month: c.birthday.month, day: c.birthday.day, year: c.birthday.year ?? null })))],
    );
    await this.reminders.setTimes(em, occasions.map((row) => ({ id: Number(row.id), month: row.month, day: row.day, remind: row.remind, remindDaysBefore: row.remind_days_before })), zone);
  }
}

const duplicate = (email: string) => conflict(said(refusals.duplicate, { email }), 'input.email');

/** The first problems of a file, and how many more there are. */
function listed(problems: CsvProblem[]): CsvProblem[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS);
  const rest = problems.length - MAX_LISTED_PROBLEMS;
  return [...shown, { line: problems[MAX_LISTED_PROBLEMS]!.line, message: `…and ${rest.toLocaleString('en-US')} more line${rest === 1 ? '' : 's'} with problems from here on.` }];
}
