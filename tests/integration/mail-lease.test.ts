import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { DeliveryService } from '../../server/src/modules/mail/delivery.service.js';
import type { Mailer, OutgoingMail } from '../../server/src/modules/mail/mailer.js';
import type { QueuedMail } from '../../server/src/modules/mail/mail-queue.js';
import { manualClock } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A worker's claim on the e-mails it sends (contract section 10): a lease that it renews while the
 * e-mails are still in its hands, so that a slow mail server does not let a second worker send them
 * again; and never longer than 60 s, so that a dead worker's e-mails go out within about a minute.
 */

/** A mail server that takes e-mails only when the test lets it. */
class HeldMailer implements Mailer {
  started: string[] = [];
  sent: OutgoingMail[] = [];
  private gate: Promise<void> | null = null;
  private open = () => {};
  hold() {
    this.gate = new Promise<void>((resolve) => (this.open = resolve));
  }
  release() {
    this.open();
    this.gate = null;
  }
  async send(mail: OutgoingMail) {
    this.started.push(mail.id);
    await this.gate;
    this.sent.push(mail);
  }
  close() {}
}

const HOUR_S = 3600;
const CAP_MS = 60_000;
const log = pino({ level: 'silent' });
const clock = manualClock('2026-12-24T08:00:00Z');
const held = new HeldMailer();
let app: TestApp;

beforeAll(async () => {
  // An hour's lease, past the configuration's own cap (MAIL_LEASE_SECONDS is read as at most 60): what the worker does with it is tested.
  app = await startTestApp({ deliveryPollSeconds: HOUR_S, mailLeaseSeconds: HOUR_S }, { clock: clock.now, mailer: held });
  app.services.mail.register<{ n: number }>({
    kind: 'lease-note',
    async render(jobs: readonly QueuedMail<{ n: number }>[]) {
      return jobs.map((job) => ({ subject: `Note ${job.payload.n}`, text: `Note ${job.payload.n}`, html: `<p>Note ${job.payload.n}</p>` }));
    },
  });
});
afterAll(async () => {
  held.release();
  await app?.stop();
});

const enqueue = async (n: number) => {
  const [id] = await app.orm.em.fork().transactional((em) => app.services.mail.enqueueMany(em, [{ kind: 'lease-note', to: `note${n}@example.com`, dueAt: clock.now(), payload: { n } }]));
  return id!;
};
const claimOf = async (id: number) =>
  (await app.sql<{ status: string; claim_token: string | null; claimed_until: Date | null; attempts: number }>('select status, claim_token, claimed_until, attempts from mail_job where id = $1', [id]))[0]!;
const at = (iso: string, plusMs = 0) => new Date(new Date(iso).getTime() + plusMs);

describe('the lease on claimed e-mails', () => {
  it('is at most 60 s, however long the lease configured', async () => {
    expect(loadConfig({ MAIL_LEASE_SECONDS: String(HOUR_S) }).mailLeaseSeconds).toBe(60);

    // The shop's own worker, given an hour.
    clock.set('2026-12-24T08:00:00Z');
    const id = await enqueue(1);
    held.hold();
    const run = app.services.deliveries.runDue();
    try {
      await expect.poll(() => held.started.includes(`lease-note-${id}`), { timeout: 30_000 }).toBe(true);
      expect(await claimOf(id)).toMatchObject({ status: 'sending', claimed_until: at('2026-12-24T08:00:00Z', CAP_MS) });
    } finally {
      held.release();
    }
    await run;
    expect((await claimOf(id)).status).toBe('sent');

    // A worker given ten minutes.
    await app.services.deliveries.stop();
    clock.set('2026-12-24T08:30:00Z');
    const greedy = new DeliveryService(app.services.mail, { mailer: held, clock: clock.now, log, concurrency: 1, leaseMs: 10 * 60_000 });
    greedy.start(app.orm, HOUR_S);
    try {
      await greedy.runDue();
      const other = await enqueue(2);
      held.hold();
      const greedyRun = greedy.runDue();
      try {
        await expect.poll(() => held.started.includes(`lease-note-${other}`), { timeout: 30_000 }).toBe(true);
        expect(await claimOf(other)).toMatchObject({ status: 'sending', claimed_until: at('2026-12-24T08:30:00Z', CAP_MS) });
      } finally {
        held.release();
      }
      await greedyRun;
      expect((await claimOf(other)).status).toBe('sent');
    } finally {
      await greedy.stop();
    }
  });

  it('is renewed while an e-mail is being sent for longer than it: a second worker takes nothing, and the e-mail goes out once', async () => {
    // Only the two workers of this test claim.
    await app.services.deliveries.stop();
    const start = '2026-12-24T09:00:00Z';
    clock.set(start);
    const lease = 1_500;
    const first = new DeliveryService(app.services.mail, { mailer: held, clock: clock.now, log, concurrency: 1, leaseMs: lease });
    const elsewhere = new HeldMailer();
    const second = new DeliveryService(app.services.mail, { mailer: elsewhere, clock: clock.now, log, concurrency: 1 });
    first.start(app.orm, HOUR_S);
    second.start(app.orm, HOUR_S);
    let release = () => {};
    try {
      await Promise.all([first.runDue(), second.runDue()]);
      const id = await enqueue(3);
      held.hold();
      release = () => held.release();
      const run = first.runDue();
      await expect.poll(() => held.started.filter((sent) => sent === `lease-note-${id}`).length, { timeout: 30_000 }).toBe(1);
      const claim = await claimOf(id);
      expect(claim).toMatchObject({ status: 'sending', claimed_until: at(start, lease), attempts: 1 });

      // The send outlasts the lease twice over. The first worker renews its lease every lease/3 (at
      // least every 500 ms of real time): each step of the shop's clock is followed by a renewal to
      // that moment plus the lease, and the second worker, looking at each moment, finds nothing.
      for (const step of [1_000, 2_000, 3_000]) {
        clock.set(at(start, step).toISOString());
        await expect.poll(async () => (await claimOf(id)).claimed_until?.getTime(), { timeout: 15_000 }).toBe(at(start, step + lease).getTime());
        expect(await second.runDue()).toBe(0);
        expect(await claimOf(id)).toMatchObject({ status: 'sending', claim_token: claim.claim_token, attempts: 1 });
      }
      expect(elsewhere.started).toEqual([]);

      release();
      expect(await run).toBe(1);
      expect(held.sent.filter((mail) => mail.id === `lease-note-${id}`)).toHaveLength(1);
      expect(await claimOf(id)).toMatchObject({ status: 'sent', claim_token: null, claimed_until: null, attempts: 1 });
    } finally {
      release();
      await second.stop();
      await first.stop();
    }
  });
});
