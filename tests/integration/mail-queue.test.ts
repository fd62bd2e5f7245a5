import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Foreground } from '../../server/src/core/foreground.js';
import { DeliveryService } from '../../server/src/modules/mail/delivery.service.js';
import type { Mailer, OutgoingMail } from '../../server/src/modules/mail/mailer.js';
import { drop, withhold, type QueuedMail } from '../../server/src/modules/mail/mail-queue.js';
import { manualClock } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Contract section 10: the generic queue against the real database. Jobs of a test kind (registered
 * here as any feature registers its own) are claimed in batches, rendered a batch at a time, sent
 * concurrently and settled in batches, each job once, under its claim.
 */
class RecordingMailer implements Mailer {
  sent: OutgoingMail[] = [];
  inFlight = 0;
  maxInFlight = 0;
  gate: Promise<void> | null = null;
  onSend: ((mail: OutgoingMail) => void) | null = null;
  async send(mail: OutgoingMail) {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      this.onSend?.(mail);
      await this.gate;
      await new Promise((resolve) => setTimeout(resolve, 2));
      this.sent.push(mail);
    } finally {
      this.inFlight--;
    }
  }
  close() {}
}

interface Note {
  n: number;
  secret?: string;
}

let app: TestApp;
const clock = manualClock('2026-12-24T08:00:00Z');
const mailer = new RecordingMailer();
const renders: number[] = [];
/** This file's worker (the app's own is stopped, so that nothing sends behind the tests' backs). */
let worker: DeliveryService;
const settled: number[][] = [];

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600, smtpPoolSize: 5 }, { clock: clock.now, mailer });
  await app.services.deliveries.stop();
  worker = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 5 });
  worker.start(app.orm, 3600);
  app.services.mail.register<Note>({
    kind: 'test-note',
    async render(jobs: readonly QueuedMail<Note>[]) {
      renders.push(jobs.length);
      return jobs.map((job) =>
        job.payload.n % 10 === 7 ? withhold(`Not delivered: note ${job.payload.n} was withdrawn`) : job.payload.n % 10 === 8 ? drop() : { subject: `Note ${job.payload.n}`, text: `Note ${job.payload.n}`, html: `<p>Note ${job.payload.n}</p>`, headers: { 'X-Note': String(job.payload.n) } },
      );
    },
    async settle(em, jobs) {
      settled.push(jobs.map((job) => (job.payload as Note).n));
      await em.execute('select 1');
    },
    eraseWhenSent: ['secret'],
  });
  app.services.mail.addFilter(async (entries) => {
    for (const entry of entries) {
      if (entry.job.kind !== 'test-note') continue;
      entry.mail.headers['List-Unsubscribe'] = `<https://cards.example/unsubscribe?n=${(entry.job.payload as unknown as Note).n}>`;
      if ((entry.job.payload as unknown as Note).n === 9) entry.withhold('Not delivered: the recipient unsubscribed');
    }
  });
});
afterAll(async () => {
  await worker?.stop();
  await app?.stop();
});

const enqueue = (notes: Note[], dueAt = clock.now()) =>
  app.orm.em.fork().transactional((em) => app.services.mail.enqueueMany(em, notes.map((note) => ({ kind: 'test-note', to: `note${note.n}@example.com`, dueAt, payload: note, ref: { kind: 'note', id: note.n } }))));

/**
 * Records, per UPDATE statement on mail_job, how many test-note rows it moved into 'sending' (a claim)
 * and from 'sending' to 'sent' (a settle): the database's own count, whatever the SQL's wording.
 * Renewing a lease or marking an e-mail taken keeps the row 'sending', so neither is counted.
 */
