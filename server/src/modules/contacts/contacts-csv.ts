import { parse } from 'csv-parse/sync';
import { csvText, fromSpreadsheetSafe } from '../../core/csv.js';
import { CONTACTS_CSV_HEADER, formatBirthday, MAX_CONTACTS, parseBirthday, type OccasionDate } from '../../rules/occasions.js';
import { emailSchema, singleLineSchema } from '../../rules/schemas.js';
import { MAX_PERSON_NAME } from '../../rules/limits.js';

/**
 * The address book as a file (contract section 12): `name,email,birthday`, a birthday written
 * `YYYY-MM-DD` or `MM-DD`. Reading is all or nothing: every bad line is listed with its number, and
 * a file with any bad line imports nothing.
 */

export interface CsvProblem {
  /** The line of the file (1 is the header). */
  line: number;
  message: string;
}

export interface CsvContact {
  line: number;
  name: string;
  /** Lower case, as the address book keeps it. */
  email: string;
  birthday: OccasionDate | null;
}

/** Problems listed at most (a file of 2,000 bad lines is told about its first ones, and how many more). */
export const MAX_LISTED_PROBLEMS = 100;

const nameSchema = singleLineSchema('The name', MAX_PERSON_NAME);
const HEADER_TEXT = CONTACTS_CSV_HEADER.join(',');

/** Line breaks inside a record's values: the record starts that many lines before the one it ends on. */
const breaksIn = (values: string[]) => values.reduce((count, value) => count + (value.match(/\r\n|\r|\n/g)?.length ?? 0), 0);

/**
 * The contacts of a file, each with its line, or the file's problems. Rows of one address are
 * merged into one contact (the last name given, and the last birthday given, win); a file of more
 * than 2,000 contacts is refused at the line where it goes over.
 */
export function parseContactsCsv(text: string): { contacts: CsvContact[]; problems: CsvProblem[] } {
  const problems: CsvProblem[] = [];
  const problem = (line: number, message: string) => {
    // The reader may report one broken line more than once.
    if (!problems.some((p) => p.line === line && p.message === message)) problems.push({ line, message });
  };
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      // A file written on any system: CRLF, LF or CR, even mixed (the first line does not decide).
      record_delimiter: ['\r\n', '\n', '\r'],
      // A line with a stray quote is listed, and the reading goes on so that every bad line is found.
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error) problem(Number(error.lines), `This line is not valid CSV: ${csvMessage(error.code)}.`);
        return undefined;
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const lines = Number((error as { lines?: number }).lines ?? 1);
    return { contacts: [], problems: [{ line: lines, message: `This line is not valid CSV: ${csvMessage((error as { code?: string }).code)}.` }] };
  }

  const [header, ...rows] = records;
  const headerLine = header ? header.info.lines - breaksIn(header.record) : 1;
  if (!header || headerLine !== 1 || header.record.map((value) => value.toLowerCase()).join(',') !== HEADER_TEXT) {
    return { contacts: [], problems: [{ line: 1, message: `The first line must be the header ${HEADER_TEXT}${header && headerLine === 1 ? ` (it is "${header.record.join(',').slice(0, 80)}")` : ''}.` }] };
  }

  const byEmail = new Map<string, CsvContact>();
  for (const { record, info } of rows) {
    const line = info.lines - breaksIn(record);
    if (record.length < 2 || record.length > 3) {
      problem(line, `Expected 3 values (${HEADER_TEXT}), found ${record.length}.`);
      continue;
    }
    // A file the shop wrote reads back as it was: the apostrophe before a formula-like value goes.
    const [rawName = '', rawEmail = '', rawBirthday = ''] = record.map(fromSpreadsheetSafe);
    const name = nameSchema.safeParse(rawName);
    const email = emailSchema.safeParse(rawEmail);
    const birthday = rawBirthday ? parseBirthday(rawBirthday) : null;
    const wrong = [
      name.success ? null : name.error.issues[0]!.message,
      email.success ? null : `"${rawEmail.slice(0, 80)}" is not an e-mail address.`,
      rawBirthday && !birthday ? `The birthday "${rawBirthday.slice(0, 20)}" is not a day: write YYYY-MM-DD or MM-DD.` : null,
    ].filter(Boolean);
    if (wrong.length || !name.success || !email.success) {
      problem(line, wrong.join(' '));
      continue;
    }
    const earlier = byEmail.get(email.data);
    if (earlier) {
      // The same person twice: one contact, the later line's name and (when it has one) birthday.
      earlier.name = name.data;
      earlier.birthday = birthday ?? earlier.birthday;
      continue;
    }
    if (byEmail.size === MAX_CONTACTS) {
      problem(line, `An address book holds at most ${MAX_CONTACTS.toLocaleString('en-US')} contacts; this file has more.`);
      break;
    }
    byEmail.set(email.data, { line, name: name.data, email: email.data, birthday });
  }
  problems.sort((a, b) => a.line - b.line);
  return { contacts: problems.length ? [] : [...byEmail.values()], problems };
}

/** What a CSV reader's error code means, for a shopper. */
function csvMessage(code: string | undefined): string {
  switch (code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quote (") is opened and never closed';
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quote (") is in the middle of a value; put the whole value in quotes and double the quote inside it';
    default:
      return 'it could not be read';
  }
}

/**
 * The address book as a file the import reads back: the header, then one line a contact, a birthday
 * as YYYY-MM-DD or MM-DD (a name or an address a spreadsheet would run as a formula is written as
 * text: see core/csv.ts).
 */
export function contactsCsv(contacts: { name: string; email: string; birthday: OccasionDate | null }[]): string {
  return csvText(CONTACTS_CSV_HEADER, contacts.map((contact) => ({ name: contact.name, email: contact.email, birthday: contact.birthday ? formatBirthday(contact.birthday) : '' })));
}
