import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer, OutgoingMail } from '../../server/src/modules/mail/mailer.js';
import { RETRY_MAX_MS, retryDelay } from '../../server/src/modules/mail/delivery.service.js';
import { manualClock, orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Contract section 8: e-mail is never dropped silently. */
class ScriptedMailer implements Mailer {
  sent: OutgoingMail[] = [];
  failWith: string | null = null;
  /** While set, a send waits for it: the test looks at the database during a send. */
  gate: Promise<void> | null = null;
  onSend: ((mail: OutgoingMail) => Promise<void>) | null = null;
  async send(mail: OutgoingMail) {
    await this.onSend?.(mail);
    await this.gate;
    if (this.failWith) throw new Error(this.failWith);
    this.sent.push(mail);
  }
  close() {}
}

let app: TestApp;
let admin: string;
let shop: Shop;
const clock = manualClock('2026-12-01T10:00:00Z');
const mailer = new ScriptedMailer();

beforeAll(async () => {
  // Reminders are left out: these tests count the e-mails of orders and cards. One e-mail at a time:
  // the stopping test holds exactly one send at its gate.
  app = await startTestApp({ deliveryPollSeconds: 3600, reminderAfterHours: 0, smtpPoolSize: 1 }, { clock: clock.now, mailer });
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const jobs = (orderId: string) => app.sql<{ id: number; kind: string; status: string; attempts: number; last_error: string | null; due_at: Date }>(`select id, kind, status, attempts, last_error, due_at from mail_job where subject = 'order:' || $1 order by id`, [orderId]);
const place = async (email: string) => (await placeOrder(app, orderInput(shop, { purchaserEmail: email, lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: `card-${email}` }) }] }))).body.data.placeOrder.id as string;
const EMAILS = `query($id: ID!) { order(id: $id) { emails { id kind status attempts lastError dueAt sentAt } } }`;

