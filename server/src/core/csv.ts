import { stringify as stringifier, type Options, type Stringifier } from 'csv-stringify';
import { stringify } from 'csv-stringify/sync';

/**
 * The CSV files the shop writes (the address book, the orders export), all through here: a header
 * line, CRLF line ends (RFC 4180), and every text cell guarded against spreadsheet formulas (CSV
 * injection): a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is what
 * Excel, LibreOffice and Google Sheets run as a formula (`-2+3+cmd|'/C calc'!A0`), so it is written
 * with a leading apostrophe (OWASP's rule), which the spreadsheet shows as the text it is. Numbers the
 * shop writes as numbers (a JavaScript number, or an amount given through `csvNumber`) stay numbers.
 */

/** The first characters that make a spreadsheet read a cell as a formula. */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as a spreadsheet must show it: a formula-like start gets a leading apostrophe. */
export function spreadsheetSafe(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell read back from a file the shop wrote: the apostrophe `spreadsheetSafe` added is taken off. */
export function fromSpreadsheetSafe(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** A number written exactly as given (an amount kept as "12.50"); anything that is not a number throws. */
export class CsvNumber {
  readonly text: string;

  constructor(value: string | number) {
    const text = String(value);
    if (!NUMBER.test(text)) throw new TypeError(`Not a number for a CSV cell: ${JSON.stringify(text).slice(0, 40)}`);
    this.text = text;
  }
}

export const csvNumber = (value: string | number): CsvNumber => new CsvNumber(value);

/** What a cell may hold: text (guarded), a number, nothing (an empty cell). */
export type CsvCell = string | number | CsvNumber | null | undefined;

export type CsvRecord<C extends string> = Record<C, CsvCell>;

function options(columns: readonly string[]): Options {
  return {
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    cast: {
      string: spreadsheetSafe,
      // csv-stringify writes other objects as JSON, which never starts with a formula character.
      object: (value) => (value instanceof CsvNumber ? value.text : spreadsheetSafe(JSON.stringify(value))),
    },
  };
}

/** A whole file: the header, then one line a record. */
export function csvText<C extends string>(columns: readonly C[], records: readonly CsvRecord<C>[]): string {
  return stringify(records as CsvRecord<C>[], options(columns));
}

/** A file written record by record (a stream to pipe into the answer), for exports of any length. */
export function csvWriter(columns: readonly string[]): Stringifier {
  return stringifier(options(columns));
}
