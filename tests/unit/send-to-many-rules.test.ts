import { describe, expect, it } from 'vitest';
import { parseContactsCsv, contactsCsv } from '../../server/src/modules/contacts/contacts-csv.js';
import { deliveryMoment, zonedTime, timeIn } from '../../server/src/rules/delivery.js';
import { isOccasionDate, nextOccasionDay, nextReminder, occasionDayIn, parseBirthday } from '../../server/src/rules/occasions.js';
import { fillName, hasNamePlaceholder, recipientNames } from '../../server/src/rules/recipients.js';

describe('{name} in a message', () => {
  it("becomes each recipient's name, however it is spaced or cased, and only that", () => {
    expect(fillName('Dear {name},\nhappy birthday, {name}!', 'Grace')).toBe('Dear Grace,\nhappy birthday, Grace!');
    expect(fillName('Hi { Name }', 'Linus')).toBe('Hi Linus');
    expect(fillName('No placeholder here', 'Grace')).toBe('No placeholder here');
    expect(fillName('{names} and {nom} stay', 'Grace')).toBe('{names} and {nom} stay');
    // A name is text, never a replacement pattern.
    expect(fillName('Dear {name}', '$& $1 $$')).toBe('Dear $& $1 $$');
    // Asked twice in a row: the pattern keeps no state between calls.
    expect(hasNamePlaceholder('Dear {name}')).toBe(true);
    expect(hasNamePlaceholder('Dear {name}')).toBe(true);
    expect(hasNamePlaceholder('Dear friend')).toBe(false);
  });

  it("{firstName} becomes the first word of the name (the whole name when it is one word)", () => {
    expect(fillName('Merry Christmas {firstName}!', 'Frank Ocean')).toBe('Merry Christmas Frank!');
    expect(fillName('{ first name }, {FirstName} and {name}', '  Ada   Lovelace ')).toBe('Ada, Ada and   Ada   Lovelace ');
    expect(fillName('Hi {firstName}', 'Cher')).toBe('Hi Cher');
    expect(fillName('Hi {firstName}', '$1 Smith')).toBe('Hi $1');
    expect(hasNamePlaceholder('Hi {firstName}')).toBe(true);
    expect(fillName('{first} and {firstname2} stay', 'Grace Hopper')).toBe('{first} and {firstname2} stay');
  });

  it('lists recipients shortly', () => {
    expect(recipientNames([{ name: 'Ann' }])).toBe('Ann');
    expect(recipientNames([{ name: 'Ann' }, { name: 'Ben' }])).toBe('Ann and Ben');
    expect(recipientNames([{ name: 'Ann' }, { name: 'Ben' }, { name: 'Cy' }])).toBe('Ann, Ben and Cy');
    expect(recipientNames([{ name: 'Ann' }, { name: 'Ben' }, { name: 'Cy' }, { name: 'Di' }, { name: 'Ed' }])).toBe('Ann, Ben and 3 others');
  });
});

