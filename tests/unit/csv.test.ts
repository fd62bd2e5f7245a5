import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvNumber, csvText, fromSpreadsheetSafe, spreadsheetSafe } from '../../server/src/core/csv.js';
import { contactsCsv, parseContactsCsv } from '../../server/src/modules/contacts/contacts-csv.js';

/** What a spreadsheet runs as a formula when a cell starts with it (OWASP, CSV injection). */
const DANGEROUS = ['=', '+', '-', '@', '\t', '\r'];
const startsDangerously = (cell: string) => DANGEROUS.some((c) => cell.startsWith(c));

/** Any text, and text that starts with each dangerous character. */
const text = fc.oneof(fc.string({ maxLength: 30 }), fc.tuple(fc.constantFrom(...DANGEROUS), fc.string({ maxLength: 30 })).map(([first, rest]) => first + rest));

const read = (csv: string): string[][] => parse(csv, { relax_column_count: true });

describe('the CSV the shop writes', () => {
  it('starts no text cell with a formula character, and changes nothing else', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text, fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))), { maxLength: 8 }), (rows) => {
        const csv = csvText(['a', 'b', 'n'], rows.map(([a, b, n]) => ({ a, b, n })));
        const [header, ...cells] = read(csv);
        expect(header).toEqual(['a', 'b', 'n']);
        expect(cells).toHaveLength(rows.length);
        cells.forEach(([a, b, n], i) => {
          const [wantA, wantB, number] = rows[i]!;
          for (const [written, given] of [[a!, wantA], [b!, wantB]] as const) {
            expect(startsDangerously(written)).toBe(false);
            expect(written).toBe(startsDangerously(given) ? `'${given}` : given);
            // Read back, it is what was given (but for text that itself starts with an apostrophe
            // before a formula character, which reads as the guarded form of the rest).
            if (!(given.startsWith("'") && startsDangerously(given.slice(1)))) expect(fromSpreadsheetSafe(written)).toBe(given);
          }
          // A number is written as the number it is, even a negative one.
          expect(Number(n)).toBe(number === 0 ? 0 : number);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('guards each dangerous first character, and nothing that is not one', () => {
    for (const first of DANGEROUS) expect(spreadsheetSafe(`${first}1+1`)).toBe(`'${first}1+1`);
    fc.assert(fc.property(fc.string(), (value) => void expect(spreadsheetSafe(value)).toBe(startsDangerously(value) ? `'${value}` : value)));
    expect(spreadsheetSafe("'=1")).toBe("'=1");
    expect(csvText(['total', 'refund'], [{ total: csvNumber('28.50'), refund: csvNumber('-5.00') }])).toBe('total,refund\r\n28.50,-5.00\r\n');
    expect(() => csvNumber('=1+1')).toThrow(TypeError);
  });

  it('writes the address book with every column guarded, and reads it back as it was', () => {
    const email = fc.tuple(fc.constantFrom('', ...DANGEROUS.slice(0, 3)), fc.stringMatching(/^[a-z0-9.+=-]{1,12}$/)).map(([first, local]) => `${first}${local}@example.com`);
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ name: fc.tuple(fc.constantFrom('', ...DANGEROUS.slice(0, 4)), fc.stringMatching(/^[A-Za-z][A-Za-z ,"'=+@-]{0,20}[A-Za-z]$/)).map(([first, rest]) => first + rest), email }), { selector: (c) => c.email, maxLength: 6 }), (contacts) => {
        const csv = contactsCsv(contacts.map((c) => ({ ...c, birthday: null })));
        for (const row of read(csv).slice(1)) for (const cell of row) expect(startsDangerously(cell)).toBe(false);
        const back = parseContactsCsv(csv);
        expect(back.problems).toEqual([]);
        expect(back.contacts.map((c) => [c.name, c.email])).toEqual(contacts.map((c) => [c.name, c.email]));
      }),
      { numRuns: 200 },
    );
  });

  it('is written through core/csv.ts only', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const sources = ['server/src', 'gateway/src'].flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => path.posix.join(dir, file.split(path.sep).join('/'))),
    );
    const writers = sources.filter((file) => /from 'csv-stringify/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(writers).toEqual(['server/src/core/csv.ts']);
  });
});
