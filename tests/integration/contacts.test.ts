import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../helpers/order-fixtures.js';
import { recordQueries, selects } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let ada: string;
let bob: string;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 }, { clock: clock.now });
  ada = await app.customer('ada_book');
  bob = await app.customer('bob_book');
});
afterAll(async () => {
  await app?.stop();
});

const CONTACT = 'id name email occasions { id label month day year remind remindDaysBefore nextRemindAt }';
const CONTACTS = `query($search: String, $first: Int, $after: String) { contacts(search: $search, first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${CONTACT} } } } }`;
const CREATE = `mutation($input: ContactInput!) { createContact(input: $input) { ${CONTACT} } }`;
const UPDATE = `mutation($id: Int!, $input: ContactInput!) { updateContact(id: $id, input: $input) { ${CONTACT} } }`;
const DELETE = `mutation($id: Int!) { deleteContact(id: $id) }`;
const IMPORT = `mutation($csv: String!) { importContacts(csv: $csv) { imported errors { line message } } }`;

async function create(token: string, input: Record<string, unknown>) {
  const { body } = await app.graphql(CREATE, { input }, token);
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.createContact;
}

const names = async (token: string, variables: Record<string, unknown> = {}) =>
  ((await app.graphql(CONTACTS, variables, token)).body.data.contacts.edges as { node: { name: string } }[]).map((e) => e.node.name);

describe('the address book over GraphQL', () => {
  it('adds, changes and deletes contacts with their occasions', async () => {
    const grace = await create(ada, { name: 'Grace Hopper', email: 'Grace@Example.com', occasions: [{ label: 'Birthday', month: 12, day: 9, year: 1906 }] });
    expect(grace).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com', occasions: [{ label: 'Birthday', month: 12, day: 9, year: 1906, remind: true, remindDaysBefore: 7 }] });
    // 7 days before 9 December, at 09:00 where the shopper is (UTC until their browser says otherwise).
    expect(grace.occasions[0].nextRemindAt).toBe('2026-12-02T09:00:00.000Z');

    const changed = await app.graphql(UPDATE, { id: grace.id, input: { name: 'Rear Admiral Grace Hopper', email: 'grace@example.com', occasions: [{ label: 'birthday', month: 12, day: 9, remindDaysBefore: 3 }, { label: 'Anniversary', month: 6, day: 15, remind: false }] } }, ada);
    expect(changed.body.errors).toBeUndefined();
    const occasions = changed.body.data.updateContact.occasions;
    // The birthday is the same occasion (its label in any case), now 3 days before; the anniversary has no reminder.
    expect(occasions).toEqual([
      { id: expect.any(Number), label: 'Anniversary', month: 6, day: 15, year: null, remind: false, remindDaysBefore: 7, nextRemindAt: null },
      { id: grace.occasions[0].id, label: 'birthday', month: 12, day: 9, year: null, remind: true, remindDaysBefore: 3, nextRemindAt: '2026-12-06T09:00:00.000Z' },
    ]);

    expect((await app.graphql(DELETE, { id: grace.id }, ada)).body.data.deleteContact).toBe(grace.id);
    expect(await app.sql('select * from contact_occasion where contact_id = $1', [grace.id])).toEqual([]);
  });

  it('says which field is wrong and refuses an address twice', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', email: 'a@example.com' }, 'input.name'],
      [{ name: 'A', email: 'not-an-address' }, 'input.email'],
      [{ name: 'A', email: 'a@example.com', occasions: [{ label: 'Birthday', month: 2, day: 30 }] }, 'input.occasions.0.day'],
      [{ name: 'A', email: 'a@example.com', occasions: [{ label: 'Birthday', month: 2, day: 29, year: 2023 }] }, 'input.occasions.0.day'],
      [{ name: 'A', email: 'a@example.com', occasions: [{ label: 'Birthday', month: 13, day: 1 }] }, 'input.occasions.0.month'],
      [{ name: 'A', email: 'a@example.com', occasions: [{ label: 'Birthday', month: 1, day: 1, remindDaysBefore: 31 }] }, 'input.occasions.0.remindDaysBefore'],
      [{ name: 'A', email: 'a@example.com', occasions: [{ label: 'Birthday', month: 1, day: 1 }, { label: 'BIRTHDAY', month: 2, day: 1 }] }, 'input.occasions.1.label'],
    ];
    for (const [input, field] of cases) {
      const { body } = await app.graphql(CREATE, { input }, ada);
      expect(body.errors?.[0]?.extensions, field).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    // 29 February without a year is a birthday like any other.
    await create(ada, { name: 'Leap Day', email: 'leap@example.com', occasions: [{ label: 'Birthday', month: 2, day: 29 }] });
    const again = await app.graphql(CREATE, { input: { name: 'Leap Again', email: 'LEAP@example.com' } }, ada);
    expect(again.body.errors?.[0]).toMatchObject({ message: 'leap@example.com is already in your address book.', extensions: { code: 'CONFLICT' } });
  });

  it("keeps each shopper's book to themselves", async () => {
    const bobs = await create(bob, { name: 'Bob’s Friend', email: 'friend@example.com' });
    const adas = await create(ada, { name: 'Ada’s Friend', email: 'friend@example.com' });
    expect(await names(ada)).not.toContain('Bob’s Friend');
    expect(await names(bob)).toEqual(['Bob’s Friend']);
    // Another's contact does not exist for the caller: not read, not changed, not deleted.
    const update = await app.graphql(UPDATE, { id: bobs.id, input: { name: 'Stolen', email: 'friend@example.com' } }, ada);
    expect(update.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await app.graphql(DELETE, { id: bobs.id }, ada)).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await names(bob)).toEqual(['Bob’s Friend']);
    expect((await app.graphql(DELETE, { id: adas.id }, ada)).body.errors).toBeUndefined();
    // Signed-out callers have no book at all.
    expect((await app.graphql(CONTACTS, {})).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await app.graphql(IMPORT, { csv: 'name,email,birthday\n' })).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await app.request('/api/account/contacts.csv')).status).toBe(401);
  });

  it('searches and pages on the server, in name order, in a bounded number of queries', async () => {
    const token = await app.customer('paging_book');
    const rows = ['name,email,birthday', ...Array.from({ length: 120 }, (_, i) => `Person ${String(i).padStart(3, '0')},person${i}@example.com,${i % 2 ? '' : '05-17'}`), 'Zed Quinn,zed@mail.test,'];
    const imported = await app.graphql(IMPORT, { csv: rows.join("\n") }, token);
    expect(imported.body.errors).toBeUndefined();
    expect(imported.body.data.importContacts).toEqual({ imported: 121, errors: [] });

    const first = (await app.graphql(CONTACTS, { first: 50 }, token)).body.data.contacts;
    expect(first.totalCount).toBe(121);
    expect(first.edges[0].node.name).toBe('Person 000');
    const seen: string[] = first.edges.map((e: { node: { name: string } }) => e.node.name);
    let after = first.pageInfo.endCursor;
    for (;;) {
      const page = (await app.graphql(CONTACTS, { first: 50, after }, token)).body.data.contacts;
      seen.push(...page.edges.map((e: { node: { name: string } }) => e.node.name));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(121);
    expect(seen).toEqual([...seen].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(await names(token, { search: 'mail.test' })).toEqual(['Zed Quinn']);
    expect(await names(token, { search: 'PERSON 11' })).toEqual(['Person 011', 'Person 110', 'Person 111', 'Person 112', 'Person 113', 'Person 114', 'Person 115', 'Person 116', 'Person 117', 'Person 118', 'Person 119']);

    // A page of 50 contacts with their occasions: the page, its count and one query for every occasion.
    const queries = await recordQueries(app, async () => void (await app.graphql(CONTACTS, { first: 50 }, token)));
    // The caller's session, the page, its count and the occasions of the whole page.
    expect(selects(queries).length).toBeLessThanOrEqual(4);
  });
});

