import { afterAll, beforeAll, describe, expect, it, onTestFailed as onFail } from 'vitest';
import { startAppProcess, stopAllAppProcesses, type AppProcess } from '../helpers/app-process.js';
import { orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startSmtpSink, type Arrival, type SmtpSink } from '../helpers/smtp-sink.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Contract section 10 with real processes: worker processes (APP_ROLE=worker) on one database share
 * the queue, keep MAIL_MAX_PER_SECOND together, and a worker killed with SIGKILL in the middle of a
 * batch loses nothing: after its lease, another worker sends what it held, with the same Message-ID.
 * Each worker sends to an SMTP server of its own, so the test knows who sent what.
 */
let app: TestApp;
let shop: Shop;
const sinks: SmtpSink[] = [];

beforeAll(async () => {
  // The test's own process takes the orders and sends nothing: only the workers send.
  app = await startTestApp({ publicUrl: 'https://cards.example', reminderAfterHours: 0 });
  await app.services.deliveries.stop();
  shop = await seedShop(app, await app.login());
});
afterAll(async () => {
  await stopAllAppProcesses();
  for (const sink of sinks) await sink.stop();
  await app?.stop();
});

/** Orders of `cards` cards each for a later day: queued, not due. Answers the jobs' Message-IDs. */
async function queueCards(prefix: string, orders: number, cards: number): Promise<Set<string>> {
  const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const ids: string[] = [];
  for (let n = 0; n < orders; n++) {
    const lines = Array.from({ length: cards }, (_, k) => ({ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: `${prefix}-${n}-${k}@example.com`, deliveryDate: later, timeZone: 'UTC' }) }));
    const { body } = await placeOrder(app, orderInput(shop, { purchaserEmail: `${prefix}-${n}@example.com`, lines }));
    ids.push(body.data.placeOrder.id);
  }
  // The receipts are not part of this (they were sent, as far as the workers know).
  await app.sql(`update mail_job set status = 'sent', sent_at = now() where subject = any(select 'order:' || x from unnest($1::uuid[]) as x) and kind = 'receipt'`, [ids]);
  const rows = await app.sql<{ mid: string }>(`select kind || '-' || id || '@cards.example' as mid from mail_job where subject = any(select 'order:' || x from unnest($1::uuid[]) as x) and kind = 'card'`, [ids]);
  return new Set(rows.map((row) => row.mid));
}

/** Every card of the test falls due now, as the clock reaching its day would make it. */
async function fallDue(expected: Set<string>) {
  const ids = [...expected].map((mid) => Number(/^card-(\d+)@/.exec(mid)![1]));
  await app.sql(`update mail_job set due_at = now() where id = any($1::int[])`, [ids]);
  await app.sql(`select pg_notify('artsong_signals', 'mail-queued')`);
}

async function worker(name: string, sink: SmtpSink, env: Record<string, string> = {}): Promise<AppProcess> {
  return startAppProcess(name, {
    APP_ROLE: 'worker',
    DATABASE_URL: app.config.databaseUrl!,
    SMTP_URL: sink.url,
    PUBLIC_URL: 'https://cards.example',
    DELIVERY_POLL_SECONDS: '600',
    REMINDER_AFTER_HOURS: '0',
    ...env,
  });
}

const arrivalsOf = (sink: SmtpSink, expected: Set<string>) => sink.arrivals.filter((a) => expected.has(a.messageId));

