import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, outbox } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let ada: string;
const clock = manualClock('2026-12-20T12:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600, publicUrl: 'https://cards.example' }, { clock: clock.now });
  ada = await app.customer('ada_reminders');
});
afterAll(async () => {
  await app?.stop();
});

const CREATE = `mutation($input: ContactInput!) { createContact(input: $input) { id occasions { id nextRemindAt } } }`;
const UPDATE = `mutation($id: Int!, $input: ContactInput!) { updateContact(id: $id, input: $input) { id occasions { id remind nextRemindAt } } }`;
const ZONE = `mutation($zone: String!) { rememberTimeZone(timeZone: $zone) }`;

async function contact(name: string, email: string, occasion: Record<string, unknown>) {
  const { body } = await app.graphql(CREATE, { input: { name, email, occasions: [{ label: 'Birthday', ...occasion }] } }, ada);
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return { id: body.data.createContact.id as number, occasionId: body.data.createContact.occasions[0].id as number, nextRemindAt: body.data.createContact.occasions[0].nextRemindAt as string };
}
const nextRemindAt = async (occasionId: number) => (await app.sql<{ next_remind_at: Date | null }>('select next_remind_at from contact_occasion where id = $1', [occasionId]))[0]!.next_remind_at?.toISOString() ?? null;
const jobsOf = (occasionId: number) => app.sql<{ kind: string; recipient: string; status: string; due_at: Date }>(`select kind, recipient, status, due_at from mail_job where ref = $1 order by id`, [`occasion:${occasionId}`]);
const sweep = () => app.services.occasionReminders.sweep(app.orm);
const remindersTo = (address: string) => [...outbox(app).entries()].filter(([name, eml]) => name.startsWith('occasion-reminder-') && eml.includes(`To: ${address}`)).map(([, eml]) => eml);