describe('importing and exporting CSV', () => {
  it('imports a file, merges addresses it names twice or the book already has, and exports it back', async () => {
    const token = await app.customer('csv_book');
    await create(token, { name: 'Old Name', email: 'known@example.com', occasions: [{ label: 'Birthday', month: 1, day: 1, remindDaysBefore: 14 }] });
    const csv = '\ufeffname,email,birthday\r\n"Hopper, Grace",grace@example.com,1906-12-09\r\nLinus,linus@example.com,12-28\r\nKnown Person,KNOWN@example.com,03-04\r\n\r\nLinus Torvalds,linus@example.com,\r\n';
    expect((await app.graphql(IMPORT, { csv }, token)).body.data.importContacts).toEqual({ imported: 3, errors: [] });
    const book = (await app.graphql(CONTACTS, {}, token)).body.data.contacts.edges.map((e: any) => e.node);
    expect(book.map((c: any) => [c.name, c.email, c.occasions.map((o: any) => [o.label, o.month, o.day, o.year, o.remindDaysBefore])])).toEqual([
      ['Hopper, Grace', 'grace@example.com', [['Birthday', 12, 9, 1906, 7]]],
      // The known contact keeps its "Remind me" choice; its birthday is the file's.
      ['Known Person', 'known@example.com', [['Birthday', 3, 4, null, 14]]],
      ['Linus Torvalds', 'linus@example.com', [['Birthday', 12, 28, null, 7]]],
    ]);
    const known = book.find((c: any) => c.email === 'known@example.com');
    expect(known.occasions[0].nextRemindAt).toBe('2027-02-18T09:00:00.000Z');

    const res = await app.request('/api/account/contacts.csv', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const exported = await res.text();
    expect(exported).toBe('name,email,birthday\r\n"Hopper, Grace",grace@example.com,1906-12-09\r\nKnown Person,known@example.com,03-04\r\nLinus Torvalds,linus@example.com,12-28\r\n');
    // The file reads back as it is: nothing new.
    expect((await app.graphql(IMPORT, { csv: exported }, token)).body.data.importContacts).toEqual({ imported: 3, errors: [] });
    expect((await app.graphql(CONTACTS, {}, token)).body.data.contacts.totalCount).toBe(3);
  });

  it('lists every bad line with its number and imports nothing', async () => {
    const token = await app.customer('bad_csv');
    const csv = [
      'name,email,birthday',
      'Good One,good@example.com,1990-01-02',
      'Bad Day,bad-day@example.com,02-30',
      'Bad Mail,not-an-address,',
      'Not Leap,leap@example.com,2023-02-29',
      ',nameless@example.com,',
      'Too,many,values,here',
      'Leap Fine,leapfine@example.com,02-29',
    ].join('\n');
    const { body } = await app.graphql(IMPORT, { csv }, token);
    expect(body.data.importContacts.imported).toBe(0);
    expect(body.data.importContacts.errors).toEqual([
      { line: 3, message: 'The birthday "02-30" is not a day: write YYYY-MM-DD or MM-DD.' },
      { line: 4, message: '"not-an-address" is not an e-mail address.' },
      { line: 5, message: 'The birthday "2023-02-29" is not a day: write YYYY-MM-DD or MM-DD.' },
      { line: 6, message: 'The name is required.' },
      { line: 7, message: 'Expected 3 values (name,email,birthday), found 4.' },
    ]);
    expect(await app.sql(`select c.* from contact c join app_user u on u.id = c.user_id where u.username = 'bad_csv'`)).toEqual([]);

    const header = await app.graphql(IMPORT, { csv: 'Name;E-mail;Birthday\nA;a@example.com;\n' }, token);
    expect(header.body.data.importContacts).toEqual({ imported: 0, errors: [{ line: 1, message: 'The first line must be the header name,email,birthday (it is "Name;E-mail;Birthday").' }] });
    const quote = await app.graphql(IMPORT, { csv: 'name,email,birthday\nA,a@example.com,\nB "the" C,b@example.com,\n' }, token);
    expect(quote.body.data.importContacts.imported).toBe(0);
    expect(quote.body.data.importContacts.errors).toEqual([{ line: 3, message: expect.stringMatching(/^This line is not valid CSV: a quote/) }]);
  });

  it('refuses more than 2,000 contacts and a file that is too large', async () => {
    const token = await app.customer('big_book');
    const rows = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `Person ${from + i},p${from + i}@example.com,`);
    const tooMany = await app.graphql(IMPORT, { csv: ['name,email,birthday', ...rows(2001)].join('\n') }, token);
    expect(tooMany.body.data.importContacts).toEqual({ imported: 0, errors: [{ line: 2002, message: 'An address book holds at most 2,000 contacts; this file has more.' }] });

    expect((await app.graphql(IMPORT, { csv: ['name,email,birthday', ...rows(1990)].join('\n') }, token)).body.data.importContacts.imported).toBe(1990);
    // Ten more fit; the eleventh new one does not (known addresses are updates, not additions).
    const over = await app.graphql(IMPORT, { csv: ['name,email,birthday', ...rows(5, 0), ...rows(11, 5000)].join('\n') }, token);
    expect(over.body.data.importContacts).toEqual({ imported: 0, errors: [{ line: 17, message: expect.stringContaining('holds 1,990 contacts and can hold at most 2,000') }] });
    expect((await app.graphql(IMPORT, { csv: ['name,email,birthday', ...rows(10, 5000)].join('\n') }, token)).body.data.importContacts.imported).toBe(10);
    const full = await app.graphql(CREATE, { input: { name: 'One More', email: 'one-more@example.com' } }, token);
    expect(full.body.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' }, message: expect.stringContaining('at most 2,000') });

    // 600 kB of text: refused before it is read, with the limit named.
    const large = await app.graphql(IMPORT, { csv: 'name,email,birthday\n' + 'x'.repeat(600 * 1024) }, token);
    expect(large.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'csv' }, message: expect.stringContaining('at most 512 kB') });
    // A 5 MB body never reaches the server's reading: 413 with a message.
    const huge = await app.request('/graphql', { method: 'POST', token, json: { query: IMPORT, variables: { csv: 'x'.repeat(5 * 1024 * 1024) } } });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await app.graphql(CONTACTS, {}, token)).body.data.contacts.totalCount).toBe(2000);
  });
});
