import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { startAppProcess, stopAllAppProcesses, type AppProcess } from '../helpers/app-process.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Contract section 18 with real processes: two worker processes (APP_ROLE=worker) renew the
 * memberships due on one database, sharing the sweep and the mail queue, and one of them is killed
 * with SIGKILL half way. Every membership is renewed exactly once all the same: one paid charge, one
 * entry in the test provider's ledger (the charge's reference), one receipt queued and received. Some
 * renewals were charged by a process that died before its commit (simulated, for certain, by charging
 * their keys beforehand through a provider of another process): they are answered with that charge.
 */
const MEMBERSHIPS = 400;
const CHARGED_BEFORE = 20;
let app: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  // The test's own process renews and sends nothing: only the workers do.
  app = await startTestApp({ publicUrl: 'https://cards.example' });
  await app.services.membershipRenewals.stop();
  await app.services.deliveries.stop();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await stopAllAppProcesses();
  await sink?.stop();
  await app?.stop();
});

const worker = (name: string) =>
  startAppProcess(name, {
    APP_ROLE: 'worker',
    DATABASE_URL: app.config.databaseUrl!,
    SMTP_URL: sink.url,
    PUBLIC_URL: 'https://cards.example',
    PAYMENT_PROVIDER: 'test',
    MAIL_LEASE_SECONDS: '5',
  });

const one = async <T extends Record<string, unknown>>(sql: string, params?: unknown[]) => (await app.sql<T>(sql, params))[0]!;

describe('renewals with a worker killed half way', () => {
  it('renew every membership exactly once: one paid charge, one ledger entry, one receipt', { timeout: 240_000 }, async () => {
    const [{ id: planId }] = await app.sql<{ id: number }>(`insert into membership_plan (name, price, period) values ('Card Lover', 4.99, 'month') returning id`);
    await app.sql(`insert into app_user (username, email, password_hash) select 'renewing' || n, 'renewing' || n || '@example.com', 'not-a-password-hash' from generate_series(1, $1::int) as n`, [MEMBERSHIPS]);
    // Not due yet: both workers are running before any falls due.
    await app.sql(
      `insert into membership (user_id, plan_id, status, provider, payment_method, card_last4, current_period_start, current_period_end)
       select id, $1, 'active', 'test', 'test_pm_' || id, '4242', now(), now() + interval '1 month' from app_user where username like 'renewing%'`,
      [planId],
    );
    const workers: AppProcess[] = [await worker('renewals-a'), await worker('renewals-b')];
    onTestFailed(() => workers.forEach((w) => console.log(`${w.name}:`, w.output().slice(-3000))));

    // Every period ends at one moment (whole milliseconds, as the shop's keys write it).
    const end = new Date(Date.now() - 1000);
    const ids = (await app.sql<{ id: number }>(`select id from membership order by id`)).map((row) => row.id);
    // A process charged these and died before its commit: the provider has their keys, the shop nothing.
    const other = new TestPaymentProvider();
    const release = other.useDatabase(app.config.databaseUrl!);
    const chargedBefore = new Map<number, string>();
    try {
      for (const id of ids.slice(0, CHARGED_BEFORE)) {
        const result = await other.subscriptions.renew({ paymentMethod: `test_pm_${id}`, amount: '4.99', currency: 'USD', idempotencyKey: `membership-${id}-${end.toISOString()}`, description: 'renewal' });
        if (result.status !== 'succeeded') throw new Error('the charge beforehand failed');
        chargedBefore.set(id, result.reference);
      }
    } finally {
      await release();
    }
    await app.sql(`update membership set current_period_end = $1, current_period_start = $1::timestamptz - interval '1 month'`, [end]);

    // Half way, the first worker is killed.
    const paid = async () => (await one<{ n: number }>(`select count(*)::int as n from membership_charge where status = 'paid'`)).n;
    await expect.poll(paid, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(MEMBERSHIPS / 2);
    await workers[0]!.stop('SIGKILL');
    const atKill = await paid();
    expect(atKill).toBeLessThan(MEMBERSHIPS);

    await expect.poll(paid, { timeout: 90_000, interval: 250 }).toBe(MEMBERSHIPS);
    const receipts = () => new Set(sink.arrivals.filter((a) => a.messageId.startsWith('membership-renewed-')).map((a) => a.messageId)).size;
    await expect.poll(receipts, { timeout: 90_000, interval: 250 }).toBe(MEMBERSHIPS);
    await workers[1]!.stop();

    // One paid charge per membership, for the period that ended, and every membership in its next period.
    expect(await one(`select count(distinct membership_id)::int as members, count(*)::int as charges, count(*) filter (where period_start = $1)::int as that_period from membership_charge`, [end])).toEqual({ members: MEMBERSHIPS, charges: MEMBERSHIPS, that_period: MEMBERSHIPS });
    expect(await one(`select count(*)::int as n from membership where status = 'active' and current_period_start = $1 and current_period_end = $1::timestamptz + interval '1 month'`, [end])).toEqual({ n: MEMBERSHIPS });
    // One ledger entry per key, and the charge recorded is the provider's.
    expect(await one(`select count(*)::int as entries, count(distinct idempotency_key)::int as keys from test_provider_ledger where operation = 'subscription-renew'`)).toEqual({ entries: MEMBERSHIPS, keys: MEMBERSHIPS });
    expect(await one(`select count(*)::int as n from membership_charge c join test_provider_ledger l on l.idempotency_key = c.idempotency_key and l.outcome ->> 'reference' = c.reference`)).toEqual({ n: MEMBERSHIPS });
    // Those charged by the process that died are the charges the shop recorded.
    const recorded = await app.sql<{ membership_id: number; reference: string }>(`select membership_id, reference from membership_charge where membership_id = any($1::int[])`, [[...chargedBefore.keys()]]);
    expect(new Map(recorded.map((row) => [row.membership_id, row.reference]))).toEqual(chargedBefore);
    // One receipt per renewal, queued with it and sent.
    expect(await one(`select count(*)::int as jobs, count(distinct subject)::int as memberships, count(*) filter (where status = 'sent')::int as sent from mail_job where kind = 'membership-renewed'`)).toEqual({ jobs: MEMBERSHIPS, memberships: MEMBERSHIPS, sent: MEMBERSHIPS });
    const arrived = sink.arrivals.filter((a) => a.messageId.startsWith('membership-renewed-'));
    // A receipt the killed worker had on the wire may arrive a second time, but as the same e-mail (its
    // Message-ID): never two different receipts for one renewal.
    expect(new Set(arrived.map((a) => a.messageId)).size).toBe(MEMBERSHIPS);
    expect(new Set(arrived.map((a) => a.to)).size).toBe(MEMBERSHIPS);
    const byRecipient = new Map<string, Set<string>>();
    for (const a of arrived) byRecipient.set(a.to, (byRecipient.get(a.to) ?? new Set()).add(a.messageId));
    expect([...byRecipient.values()].every((messages) => messages.size === 1)).toBe(true);
  });
});