describe('occasion reminders', () => {
  it("come N days before at 09:00 where the shopper is, across a year boundary, once a year", async () => {
    clock.set('2026-12-20T12:00:00Z');
    expect((await app.graphql(ZONE, { zone: 'Asia/Tokyo' }, ada)).body.data.rememberTimeZone).toBe('Asia/Tokyo');
    const grace = await contact('Grace Hopper', 'grace@example.com', { month: 1, day: 3, year: 1906 });
    // 7 days before 3 January 2027 is 27 December 2026; 09:00 in Tokyo is midnight UTC.
    expect(grace.nextRemindAt).toBe('2026-12-27T00:00:00.000Z');

    clock.set('2026-12-26T23:59:00Z');
    await sweep();
    expect(await jobsOf(grace.occasionId)).toEqual([]);

    clock.set('2026-12-27T00:00:20Z');
    await sweep();
    expect(await jobsOf(grace.occasionId)).toEqual([expect.objectContaining({ kind: 'occasion-reminder', recipient: 'ada_reminders@example.com', due_at: new Date('2026-12-27T00:00:00Z') })]);
    // Next year's, for 3 January 2028.
    expect(await nextRemindAt(grace.occasionId)).toBe('2027-12-27T00:00:00.000Z');
    await sweep();
    expect(await jobsOf(grace.occasionId)).toHaveLength(1);

    await app.services.deliveries.runDue();
    await expect.poll(() => remindersTo('ada_reminders@example.com').length, { timeout: 10_000 }).toBe(1);
    const [eml] = remindersTo('ada_reminders@example.com');
    expect(eml).toContain("Subject: Grace Hopper's Birthday is on Sunday 3 January");
    expect(eml).toContain('https://cards.example/shop');
    expect(eml).toContain('https://cards.example/account/contacts');
    expect(eml).toMatch(/List-Unsubscribe:\s+<https:\/\/cards\.example\/api\/reminders\/stop\?token=\d+\.[\w-]+>/);
    expect(eml).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(eml).toMatch(/https:\/\/cards\.example\/reminders\/stop\?token=\d+\.[\w-]+/);
  });

  it('remind of 29 February on the 28th in other years, and on the 29th in a leap year', async () => {
    clock.set('2027-01-10T00:00:00Z');
    const leap = await contact('Leap Day', 'leap@example.com', { month: 2, day: 29, remindDaysBefore: 1 });
    // 2027 has no 29 February: the occasion is on the 28th, the reminder on the 27th at 09:00 Tokyo.
    expect(leap.nextRemindAt).toBe('2027-02-27T00:00:00.000Z');
    clock.set('2027-02-27T00:00:05Z');
    await sweep();
    await app.services.deliveries.runDue();
    await expect.poll(() => remindersTo('ada_reminders@example.com').filter((eml) => eml.includes("Leap Day's Birthday")).length, { timeout: 10_000 }).toBe(1);
    expect(remindersTo('ada_reminders@example.com').find((eml) => eml.includes("Leap Day's"))).toContain("Subject: Leap Day's Birthday is on Sunday 28 February");
    // 2028 is a leap year: 28 February, for the 29th.
    expect(await nextRemindAt(leap.occasionId)).toBe('2028-02-28T00:00:00.000Z');
  });

  it('move with the shopper to another time zone', async () => {
    clock.set('2027-03-01T00:00:00Z');
    const linus = await contact('Linus', 'linus@example.com', { month: 12, day: 28 });
    expect(linus.nextRemindAt).toBe('2027-12-21T00:00:00.000Z');
    await app.graphql(ZONE, { zone: 'America/New_York' }, ada);
    // 09:00 in New York in December is 14:00 UTC.
    expect(await nextRemindAt(linus.occasionId)).toBe('2027-12-21T14:00:00.000Z');
    expect(await app.sql(`select time_zone from app_user where username = 'ada_reminders'`)).toEqual([{ time_zone: 'America/New_York' }]);
  });

  it('are not sent once their occasion has passed (jobs stopped for that long), only moved on', async () => {
    clock.set('2027-03-02T00:00:00Z');
    const late = await contact('Late', 'late@example.com', { month: 3, day: 10 });
    expect(late.nextRemindAt).toBe('2027-03-03T14:00:00.000Z');
    clock.set('2027-03-11T15:00:00Z');
    await sweep();
    expect(await jobsOf(late.occasionId)).toEqual([]);
    expect(await nextRemindAt(late.occasionId)).toBe('2028-03-03T14:00:00.000Z');
  });

  it('stop from the link of their e-mail, or from the address book, and one already queued is not sent', async () => {
    const eml = remindersTo('ada_reminders@example.com').find((e) => e.includes('Grace Hopper'))!;
    const token = /reminders\/stop\?token=(\d+\.[\w-]+)/.exec(eml)![1]!;
    const bad = await app.request(`/api/reminders/stop?token=${token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`, { method: 'POST' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    // A mail program's one-click unsubscribe: a form POST to the link.
    const res = await app.request(`/api/reminders/stop?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ message: "You will get no more reminders of Grace Hopper's Birthday." });
    const graceOccasion = Number(token.split('.')[0]);
    expect(await app.sql('select remind, next_remind_at from contact_occasion where id = $1', [graceOccasion])).toEqual([{ remind: false, next_remind_at: null }]);

    // Queued, then turned off in the address book before it went out: dropped when its time comes.
    clock.set('2027-04-01T00:00:00Z');
    const soon = await contact('Soon', 'soon@example.com', { month: 4, day: 9 });
    await app.services.mail.enqueue(app.orm.em.fork(), { kind: 'occasion-reminder', to: 'ada_reminders@example.com', dueAt: new Date('2027-04-02T13:00:00Z'), ref: { kind: 'occasion', id: soon.occasionId }, payload: { occasionId: soon.occasionId, contactName: 'Soon', label: 'Birthday', occasionDay: '2027-04-09' } });
    const off = await app.graphql(UPDATE, { id: soon.id, input: { name: 'Soon', email: 'soon@example.com', occasions: [{ label: 'Birthday', month: 4, day: 9, remind: false }] } }, ada);
    expect(off.body.data.updateContact.occasions[0]).toMatchObject({ remind: false, nextRemindAt: null });
    clock.set('2027-04-02T13:00:00Z');
    await app.services.deliveries.runDue();
    expect(remindersTo('ada_reminders@example.com').filter((e) => e.includes("Soon's"))).toEqual([]);
    expect(await jobsOf(soon.occasionId)).toEqual([]);
  });

  it("are never another shopper's business", async () => {
    const bob = await app.customer('bob_reminders');
    const { body } = await app.graphql(`{ contacts { totalCount } }`, {}, bob);
    expect(body.data.contacts.totalCount).toBe(0);
  });
});
