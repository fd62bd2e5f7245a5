import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startSmtpSink, type SmtpSink, type Verdict } from '../helpers/smtp-sink.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Contract sections 8 and 10: a failing SMTP server (connection refused, 4xx, 5xx, silence in the
 * middle of DATA) costs a retry, never an e-mail: each is sent again with a backoff and arrives
 * exactly once (one accepted copy per Message-ID), over the pooled transport.
 */
let app: TestApp;
let sink: SmtpSink;
let shop: Shop;
let port: number;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  sink = await startSmtpSink();
  port = sink.port;
  app = await startTestApp({ deliveryPollSeconds: 3600, reminderAfterHours: 0, smtpUrl: sink.url, smtpTimeoutSeconds: 1, publicUrl: 'https://cards.example' }, { clock: clock.now });
  shop = await seedShop(app, await app.login());
});
afterAll(async () => {
  await app?.stop();
  await sink?.stop();
});

const jobs = (orderId: string) => app.sql<{ id: number; kind: string; status: string; attempts: number; last_error: string | null }>(`select id, kind, status, attempts, last_error from mail_job where subject = 'order:' || $1 order by id`, [orderId]);
const messageIds = async (orderId: string) => (await jobs(orderId)).map((job) => `${job.kind}-${job.id}@cards.example`);
const copies = (id: string) => sink.arrivals.filter((a) => a.messageId === id).length;

async function place(name: string): Promise<string> {
  const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `${name}@example.com`, lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: `${name}-card@example.com` }) }] }));
  return body.data.placeOrder.id;
}

/** Runs the queue until nothing is left queued for the order, moving the clock past each backoff. */
async function deliverAll(orderId: string) {
  for (let round = 0; round < 10; round++) {
    await app.services.deliveries.runDue();
    if ((await jobs(orderId)).every((job) => job.status === 'sent')) return;
    clock.set(new Date(clock.now().getTime() + 61_000).toISOString());
  }
}

/** The first attempt of each of the order's e-mails gets `verdict`, every later one is taken. */
function failFirst(verdict: Verdict) {
  const tried = new Set<string>();
  sink.verdict = ({ messageId }) => {
    if (tried.has(messageId)) return { accept: true };
    tried.add(messageId);
    return verdict;
  };
}

describe('a failing SMTP server', () => {
  it('refusing connections: the e-mails wait with the reason and go out once it is back', async () => {
    await sink.stop();
    const orderId = await place('refused');
    await app.services.deliveries.runDue();
    const failed = await jobs(orderId);
    expect(failed.map((job) => job.status)).toEqual(['queued', 'queued']);
    for (const job of failed) {
      expect(job.attempts).toBe(1);
      expect(job.last_error).toMatch(/ECONNREFUSED|connect/i);
    }
    sink = await startSmtpSink({ port });
    clock.set(new Date(clock.now().getTime() + 31_000).toISOString());
    await deliverAll(orderId);
    for (const id of await messageIds(orderId)) expect(copies(id)).toBe(1);
    expect((await jobs(orderId)).map((job) => job.status)).toEqual(['sent', 'sent']);
  });

  it('answering 4xx: retried, then taken once', async () => {
    failFirst({ code: 451, message: 'Greylisted, try again later' });
    const orderId = await place('greylisted');
    await app.services.deliveries.runDue();
    expect((await jobs(orderId)).map((job) => [job.status, job.last_error?.includes('451')])).toEqual([['queued', true], ['queued', true]]);
    await deliverAll(orderId);
    for (const id of await messageIds(orderId)) expect(copies(id)).toBe(1);
  });

  it('answering 5xx: still retried (a provider may refuse for a while), then taken once', async () => {
    failFirst({ code: 550, message: 'Mailbox temporarily disabled' });
    const orderId = await place('refused-5xx');
    await app.services.deliveries.runDue();
    expect((await jobs(orderId)).every((job) => job.status === 'queued' && job.last_error?.includes('550'))).toBe(true);
    await deliverAll(orderId);
    for (const id of await messageIds(orderId)) expect(copies(id)).toBe(1);
  });

  it('going silent in the middle of DATA: the send times out, is retried, and arrives once', async () => {
    failFirst({ stall: true });
    const stalledBefore = sink.stalled;
    const orderId = await place('stalled');
    await app.services.deliveries.runDue();
    expect(sink.stalled - stalledBefore).toBe(2);
    const after = await jobs(orderId);
    expect(after.every((job) => job.status === 'queued' && /timeout|timed out/i.test(job.last_error ?? ''))).toBe(true);
    await deliverAll(orderId);
    for (const id of await messageIds(orderId)) expect(copies(id)).toBe(1);
    expect((await jobs(orderId)).map((job) => job.status)).toEqual(['sent', 'sent']);
  });
});
