/**
 * Renewals at volume (`npm run bench -- renewals`, contract section 18): 10,000 monthly memberships
 * whose periods end in the same minute, renewed by the built shop as production runs it (`npm run
 * serve`, two worker processes sharing the sweep and the mail queue) through the test provider, with
 * worker 1 killed with SIGKILL once half of them are charged. Measured from T0, the end of the minute
 * (every one of them due; the workers already running and told nothing): the seconds until the last
 * is charged (its membership_charge committed), settled (its membership in its next period) and its
 * receipt received by a real SMTP server (`smtp-server`, tests/helpers/smtp-sink.ts), and renewals a
 * second. Then exactly once: one paid charge per membership, one ledger entry per key (its reference
 * the charge's), one receipt job per renewal, every receipt at the SMTP server (a receipt the killed
 * worker was sending when it died may arrive twice, with the same Message-ID: counted as a repeat).
 *
 * The memberships (and their members) are written with set-based SQL. BENCH_MEMBERSHIPS (default
 * 10000), BENCH_WORKERS (default 2), BENCH_KILL (default 1; 0: nobody is killed), BENCH_RUN_LIMIT_S
 * (default 600), BENCH_NODE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: the workers that
 * live to the end write a profile when they stop).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/src/db/embedded-postgres.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { cpuMs, root } from './shop-kit.js';
import { spawnShop, type ShopProcess as Worker } from './shop-process.js';

const MEMBERSHIPS = Number(process.env.BENCH_MEMBERSHIPS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const KILL = process.env.BENCH_KILL !== '0' && WORKERS > 1;
const RUN_LIMIT_MS = Number(process.env.BENCH_RUN_LIMIT_S ?? 600) * 1000;
const GOAL_S = 120;
const DOMAIN = 'cards.bench.example';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => +(ms / 1000).toFixed(1);

/** A monthly plan and MEMBERSHIPS members of it, each with a card kept by the test provider, their periods ending in two days. */
async function seed(db: pg.Client): Promise<void> {
  const [{ id: planId }] = (await db.query(`insert into membership_plan (name, price, period, ecards_included, percent_off_other) values ('Card Lover', 4.99, 'month', true, 10) returning id`)).rows;
  await db.query(
    `insert into app_user (username, email, password_hash, email_confirmed_at)
     select 'member' || n, 'member' || n || '@bench.example', 'not-a-password-hash', now() from generate_series(1, $1::int) as n`,
    [MEMBERSHIPS],
  );
  await db.query(
    `insert into membership (user_id, plan_id, status, provider, payment_method, card_last4, current_period_start, current_period_end, created_at)
     select u.id, $1, 'active', 'test', 'test_pm_bench' || u.id, lpad((u.id % 10000)::text, 4, '0'), now() - interval '1 month' + interval '2 days', now() + interval '2 days', now() - interval '1 month'
       from app_user u where u.email like 'member%@bench.example'`,
    [planId],
  );
  await db.query('analyze app_user; analyze membership');
}

interface Progress {
  charged: number;
  settled: number;
  receiptJobs: number;
  /** Distinct receipts received by the SMTP server. */
  received: number;
}