describe('a time of day in the shopper’s zone', () => {
  it('reads a wall-clock time in a zone, across daylight saving', () => {
    expect(zonedTime('2026-12-24', '09:00', 'America/New_York').toISOString()).toBe('2026-12-24T14:00:00.000Z');
    expect(zonedTime('2026-07-04', '09:00', 'America/New_York').toISOString()).toBe('2026-07-04T13:00:00.000Z');
    expect(zonedTime('2026-03-29', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(zonedTime('2026-03-28', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(zonedTime('2026-12-25', '00:30', 'Asia/Kolkata').toISOString()).toBe('2026-12-24T19:00:00.000Z');
    expect(timeIn(new Date('2026-12-24T14:00:00Z'), 'America/New_York')).toBe('09:00');
  });

  it('is now, a later moment, or a problem', () => {
    const now = new Date('2026-12-01T10:00:00Z'); // 11:00 in Paris
    expect(deliveryMoment(null, null, 'Europe/Paris', now)).toEqual({ kind: 'now' });
    expect(deliveryMoment('2026-12-01', null, 'Europe/Paris', now)).toEqual({ kind: 'now' });
    expect(deliveryMoment('2026-12-01', '10:00', 'Europe/Paris', now)).toEqual({ kind: 'now' });
    expect(deliveryMoment('2026-12-01', '12:00', 'Europe/Paris', now)).toEqual({ kind: 'later', at: new Date('2026-12-01T11:00:00Z') });
    expect(deliveryMoment('2026-12-02', null, 'Europe/Paris', now)).toEqual({ kind: 'later', at: new Date('2026-12-02T08:00:00Z') });
    expect(deliveryMoment('2026-12-02', '24:00', 'Europe/Paris', now)).toEqual({ kind: 'not-a-time' });
    expect(deliveryMoment('2026-11-30', '12:00', 'Europe/Paris', now)).toEqual({ kind: 'past' });
    expect(deliveryMoment('2027-12-02', '12:00', 'Europe/Paris', now)).toEqual({ kind: 'too-far' });
  });
});

describe('occasions', () => {
  it('are real days; 29 February needs a leap year only when a year is given', () => {
    expect(isOccasionDate({ month: 2, day: 29 })).toBe(true);
    expect(isOccasionDate({ month: 2, day: 29, year: 2024 })).toBe(true);
    expect(isOccasionDate({ month: 2, day: 29, year: 2023 })).toBe(false);
    expect(isOccasionDate({ month: 2, day: 30 })).toBe(false);
    expect(isOccasionDate({ month: 4, day: 31 })).toBe(false);
    expect(isOccasionDate({ month: 13, day: 1 })).toBe(false);
  });

  it('fall on 28 February in the years without a 29th', () => {
    expect(occasionDayIn(2027, { month: 2, day: 29 })).toBe('2027-02-28');
    expect(occasionDayIn(2028, { month: 2, day: 29 })).toBe('2028-02-29');
    expect(occasionDayIn(2100, { month: 2, day: 29 })).toBe('2100-02-28');
    expect(nextOccasionDay({ month: 2, day: 29 }, '2027-01-10')).toBe('2027-02-28');
    expect(nextOccasionDay({ month: 2, day: 29 }, '2027-03-01')).toBe('2028-02-29');
    expect(nextOccasionDay({ month: 12, day: 24 }, '2026-12-24')).toBe('2026-12-24');
    expect(nextOccasionDay({ month: 12, day: 24 }, '2026-12-25')).toBe('2027-12-24');
  });

  it('remind N days before at 09:00 where the shopper is, every year, across a year boundary', () => {
    // 3 January, 7 days before: 27 December of the year before, 09:00 in Tokyo (00:00 UTC).
    const jan3 = { month: 1, day: 3 };
    expect(nextReminder(jan3, 7, new Date('2026-12-01T00:00:00Z'), 'Asia/Tokyo')).toEqual({ at: new Date('2026-12-27T00:00:00Z'), occasionDay: '2027-01-03' });
    expect(nextReminder(jan3, 7, new Date('2026-12-27T00:00:00Z'), 'Asia/Tokyo')).toEqual({ at: new Date('2027-12-27T00:00:00Z'), occasionDay: '2028-01-03' });
    // After the reminder, while the occasion is still to come: next year's.
    expect(nextReminder({ month: 12, day: 9 }, 7, new Date('2026-12-05T12:00:00Z'), 'UTC')).toEqual({ at: new Date('2027-12-02T09:00:00Z'), occasionDay: '2027-12-09' });
    // New York is behind UTC: its 09:00 is 14:00 UTC.
    expect(nextReminder({ month: 7, day: 4 }, 1, new Date('2026-06-01T00:00:00Z'), 'America/New_York').at).toEqual(new Date('2026-07-03T13:00:00Z'));
  });

  it('remind of 29 February a week ahead on 21 February in other years (the occasion falls on the 28th), and on the 22nd of a leap year', () => {
    const leap = { month: 2, day: 29 };
    expect(nextReminder(leap, 7, new Date('2027-01-01T00:00:00Z'), 'UTC')).toEqual({ at: new Date('2027-02-21T09:00:00Z'), occasionDay: '2027-02-28' });
    expect(nextReminder(leap, 7, new Date('2027-02-21T09:00:00Z'), 'UTC')).toEqual({ at: new Date('2028-02-22T09:00:00Z'), occasionDay: '2028-02-29' });
    expect(nextReminder(leap, 1, new Date('2028-02-22T09:00:00Z'), 'Europe/London')).toEqual({ at: new Date('2028-02-28T09:00:00Z'), occasionDay: '2028-02-29' });
  });

  it('read birthdays as YYYY-MM-DD or MM-DD', () => {
    expect(parseBirthday('1906-12-09')).toEqual({ month: 12, day: 9, year: 1906 });
    expect(parseBirthday('12-09')).toEqual({ month: 12, day: 9, year: null });
    expect(parseBirthday('--02-29')).toEqual({ month: 2, day: 29, year: null });
    for (const bad of ['02-30', '2023-02-29', '13-01', '9/12/1906', '1906-12-9', 'December 9', '']) expect(parseBirthday(bad), bad).toBeNull();
  });
});

describe('address book files', () => {
  const header = 'name,email,birthday';

  it('reads contacts with their line numbers, any line ending, a BOM, quotes and blank lines', () => {
    const { contacts, problems } = parseContactsCsv(`\ufeff${header}\r\n"Hopper, Grace",Grace@Example.com,1906-12-09\n\nLinus,linus@example.com,\rAda,ada@example.com,12-10\n`);
    expect(problems).toEqual([]);
    expect(contacts).toEqual([
      { line: 2, name: 'Hopper, Grace', email: 'grace@example.com', birthday: { month: 12, day: 9, year: 1906 } },
      { line: 4, name: 'Linus', email: 'linus@example.com', birthday: null },
      { line: 5, name: 'Ada', email: 'ada@example.com', birthday: { month: 12, day: 10, year: null } },
    ]);
  });

  it('merges lines of one address: the later name, and the later birthday when it has one', () => {
    const { contacts } = parseContactsCsv(`${header}\nGrace,grace@example.com,12-09\nGrace Hopper,GRACE@example.com,\n`);
    expect(contacts).toEqual([{ line: 2, name: 'Grace Hopper', email: 'grace@example.com', birthday: { month: 12, day: 9, year: null } }]);
  });

  it('lists every bad line and keeps nothing', () => {
    const { contacts, problems } = parseContactsCsv(`${header}\nGood,good@example.com,\nBad,bad,02-30\n"Multi\nline",ml@example.com,\nOne value\n`);
    expect(contacts).toEqual([]);
    expect(problems).toEqual([
      { line: 3, message: '"bad" is not an e-mail address. The birthday "02-30" is not a day: write YYYY-MM-DD or MM-DD.' },
      { line: 4, message: 'The name must be a single line without control characters.' },
      { line: 6, message: 'Expected 3 values (name,email,birthday), found 1.' },
    ]);
  });

  it('wants the header first', () => {
    expect(parseContactsCsv('Grace,grace@example.com,\n').problems).toEqual([{ line: 1, message: 'The first line must be the header name,email,birthday (it is "Grace,grace@example.com,").' }]);
    expect(parseContactsCsv('').problems).toEqual([{ line: 1, message: 'The first line must be the header name,email,birthday.' }]);
    expect(parseContactsCsv('NAME, Email ,Birthday\n').problems).toEqual([]);
  });

  it('stops at the 2,001st contact', () => {
    const rows = Array.from({ length: 2001 }, (_, i) => `P${i},p${i}@example.com,`);
    expect(parseContactsCsv([header, ...rows].join('\n')).problems).toEqual([{ line: 2002, message: 'An address book holds at most 2,000 contacts; this file has more.' }]);
    expect(parseContactsCsv([header, ...rows.slice(0, 2000), 'P0 again,p0@example.com,'].join('\n')).contacts).toHaveLength(2000);
  });

  it('writes what it reads back, with spreadsheet formulas defused', () => {
    const text = contactsCsv([
      { name: 'Hopper, Grace', email: 'grace@example.com', birthday: { month: 12, day: 9, year: 1906 } },
      { name: '=HYPERLINK("x")', email: 'f@example.com', birthday: { month: 2, day: 29 } },
      { name: 'Linus', email: 'linus@example.com', birthday: null },
    ]);
    expect(text).toBe('name,email,birthday\r\n"Hopper, Grace",grace@example.com,1906-12-09\r\n"\'=HYPERLINK(""x"")",f@example.com,02-29\r\nLinus,linus@example.com,\r\n');
    // The apostrophe that defused the formula is the file's, not the name's: the name reads back as it was.
    expect(parseContactsCsv(text).contacts.map((c) => c.name)).toEqual(['Hopper, Grace', '=HYPERLINK("x")', 'Linus']);
  });
});
