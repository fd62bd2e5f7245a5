import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryService } from '../../server/src/modules/mail/delivery.service.js';
import type { Mailer, OutgoingMail } from '../../server/src/modules/mail/mailer.js';
import { orderInput, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;
let orderId: string;
/** What was handed to the mail server, by the app's worker and by the test's. */
const sent: OutgoingMail[] = [];
const mailer: Mailer = {
  async send(mail) {
    sent.push(mail);
  },
  close() {},
};

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600 }, { mailer });
  admin = await app.login();
  const shop = await seedShop(app, admin);
  const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'payer@example.com' }));
  orderId = body.data.placeOrder.id;
  await app.services.deliveries.runDue();
  // From here the tests send when they choose: a retry wakes the app's own worker, which would send
  // the e-mails before the test could see them back in the queue.
  await app.services.deliveries.stop();
});
afterAll(async () => {
  await app?.stop();
});

const jobs = () => app.sql<{ id: number; kind: string; status: string }>(`select id, kind, status from mail_job where subject = 'order:' || $1 order by id`, [orderId]);

describe('failed and long-waiting e-mail', () => {
  it('lists failed e-mails and those waiting long past their time, with recipient, kind, order, attempts and reason', async () => {
    const [receipt, card] = await jobs();
    // Sent in fact, and now as if they had never been taken by the mail server (a failure is not).
    await app.sql(`update mail_job set status = 'failed', sent_at = null, attempts = 40, last_error = 'Mailbox unavailable' where id = $1`, [receipt!.id]);
    await app.sql(`update mail_job set status = 'failed', sent_at = null, attempts = 3, last_error = 'Connection timed out' where id = $1`, [card!.id]);
    // Waiting two hours past its time (the queue is stuck or the server keeps deferring it).
    const [waiting] = await app.sql<{ id: number }>(`insert into mail_job (kind, subject, recipient, due_at, status, attempts, last_error) values ('receipt-resend', 'order:' || $1, 'payer@example.com', now() - interval '2 hours', 'queued', 1, 'Greylisted') returning id`, [orderId]);
    // A card a refund stopped is not a problem to retry, and a job due only now is not waiting long.
    await app.sql(`insert into mail_job (kind, subject, recipient, due_at, status, last_error) values ('card-resend', 'order:' || $1, 'grace@example.com', now(), 'failed', 'Not sent: the order was refunded.'), ('receipt-resend', 'order:' || $1, 'payer@example.com', now() + interval '1 day', 'queued', null)`, [orderId]);

    const res = await app.request('/api/admin/emails', { token: admin });
    expect(res.status).toBe(200);
    const { emails, total } = await res.json();
    expect(total).toBe(3);
    expect(emails).toEqual([
      expect.objectContaining({ id: receipt!.id, kind: 'receipt', status: 'failed', recipient: 'payer@example.com', order_id: orderId, attempts: 40, last_error: 'Mailbox unavailable' }),
      expect.objectContaining({ id: card!.id, kind: 'card', status: 'failed', recipient: 'grace@example.com', attempts: 3, last_error: 'Connection timed out' }),
      expect.objectContaining({ id: waiting!.id, kind: 'receipt-resend', status: 'queued', recipient: 'payer@example.com', attempts: 1, last_error: 'Greylisted' }),
    ]);
    const gql = await app.graphql('{ emailProblems { totalCount waitingAfterMinutes emails { id kind recipient } } }', {}, admin);
    expect(gql.body.data.emailProblems).toMatchObject({ totalCount: 3, waitingAfterMinutes: 15 });
  });

  it('"Retry" puts one back in the queue due now; "Retry all" the rest; each is in the audit log; the queue sends them', async () => {
    const [receipt, card] = await jobs();
    const [waiting] = await app.sql<{ id: number }>(`select id from mail_job where subject = 'order:' || $1 and kind = 'receipt-resend' and due_at < now() - interval '1 hour'`, [orderId]);
    const one = await app.graphql('mutation($ids: [Int!]) { retryEmails(ids: $ids) }', { ids: [receipt!.id] }, admin);
    expect(one.body.data.retryEmails).toBe(1);
    const [row] = await app.sql<{ status: string; first_attempt_at: Date | null; due_at: Date }>('select status, first_attempt_at, due_at from mail_job where id = $1', [receipt!.id]);
    // Back in the queue, due now, as never tried: its three days of retrying begin again.
    expect(row).toMatchObject({ status: 'queued', first_attempt_at: null });
    expect(Math.abs(Date.now() - new Date(row!.due_at).getTime())).toBeLessThan(60_000);

    // The card, which failed, and the e-mail waiting long past its time; the receipt is due now, no problem any more.
    const all = await app.request('/api/admin/emails/retry', { method: 'POST', token: admin, json: {} });
    expect(await all.json()).toEqual({ retried: 2 });
    expect(await app.sql('select id, status, first_attempt_at from mail_job where id = any($1::int[]) order by id', [[receipt!.id, card!.id, waiting!.id]])).toEqual([
      { id: receipt!.id, status: 'queued', first_attempt_at: null },
      { id: card!.id, status: 'queued', first_attempt_at: null },
      { id: waiting!.id, status: 'queued', first_attempt_at: null },
    ]);
    expect((await app.sql<{ summary: string }>(`select summary from audit_entry where entity = 'e-mail' order by id`)).map((r) => r.summary)).toEqual([`Retried e-mail #${receipt!.id}`, 'Retried 2 e-mails (all)']);
    expect((await (await app.request('/api/admin/emails', { token: admin })).json()).total).toBe(0);

    sent.length = 0;
    const worker = new DeliveryService(app.services.mail, { mailer, clock: () => new Date(), log: pino({ level: 'silent' }) });
    worker.start(app.orm, 3600);
    try {
      expect(await worker.runDue()).toBe(3);
    } finally {
      await worker.stop();
    }
    expect(sent.map((mail) => [mail.id, mail.to]).sort()).toEqual(
      [
        [`receipt-${receipt!.id}`, 'payer@example.com'],
        [`card-${card!.id}`, 'grace@example.com'],
        [`receipt-resend-${waiting!.id}`, 'payer@example.com'],
      ].sort(),
    );
    expect((await app.sql<{ status: string }>('select status from mail_job where id = any($1::int[]) order by id', [[receipt!.id, card!.id, waiting!.id]])).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('refuses bad ids (400) and everyone but admins (401/403)', async () => {
    expect((await app.request('/api/admin/emails/retry', { method: 'POST', token: admin, json: { ids: 'all' } })).status).toBe(400);
    expect((await app.request('/api/admin/emails')).status).toBe(401);
    expect((await app.request('/api/admin/emails', { token: await app.customer() })).status).toBe(403);
  });

  it("Order Details' Retry (retryEmail) reaches an order's own e-mails only: any other is NOT_FOUND and stays as it is; the E-mail view retries it", async () => {
    const staff = await staffMember(app, admin);
    const [receipt] = await jobs();
    // Other e-mails of the shop: an account's reset link, a staff invitation, and one about an order that Order Details does not list.
    expect((await app.request('/api/password-reset', { method: 'POST', json: { email: 'admin@example.com' } })).status).toBe(202);
    const [reset] = await app.sql<{ id: number }>(`select id from mail_job where kind = 'password-reset' order by id desc limit 1`);
    const [invitation] = await app.sql<{ id: number }>(`select id from mail_job where kind = 'staff-invitation' order by id desc limit 1`);
    const [signing] = await app.sql<{ id: number }>(`insert into mail_job (kind, subject, recipient, due_at, status) values ('group-card-invitation', 'order:' || $1, 'signer@example.com', now(), 'failed') returning id`, [orderId]);
    const others = [reset!.id, invitation!.id, signing!.id];
    await app.sql(`update mail_job set status = 'failed', sent_at = null, last_error = 'Mailbox unavailable' where id = any($1::int[])`, [[receipt!.id, ...others]]);
    const retry = (id: number, token: string) => app.graphql('mutation($id: Int!) { retryEmail(id: $id) { id status } }', { id }, token);
    const since = Number((await app.sql<{ max: string | null }>('select max(id) from audit_entry'))[0]!.max ?? 0);

    for (const id of others) {
      for (const token of [staff.token, admin]) {
        expect((await retry(id, token)).body).toEqual({ data: null, errors: [expect.objectContaining({ message: 'E-mail not found', path: ['retryEmail'], extensions: { code: 'NOT_FOUND' } })] });
      }
    }
    expect(await app.sql('select status from mail_job where id = any($1::int[])', [others])).toEqual([{ status: 'failed' }, { status: 'failed' }, { status: 'failed' }]);
    expect(await app.sql('select id from audit_entry where id > $1', [since])).toEqual([]);

    // The order's own receipt: staff put it back in the queue.
    expect((await retry(receipt!.id, staff.token)).body).toEqual({ data: { retryEmail: { id: receipt!.id, status: 'QUEUED' } } });
    // The admins' E-mail view retries the others.
    expect((await app.graphql('mutation($ids: [Int!]) { retryEmails(ids: $ids) }', { ids: others }, admin)).body.data.retryEmails).toBe(3);
  });
});