export async function runRenewalsBench(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-renewals-bench-'));
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'));
  const sink = await startSmtpSink();
  const workers: Worker[] = [];
  try {
    await cluster.createDatabase('renewals');
    const databaseUrl = cluster.url('renewals');
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(dir, 'data'),
      ADMIN_PASSWORD: 'bench-admin-password',
      SEED_DEMO: '0',
      PAYMENT_PROVIDER: 'test',
      SMTP_URL: sink.url,
      PUBLIC_URL: `https://${DOMAIN}`,
    };
    // The first start migrates the empty database.
    await (await spawnShop('migrate', { ...env, APP_ROLE: 'web' })).stop();
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const seeding = performance.now();
    await seed(db);
    console.log(`\n${MEMBERSHIPS.toLocaleString('en-US')} memberships seeded in ${seconds(performance.now() - seeding)} s`);

    for (let w = 0; w < WORKERS; w++) workers.push(await spawnShop(`worker ${w + 1}`, { ...env, APP_ROLE: 'worker' }));
    const cpuOf = (worker: Worker) => {
      try {
        return cpuMs(worker.child.pid!);
      } catch {
        return NaN;
      }
    };
    const cpuBefore = workers.map(cpuOf);

    // T0: every period ends in the minute up to now (spread over it), so every membership is due.
    const t0 = Date.now();
    await db.query(`update membership set current_period_end = $1::timestamptz - (id % 60000) * interval '1 millisecond', current_period_start = $1::timestamptz - (id % 60000) * interval '1 millisecond' - interval '1 month'`, [new Date(t0)]);
    console.log(`T0: ${MEMBERSHIPS.toLocaleString('en-US')} memberships due, ${WORKERS} worker processes running${KILL ? '; worker 1 is killed with SIGKILL once half are charged' : ''}`);

    const receiptIds = new Set<string>();
    let scanned = 0;
    const progress = async (): Promise<Progress> => {
      const [row] = (
        await db.query(`select (select count(*) from membership_charge where status = 'paid')::int as charged,
                               (select count(*) from membership where current_period_end > $1)::int as settled,
                               (select count(*) from mail_job where kind = 'membership-renewed')::int as jobs`, [new Date(t0)])
      ).rows;
      for (; scanned < sink.arrivals.length; scanned++) {
        const id = sink.arrivals[scanned]!.messageId;
        if (id.startsWith('membership-renewed-')) receiptIds.add(id);
      }
      return { charged: row.charged, settled: row.settled, receiptJobs: row.jobs, received: receiptIds.size };
    };
    const firstAt: Partial<Record<keyof Progress, number>> = {};
    const doneAt: Partial<Record<keyof Progress, number>> = {};
    let killedAt: number | null = null;
    let last: Progress = { charged: 0, settled: 0, receiptJobs: 0, received: 0 };
    let lastPrint = t0;
    while (Date.now() - t0 < RUN_LIMIT_MS) {
      last = await progress();
      const now = Date.now();
      for (const key of Object.keys(last) as (keyof Progress)[]) {
        if (last[key] > 0) firstAt[key] ??= now;
        if (last[key] >= MEMBERSHIPS) doneAt[key] ??= now;
      }
      if (KILL && killedAt === null && last.charged >= MEMBERSHIPS / 2) {
        killedAt = now;
        workers[0]!.child.kill('SIGKILL');
        console.log(`  worker 1 killed (SIGKILL) after ${last.charged.toLocaleString('en-US')} charges, ${seconds(killedAt - t0)} s after T0`);
      }
      if (now - lastPrint >= 10_000) {
        lastPrint = now;
        console.log(`  ${seconds(now - t0)} s: ${last.charged} charged, ${last.settled} settled, ${last.receiptJobs} receipts queued, ${last.received} received`);
      }
      if (last.charged >= MEMBERSHIPS && last.settled >= MEMBERSHIPS && last.received >= MEMBERSHIPS) break;
      await sleep(100);
    }
    // A moment for late repeats to show.
    await sleep(1500);
    last = await progress();
    const living = workers.map((worker, w) => cpuOf(worker) - cpuBefore[w]!).filter((ms) => Number.isFinite(ms));
    const rssOf = workers.map((worker) => `${worker.peakRss.toFixed(0)}`).join(' / ');
    if (process.env.BENCH_DEBUG) for (const worker of workers) console.log(`--- ${worker.name} stderr:\n${worker.stderr().slice(-3000)}`);
    for (const worker of workers) await worker.stop();

    // Exactly once, counted in the database and at the SMTP server.
    const [check] = (
      await db.query(`select
          (select count(*) from (select membership_id from membership_charge where status = 'paid' group by membership_id having count(*) = 1) x)::int as once,
          (select count(*) from (select membership_id from membership_charge group by membership_id having count(*) > 1) x)::int as twice,
          (select count(*) from membership_charge where status = 'failed')::int as failed,
          (select count(*) from test_provider_ledger where operation = 'subscription-renew')::int as ledger,
          (select count(*) from membership_charge c join test_provider_ledger l on l.idempotency_key = c.idempotency_key and l.outcome->>'reference' = c.reference)::int as matching,
          (select count(*) from (select subject from mail_job where kind = 'membership-renewed' group by subject having count(*) = 1) x)::int as one_receipt,
          (select count(*) from mail_job where kind = 'membership-renewed' and status = 'sent')::int as sent,
          (select count(*) from membership where status = 'active' and current_period_start > $1::timestamptz - interval '61 seconds' and current_period_end = current_period_start + interval '1 month')::int as next_period`, [new Date(t0)])
    ).rows;
    const arrivals = sink.arrivals.filter((a) => a.messageId.startsWith('membership-renewed-'));
    const repeats = arrivals.length - new Set(arrivals.map((a) => a.messageId)).size;
    const expected = new Set((await db.query(`select kind || '-' || id || '@${DOMAIN}' as mid from mail_job where kind = 'membership-renewed'`)).rows.map((r) => r.mid as string));
    const missing = [...expected].filter((mid) => !receiptIds.has(mid)).length;
    await db.end();

    const chargedS = doneAt.charged ? seconds(doneAt.charged - t0) : null;
    const allS = doneAt.charged && doneAt.settled && doneAt.received ? seconds(Math.max(doneAt.charged, doneAt.settled, doneAt.received) - t0) : null;
    const limit = seconds(RUN_LIMIT_MS);
    console.log(`\nRenewals: ${MEMBERSHIPS.toLocaleString('en-US')} memberships due at once, ${WORKERS} worker processes${KILL ? ', worker 1 killed -9 half way' : ''} (goal: all charged, settled and their receipts received within ${GOAL_S} s)`);
    console.table([
      {
        'first charge s': firstAt.charged ? seconds(firstAt.charged - t0) : null,
        'all charged s': chargedS ?? `> ${limit} (${last.charged})`,
        'all settled s': doneAt.settled ? seconds(doneAt.settled - t0) : `> ${limit} (${last.settled})`,
        'all receipts received s': doneAt.received ? seconds(doneAt.received - t0) : `> ${limit} (${last.received})`,
        goal: allS !== null && allS <= GOAL_S ? `met (${allS} s ≤ ${GOAL_S} s)` : `MISSED (${allS ?? `> ${limit}`} s)`,
        'renewals/s': +(last.charged / ((doneAt.charged ?? Date.now()) - (firstAt.charged ?? t0)) * 1000).toFixed(1),
        'receipts/s': +(last.received / ((doneAt.received ?? Date.now()) - (firstAt.received ?? t0)) * 1000).toFixed(1),
        'killed at s': killedAt ? seconds(killedAt - t0) : null,
        'survivors CPU s': seconds(living.reduce((a, b) => a + b, 0)),
        'peak RSS MiB': rssOf,
      },
    ]);
    console.table([
      {
        'charged once': `${check.once} / ${MEMBERSHIPS}`,
        'charged twice': check.twice,
        declined: check.failed,
        'ledger entries': check.ledger,
        'charges = ledger': check.matching,
        'one receipt job': check.one_receipt,
        'receipts sent': check.sent,
        'in next period': check.next_period,
        'receipts received': receiptIds.size,
        'repeats (same Message-ID)': repeats,
        missing,
      },
    ]);
  } finally {
    for (const worker of workers) await worker.stop().catch(() => {});
    await sink.stop();
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