describe('a send that keeps failing', () => {
  it('is retried with a backoff capped at an hour for three days, then shown to admins as failed with its reason, and can be retried', async () => {
    expect(retryDelay(1)).toBe(30_000);
    expect(retryDelay(50)).toBe(RETRY_MAX_MS);
    clock.set('2026-12-01T10:00:00Z');
    mailer.failWith = '550 mailbox unavailable';
    const orderId = await place('unlucky@example.com');
    const start = clock.now().getTime();
    // Run the queue every time something is due, for three days and a bit.
    let runs = 0;
    while (clock.now().getTime() - start < 3 * 86_400_000 + 2 * 3_600_000) {
      await app.services.deliveries.runDue();
      const next = Math.min(...(await jobs(orderId)).filter((j) => j.status === 'queued').map((j) => j.due_at.getTime()));
      if (!Number.isFinite(next)) break;
      expect(next - clock.now().getTime()).toBeLessThanOrEqual(RETRY_MAX_MS);
      clock.set(new Date(Math.max(next, clock.now().getTime())).toISOString());
      runs += 1;
    }
    const after = await jobs(orderId);
    expect(after.every((j) => j.status === 'failed')).toBe(true);
    expect(after[0]!.attempts).toBeGreaterThan(70); // far past the old limit of 8 tries
    expect(runs).toBeGreaterThan(70);

    const { body } = await app.graphql(EMAILS, { id: orderId }, admin);
    expect(body.data.order.emails).toEqual([
      expect.objectContaining({ kind: 'RECEIPT', status: 'FAILED', lastError: '550 mailbox unavailable' }),
      expect.objectContaining({ kind: 'CARD', status: 'FAILED', lastError: '550 mailbox unavailable' }),
    ]);
    // Shoppers do not see the e-mails of an order.
    expect((await app.graphql(EMAILS, { id: orderId })).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');

    mailer.failWith = null;
    const retried = await app.graphql(`mutation($id: Int!) { retryEmail(id: $id) { status } }`, { id: after[1]!.id }, admin);
    expect(retried.body.data.retryEmail.status).toBe('QUEUED');
    await app.services.deliveries.runDue();
    expect(mailer.sent.map((m) => m.to)).toContain('card-unlucky@example.com');
    expect((await jobs(orderId)).map((j) => j.status)).toEqual(['failed', 'sent']);
  });
});

describe('sending', () => {
  it('happens outside the claim transaction: the job is marked sending, its row is not locked, the Message-ID is stable', async () => {
    clock.set('2026-12-10T10:00:00Z');
    mailer.failWith = null;
    const client = new pg.Client({ connectionString: app.orm.config.get('clientUrl') });
    await client.connect();
    let release!: () => void;
    mailer.gate = new Promise<void>((resolve) => (release = resolve));
    const seen: { status: string; locked: boolean }[] = [];
    mailer.onSend = async (mail) => {
      const id = Number(mail.id.split('-').at(-1));
      const [row] = (await client.query('select status from mail_job where id = $1', [id])).rows;
      const locked = await client.query('select id from mail_job where id = $1 for update nowait', [id]).then(() => false, () => true);
      seen.push({ status: row.status, locked });
    };
    try {
      const orderId = await place('outside@example.com');
      const run = app.services.deliveries.runDue();
      await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(0);
      release();
      mailer.gate = null;
      await run;
      expect(seen.every((s) => s.status === 'sending' && !s.locked)).toBe(true);
      const ids = (await jobs(orderId)).map((j) => `${j.kind}-${j.id}`);
      expect(mailer.sent.filter((m) => ids.includes(m.id))).toHaveLength(2);
    } finally {
      mailer.onSend = null;
      await client.end();
    }
  });

  it('sends a job claimed by a process that died mid-send again after its claim ends, with the same Message-ID', async () => {
    clock.set('2026-12-11T10:00:00Z');
    const orderId = await place('crash@example.com');
    await app.services.deliveries.runDue();
    const [receipt] = await jobs(orderId);
    const copies = () => mailer.sent.filter((m) => m.id === `receipt-${receipt!.id}`).length;
    expect(copies()).toBe(1);
    // As if the worker had sent it and crashed before settling: still claimed, until 10:05.
    await app.sql(`update mail_job set status = 'sending', sent_at = null, claimed_until = $2 where id = $1`, [receipt!.id, new Date('2026-12-11T10:05:00Z')]);
    await app.services.deliveries.runDue();
    expect(copies()).toBe(1);
    clock.set('2026-12-11T10:06:00Z');
    await app.services.deliveries.runDue();
    // Sent once more, recognisable as the same e-mail by its Message-ID, and settled.
    expect(copies()).toBe(2);
    expect((await jobs(orderId))[0]!.status).toBe('sent');
  });

  it('lets an admin resend the receipt', async () => {
    clock.set('2026-12-12T10:00:00Z');
    const orderId = await place('again@example.com');
    await app.services.deliveries.runDue();
    const before = mailer.sent.filter((m) => m.to === 'again@example.com').length;
    const res = await app.graphql(`mutation($id: ID!) { resendReceipt(orderId: $id) { id } }`, { id: orderId }, admin);
    expect(res.body.data.resendReceipt.id).toBe(orderId);
    await app.services.deliveries.runDue();
    const receipts = mailer.sent.filter((m) => m.to === 'again@example.com');
    expect(receipts).toHaveLength(before + 1);
    expect(receipts.at(-1)!.id).toMatch(/^receipt-resend-\d+$/);
    expect((await app.graphql(`mutation($id: ID!) { resendReceipt(orderId: $id) { id } }`, { id: orderId }, await app.customer())).body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});

describe('stopping', () => {
  it('stops claiming and waits only for the sends in flight; the rest stays queued', async () => {
    clock.set('2026-12-13T10:00:00Z');
    let release!: () => void;
    mailer.gate = new Promise<void>((resolve) => (release = resolve));
    let sends = 0;
    mailer.onSend = async () => {
      sends += 1;
    };
    // Placing an order starts the queue at once: its first send waits at the gate.
    const orders = [await place('stop1@example.com'), await place('stop2@example.com'), await place('stop3@example.com')];
    const run = app.services.deliveries.runDue();
    await expect.poll(() => sends, { timeout: 10_000 }).toBe(1);
    const stopped = app.services.deliveries.stop();
    release();
    mailer.gate = null;
    await stopped;
    await run;
    mailer.onSend = null;
    expect(sends).toBe(1);
    const statuses = (await Promise.all(orders.map(jobs))).flat().map((j) => j.status);
    expect(statuses.filter((s) => s === 'sent')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'queued')).toHaveLength(5);
    // Started again, the rest goes out.
    app.services.deliveries.start(app.orm, 3600);
    await app.services.deliveries.runDue();
    expect((await Promise.all(orders.map(jobs))).flat().every((j) => j.status === 'sent')).toBe(true);
  });
});