async function watchTransitions(): Promise<{ read(): Promise<{ claimed: number; settled: number }[]>; drop(): Promise<void> }> {
  await app.sql(`create table test_mail_transition (seq serial primary key, claimed int not null, settled int not null)`);
  await app.sql(`
    create function test_mail_transition() returns trigger language plpgsql as $$
    begin
      insert into test_mail_transition (claimed, settled)
        select count(*) filter (where o.status <> 'sending' and n.status = 'sending'), count(*) filter (where o.status = 'sending' and n.status = 'sent')
          from o join n using (id) where n.kind = 'test-note';
      return null;
    end $$`);
  await app.sql(`create trigger test_mail_transition after update on mail_job referencing old table as o new table as n for each statement execute function test_mail_transition()`);
  return {
    read: () => app.sql<{ claimed: number; settled: number }>(`select claimed, settled from test_mail_transition where claimed > 0 or settled > 0 order by seq`),
    async drop() {
      await app.sql(`drop trigger if exists test_mail_transition on mail_job`);
      await app.sql(`drop function if exists test_mail_transition()`);
      await app.sql(`drop table if exists test_mail_transition`);
    },
  };
}

const statuses = async () => Object.fromEntries((await app.sql<{ status: string; n: number }>(`select status, count(*)::int as n from mail_job where kind = 'test-note' group by status`)).map((r) => [r.status, r.n]));