describe('worker processes sharing the queue', () => {
  it('keep MAIL_MAX_PER_SECOND together: no second at the mail servers carries more than the cap', { timeout: 180_000 }, async () => {
    const CAP = 12;
    const POOL = 5;
    const expected = await queueCards('capped', 3, 25);
    const [a, b] = [await startSmtpSink(), await startSmtpSink()];
    sinks.push(a, b);
    const workers = [await worker('capped-a', a, { MAIL_MAX_PER_SECOND: String(CAP), SMTP_POOL_SIZE: String(POOL) }), await worker('capped-b', b, { MAIL_MAX_PER_SECOND: String(CAP), SMTP_POOL_SIZE: String(POOL) })];
    const started = Date.now();
    await fallDue(expected);
    try {
      await expect.poll(() => new Set([...arrivalsOf(a, expected), ...arrivalsOf(b, expected)].map((x) => x.messageId)).size, { timeout: 120_000, interval: 500 }).toBe(expected.size);
    } finally {
      for (const w of workers) await w.stop();
    }
    const all: Arrival[] = [...arrivalsOf(a, expected), ...arrivalsOf(b, expected)];
    // Both processes sent, each on its own pace would have gone past the cap; together they keep it.
    expect(arrivalsOf(a, expected).length).toBeGreaterThan(0);
    expect(arrivalsOf(b, expected).length).toBeGreaterThan(0);
    // Counted by when each message was started (its MAIL FROM), as a provider's rate limit counts. A
    // message reaches its server a moment after its send time, a longer one on a busy machine, so a
    // calendar second at the servers may also hold messages of the second before. Only messages
    // already handed over can arrive late: one per SMTP connection, POOL per worker. The send times
    // of each second lie in its first 600 ms, CAP of them at most (the pacers' own count is checked
    // exactly in send-pacer.test.ts), so any two seconds at the servers hold at most 2 × CAP of
    // theirs and 2 × POOL late ones: 34, whatever the machine's load. Two workers each keeping the
    // cap alone would send 24 a second, 48 in two.
    const starts = all.map((x) => x.startedAt).sort((p, q) => p - q);
    const busiestTwoSeconds = Math.max(...starts.map((from) => starts.filter((t) => t >= from && t < from + 2000).length));
    expect(busiestTwoSeconds).toBeLessThanOrEqual(2 * CAP + 2 * POOL);
    // Spread evenly, not in bursts: 75 e-mails take about 75 / 12 seconds.
    expect(Date.now() - started).toBeGreaterThan(((expected.size - CAP) / CAP) * 1000);
    expect(all).toHaveLength(expected.size);
  });

  it('lose nothing when one is killed with SIGKILL mid-batch: the other sends what it held after its lease, with the same Message-ID', { timeout: 180_000 }, async () => {
    const expected = await queueCards('killed', 2, 25);
    const [slow, fast] = [await startSmtpSink(), await startSmtpSink()];
    sinks.push(slow, fast);
    // The first worker's mail server takes its time: the worker is mid-batch when it is killed.
    slow.verdict = () => ({ accept: true, delayMs: 400 });
    const doomed = await worker('doomed', slow, { MAIL_LEASE_SECONDS: '5', SMTP_POOL_SIZE: '2' });
    await fallDue(expected);
    await expect.poll(() => arrivalsOf(slow, expected).length, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(3);
    // It holds a batch it has not finished.
    const held = await app.sql<{ id: number; claimed_until: Date }>(`select id, claimed_until from mail_job where status = 'sending'`);
    expect(held.length).toBeGreaterThan(0);
    await doomed.stop('SIGKILL');
    const heldUntil = new Map((await app.sql<{ id: number; claimed_until: Date }>(`select id, claimed_until from mail_job where id = any($1::int[])`, [held.map((row) => row.id)])).map((row) => [`card-${row.id}@cards.example`, new Date(row.claimed_until).getTime()]));
    const killedAt = Date.now();
    const survivor = await worker('survivor', fast, { MAIL_LEASE_SECONDS: '5' });
    onFail(() => console.log('survivor:', survivor.output().slice(-4000), '\ndoomed:', doomed.output().slice(-3000)));
    const delivered = () => new Set([...arrivalsOf(slow, expected), ...arrivalsOf(fast, expected)].map((x) => x.messageId));
    await expect.poll(() => delivered().size, { timeout: 120_000, interval: 250 }).toBe(expected.size);
    // Nothing lost; the survivor waited for the lease before taking what the dead worker held.
    expect([...expected].every((id) => delivered().has(id))).toBe(true);
    // What the dead worker held went out from the survivor only once its lease had ended.
    for (const arrival of arrivalsOf(fast, expected)) {
      const until = heldUntil.get(arrival.messageId);
      if (until) expect(arrival.at).toBeGreaterThanOrEqual(until - 100);
    }
    expect(arrivalsOf(fast, expected).every((x) => x.at >= killedAt)).toBe(true);
    // While each worker lived, nothing it claimed was sent twice: a Message-ID arrives at most once per server,
    // and one that arrives at both was sent by the dead worker and again by the survivor (the same e-mail).
    for (const sink of [slow, fast]) {
      const ids = arrivalsOf(sink, expected).map((x) => x.messageId);
      expect(new Set(ids).size).toBe(ids.length);
    }
    await expect.poll(async () => (await app.sql<{ n: number }>(`select count(*)::int as n from mail_job where kind = 'card' and status <> 'sent' and subject in (select 'order:' || id from "order" where purchaser_email like 'killed-%')`))[0]!.n, { timeout: 30_000 }).toBe(0);
    await survivor.stop();
  });
});
