import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer, OutgoingMail } from '../../server/src/modules/mail/mailer.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Contract section 10: a job queued due now wakes the workers when its transaction commits
 * (LISTEN/NOTIFY), and a job due later is sent at its time; neither waits for the poll, which here
 * comes only once an hour.
 */
class RecordingMailer implements Mailer {
  sent: { mail: OutgoingMail; at: number }[] = [];
  async send(mail: OutgoingMail) {
    this.sent.push({ mail, at: Date.now() });
  }
  close() {}
}

let app: TestApp;
let shop: Shop;
const mailer = new RecordingMailer();

beforeAll(async () => {
  app = await startTestApp({ deliveryPollSeconds: 3600, reminderAfterHours: 0 }, { mailer });
  shop = await seedShop(app, await app.login());
  app.services.mail.register({ kind: 'test-later', render: async (jobs) => jobs.map(() => ({ subject: 'Later', text: 'Later', html: '<p>Later</p>' })) });
});
afterAll(async () => {
  await app?.stop();
});

describe('waking the workers', () => {
  it('sends an order\'s e-mails as soon as it is placed, without a poll', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: 'woken@example.com' }));
    const ids = (await app.sql<{ mid: string }>(`select kind || '-' || id as mid from mail_job where subject = 'order:' || $1`, [body.data.placeOrder.id])).map((r) => r.mid);
    await expect.poll(() => ids.every((id) => mailer.sent.some((s) => s.mail.id === id)), { timeout: 15_000 }).toBe(true);
  });

  it('sends a job due a moment later at its time, without a poll', async () => {
    const dueAt = new Date(Date.now() + 1500);
    const id = await app.orm.em.fork().transactional((em) => app.services.mail.enqueue(em, { kind: 'test-later', to: 'later@example.com', dueAt }));
    await expect.poll(() => mailer.sent.find((s) => s.mail.id === `test-later-${id}`), { timeout: 15_000 }).toBeTruthy();
    expect(mailer.sent.find((s) => s.mail.id === `test-later-${id}`)!.at).toBeGreaterThanOrEqual(dueAt.getTime());
  });
});