describe('the generic mail queue', () => {
  it('claims in batches, renders a batch per call, sends concurrently, settles in batches, each job once', async () => {
    const notes = Array.from({ length: 250 }, (_, i) => ({ n: 100 + i, secret: `s${i}` }));
    const ids = await enqueue(notes);
    expect(ids).toHaveLength(250);
    renders.length = 0;
    settled.length = 0;
    const transitions = await watchTransitions();
    let statements: { claimed: number; settled: number }[];
    let elapsed: number;
    try {
      const began = performance.now();
      await worker.runDue();
      elapsed = performance.now() - began;
      statements = await transitions.read();
    } finally {
      await transitions.drop();
    }
    // 250 jobs: 25 withheld (…7), 25 dropped (…8), 200 sent.
    expect(await statuses()).toEqual({ sent: 200, withheld: 25 });
    const sent = mailer.sent.filter((m) => m.id.startsWith('test-note-'));
    expect(new Set(sent.map((m) => m.id)).size).toBe(200);
    expect(sent).toHaveLength(200);
    // Batches of at most 100, a renderer call each; at most five sends at once (the pool's size), and more than one.
    expect(renders.every((size) => size <= 100)).toBe(true);
    expect(renders.length).toBeLessThanOrEqual(4);
    expect(mailer.maxInFlight).toBeGreaterThan(1);
    expect(mailer.maxInFlight).toBeLessThanOrEqual(5);
    // Claims and settles are statements per batch, never per e-mail. A claim takes up to 100 due jobs
    // and nothing else claims here: 250 jobs are exactly three claims, of 100, 100 and 50.
    const claims = statements.map((s) => s.claimed).filter((n) => n > 0);
    expect(claims).toEqual([100, 100, 50]);
    // Outcomes are settled once 100 have gathered or 100 ms after the first of them, and once more
    // when the run ends. The 200 sent e-mails need at least two settles; the 250 outcomes (withheld
    // and dropped ones count) make at most two full batches, plus one settle per 100 ms the run
    // lasted, plus the last: on a quiet machine a handful, and far fewer than one per e-mail.
    const settles = statements.map((s) => s.settled).filter((n) => n > 0);
    expect(settles.reduce((a, b) => a + b, 0)).toBe(200);
    expect(settles.length).toBeGreaterThanOrEqual(Math.ceil(200 / 100));
    expect(settles.length).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 100) + 1);
    expect(settles.length).toBeLessThanOrEqual(40);
    // Claiming and settling are separate statements.
    expect(statements.every((s) => s.claimed === 0 || s.settled === 0)).toBe(true);
    expect(settled.flat().sort()).toEqual(notes.map((n) => n.n).filter((n) => n % 10 !== 7 && n % 10 !== 8).sort());
    // Headers from the renderer and from the filters; the withheld reason is kept for admins; the secret is erased once sent.
    expect(sent.find((m) => m.id === `test-note-${ids[0]}`)?.headers).toEqual({ 'X-Note': '100', 'List-Unsubscribe': '<https://cards.example/unsubscribe?n=100>' });
    expect(await app.sql(`select last_error from mail_job where ref = 'note:107'`)).toEqual([{ last_error: 'Not delivered: note 107 was withdrawn' }]);
    expect(await app.sql(`select count(*)::int as n from mail_job where kind = 'test-note' and payload ? 'secret'`)).toEqual([{ n: 25 }]);
  });

  it('lets a filter withhold an e-mail with a reason, and a dedupe key makes a second enqueue a no-op', async () => {
    const [first] = await app.orm.em.fork().transactional((em) => app.services.mail.enqueueMany(em, [{ kind: 'test-note', to: 'nine@example.com', dueAt: clock.now(), payload: { n: 9 }, dedupeKey: 'note-nine' }]));
    const again = await app.orm.em.fork().transactional((em) => app.services.mail.enqueue(em, { kind: 'test-note', to: 'nine@example.com', dueAt: clock.now(), payload: { n: 9 }, dedupeKey: 'note-nine' }));
    expect(first).toBeGreaterThan(0);
    expect(again).toBeNull();
    await worker.runDue();
    expect(await app.sql(`select status, last_error from mail_job where id = $1`, [first])).toEqual([{ status: 'withheld', last_error: 'Not delivered: the recipient unsubscribed' }]);
    expect(mailer.sent.some((m) => m.id === `test-note-${first}`)).toBe(false);
  });

  it('settles a job only under the claim that holds it: a worker whose lease ran out and was taken over settles nothing', async () => {
    clock.set('2026-12-24T09:00:00Z');
    // Two workers on the same database (as two processes would be); the first one's lease is 60 s.
    const firstWorker = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 2, leaseMs: 60_000 });
    const other = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 2 });
    let release = () => {};
    mailer.gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    let id = 0;
    mailer.onSend = (mail) => {
      if (mail.id === `test-note-${id}`) started++;
    };
    try {
      firstWorker.start(app.orm, 3600);
      await firstWorker.runDue();
      [id] = await enqueue([{ n: 500 }]);
      settled.length = 0;
      const first = firstWorker.runDue();
      await expect.poll(() => started, { timeout: 10_000 }).toBe(1);
      // The first worker is stuck past its lease (as if it had lost the database): the other takes the job over.
      clock.set('2026-12-24T09:01:01Z');
      mailer.gate = null;
      other.start(app.orm, 3600);
      await other.runDue();
      expect(started).toBe(2);
      expect(await app.sql(`select status from mail_job where id = $1`, [id])).toEqual([{ status: 'sent' }]);
      release();
      await first;
      // Sent twice (the same Message-ID both times), settled once.
      expect(mailer.sent.filter((m) => m.id === `test-note-${id}`)).toHaveLength(2);
      expect(settled.flat().filter((n) => n === 500)).toHaveLength(1);
    } finally {
      release();
      mailer.onSend = null;
      mailer.gate = null;
      await other.stop();
      await firstWorker.stop();
    }
  });

  it('shares the queue between two workers: each job once', async () => {
    clock.set('2026-12-24T10:00:00Z');
    const ids = await enqueue(Array.from({ length: 300 }, (_, i) => ({ n: 1000 + i * 10 })));
    const other = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 3, batchSize: 20 });
    other.start(app.orm, 3600);
    try {
      await Promise.all([worker.runDue(), other.runDue()]);
      await Promise.all([worker.runDue(), other.runDue()]);
    } finally {
      await other.stop();
    }
    const sent = mailer.sent.filter((m) => ids.some((id) => m.id === `test-note-${id}`));
    expect(sent).toHaveLength(300);
    expect(new Set(sent.map((m) => m.id)).size).toBe(300);
    expect(other.stats.sent).toBeGreaterThan(0);
    expect(await app.sql(`select count(*)::int as n from mail_job where id = any($1::int[]) and status = 'sent'`, [ids])).toEqual([{ n: 300 }]);
  });

  it('holds e-mails back while its process answers requests, and sends them with the whole pool the moment it has answered them', async () => {
    clock.set('2026-12-24T10:30:00Z');
    const foreground = new Foreground();
    // A grace longer than the test: nothing may leave while the request is being answered.
    const polite = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 5, yieldTo: foreground, busyGraceMs: 120_000 });
    polite.start(app.orm, 3600);
    let answered = () => {};
    let release = () => {};
    try {
      await polite.runDue();
      answered = foreground.begin();
      const held = await enqueue(Array.from({ length: 20 }, (_, i) => ({ n: 4000 + i * 10 })));
      mailer.maxInFlight = 0;
      let sends = 0;
      mailer.onSend = () => void sends++;
      mailer.gate = new Promise<void>((resolve) => (release = resolve));
      const run = polite.runDue();
      // Every lane of the run waits for the request (none has claimed anything): not one e-mail is handed to the mailer.
      await expect.poll(() => (polite as unknown as { lanes: { waiting: Set<unknown> } }).lanes.waiting.size, { timeout: 10_000 }).toBe(5);
      expect(sends).toBe(0);
      expect(await app.sql(`select count(*)::int as n from mail_job where id = any($1::int[]) and status = 'queued'`, [held])).toEqual([{ n: 20 }]);
      expect(foreground.busy).toBe(true);
      answered();
      // Answered: every connection at once.
      await expect.poll(() => mailer.inFlight, { timeout: 10_000 }).toBe(5);
      release();
      await run;
      expect(mailer.sent.filter((m) => held.some((id) => m.id === `test-note-${id}`))).toHaveLength(20);
      expect(await app.sql(`select count(*)::int as n from mail_job where id = any($1::int[]) and status = 'sent'`, [held])).toEqual([{ n: 20 }]);
    } finally {
      mailer.onSend = null;
      mailer.gate = null;
      release();
      answered();
      await polite.stop();
    }
  });

  it('sends under requests that do not let up once its grace is over: the first e-mail no sooner', async () => {
    clock.set('2026-12-24T10:45:00Z');
    const foreground = new Foreground();
    const grace = 1_500;
    const polite = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 5, yieldTo: foreground, busyGraceMs: grace });
    polite.start(app.orm, 3600);
    let answered = () => {};
    try {
      await polite.runDue();
      answered = foreground.begin();
      const began = performance.now();
      const jobs = await enqueue(Array.from({ length: 5 }, (_, i) => ({ n: 4500 + i * 10 })));
      let first = 0;
      mailer.onSend = () => void (first ||= performance.now());
      mailer.maxInFlight = 0;
      await polite.runDue();
      expect(mailer.sent.filter((m) => jobs.some((id) => m.id === `test-note-${id}`))).toHaveLength(5);
      expect(first - began).toBeGreaterThanOrEqual(grace - 5);
      expect(mailer.maxInFlight).toBe(1);
      expect(foreground.busy).toBe(true);
    } finally {
      mailer.onSend = null;
      answered();
      await polite.stop();
    }
  });

  it('makes room for the requests its process answers (its grace over): one e-mail at a time, at most 20 a second, while one is answered, the whole pool again at once after', async () => {
    clock.set('2026-12-24T11:00:00Z');
    const foreground = new Foreground();
    const polite = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 5, yieldTo: foreground, busyGraceMs: 0 });
    polite.start(app.orm, 3600);
    let release = () => {};
    let answered = () => {};
    try {
      await polite.runDue();
      // A request is being answered during the whole run: one e-mail at a time, and the run still ends.
      answered = foreground.begin();
      const whileBusy = await enqueue(Array.from({ length: 30 }, (_, i) => ({ n: 5000 + i * 10 })));
      mailer.maxInFlight = 0;
      const started = performance.now();
      await polite.runDue();
      expect(mailer.sent.filter((m) => whileBusy.some((id) => m.id === `test-note-${id}`))).toHaveLength(30);
      expect(mailer.maxInFlight).toBe(1);
      // One every 50 ms at most: 30 e-mails take at least 29 intervals (timers never fire early).
      expect(performance.now() - started).toBeGreaterThanOrEqual(29 * 50 - 5);

      // The request is answered half way through a run: the other connections join in at once.
      mailer.gate = new Promise<void>((resolve) => (release = resolve));
      const midway = await enqueue(Array.from({ length: 30 }, (_, i) => ({ n: 6000 + i * 10 })));
      mailer.maxInFlight = 0;
      const run = polite.runDue();
      await expect.poll(() => mailer.inFlight, { timeout: 10_000 }).toBe(1);
      expect(mailer.maxInFlight).toBe(1);
      answered();
      expect(foreground.busy).toBe(false);
      await expect.poll(() => mailer.inFlight, { timeout: 10_000 }).toBe(5);
      release();
      await run;
      const sent = mailer.sent.filter((m) => midway.some((id) => m.id === `test-note-${id}`));
      expect(sent).toHaveLength(30);
      expect(new Set(sent.map((m) => m.id)).size).toBe(30);
      expect(await app.sql(`select count(*)::int as n from mail_job where id = any($1::int[]) and status = 'sent'`, [[...whileBusy, ...midway]])).toEqual([{ n: 60 }]);

      // Stopping does not wait for the process to be idle: the lanes waiting for it give their e-mails back.
      answered = foreground.begin();
      mailer.gate = new Promise<void>((resolve) => (release = resolve));
      const atStop = await enqueue(Array.from({ length: 10 }, (_, i) => ({ n: 7000 + i * 10 })));
      const last = polite.runDue();
      await expect.poll(() => mailer.inFlight, { timeout: 10_000 }).toBe(1);
      const stopped = polite.stop();
      release();
      await stopped;
      await last;
      expect(foreground.busy).toBe(true);
      const rows = await app.sql<{ status: string }>(`select status from mail_job where id = any($1::int[])`, [atStop]);
      expect(rows.filter((row) => row.status === 'sent')).toHaveLength(1);
      expect(rows.filter((row) => row.status === 'queued')).toHaveLength(9);
    } finally {
      release();
      answered();
      mailer.gate = null;
      await polite.stop();
    }
  });

  it('runs again when woken while it looks up the next due e-mail (the wake-up is not lost until the next poll)', async () => {
    const late = new DeliveryService(app.services.mail, { mailer, clock: clock.now, log: pino({ level: 'silent' }), concurrency: 2 });
    const lookUp = (late as unknown as { nextDue(): Promise<Date | null> }).nextDue.bind(late);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = () => {};
    const inside = new Promise<void>((resolve) => (entered = resolve));
    (late as unknown as { nextDue(): Promise<Date | null> }).nextDue = async () => {
      entered();
      await gate;
      return lookUp();
    };
    try {
      late.start(app.orm, 3600);
      // The run started by start() found nothing and is looking up the next due e-mail when one is queued and it is woken.
      await inside;
      const [id] = await enqueue([{ n: 8001 }]);
      const woken = late.runDue();
      release();
      await woken;
      expect(mailer.sent.some((m) => m.id === `test-note-${id}`)).toBe(true);
      expect(late.stats.sent).toBeGreaterThanOrEqual(1);
    } finally {
      release();
      await late.stop();
    }
  });

  it('refuses a job of a kind nobody registered', async () => {
    await expect(app.orm.em.fork().transactional((em) => app.services.mail.enqueue(em, { kind: 'nobody', to: 'x@example.com', dueAt: clock.now() }))).rejects.toThrow(/Unknown mail kind/);
  });
});
