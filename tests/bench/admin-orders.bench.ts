/**
 * The console's orders at scale (contract section 16): 200,000 orders, a sent receipt for each and
 * 300 failed e-mails, then the console's list (GraphQL `orders(first: 50)`, as the Orders screen asks
 * for it, with its count) with each filter, the first page and a page 50,000 rows in (a keyset cursor
 * made from the row there), timed warm with their ratio to a bare node:http answer measured the same
 * way in the same run; and the plan of the list's statements.
 */
import { encodeCursor } from '../../server/src/core/pagination.js';
import { measure, startBenchApp, startFloor, type BenchResult } from './bench-kit.js';
import { seedBenchOrders } from './orders.bench.js';

const ORDERS = 200_000;
const DEEP = 50_000;
const RUNS = 60;
const QUERY = `query($after: String, $status: OrderStatus, $from: String, $to: String, $failedEmail: Boolean, $group: Boolean, $search: String) {
  orders(first: 50, after: $after, status: $status, from: $from, to: $to, failedEmail: $failedEmail, group: $group, search: $search) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { id number purchaserEmail status total createdAt } }
  }
}`;

export async function runAdminOrdersBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp();
  const floor = await startFloor('{"data":{"orders":{"totalCount":0,"pageInfo":{"hasNextPage":false,"endCursor":null},"edges":[]}}}');
  const results: BenchResult[] = [];
  try {
    const em = app.orm.em.fork();
    await seedBenchOrders(em, ORDERS);
    // The mail queue as a busy shop has it: a sent receipt per order, and 300 that failed.
    await em.transactional(async (tx) => {
      await tx.execute('set local statement_timeout = 0');
      await tx.execute(`insert into mail_job (kind, subject, due_at, status, sent_at, recipient)
        select 'receipt', 'order:' || id, created_at, case when row_number() over (order by created_at desc) % 667 = 0 then 'failed' else 'sent' end, created_at, purchaser_email from "order"`);
    });
    await em.execute('vacuum analyze mail_job');
    await em.execute('vacuum analyze "order"');

    results.push(await floor.measure(RUNS));
    const ratio = floor.ratio;
    const list = (variables: Record<string, unknown>) => async () => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY, variables }) });
      const body = (await res.json()) as { data?: unknown; errors?: unknown };
      if (!body.data) throw new Error(`orders answered ${JSON.stringify(body.errors).slice(0, 300)}`);
    };
    const cursorAt = async (where: string, offset: number) => {
      const [row] = await em.execute<{ id: string; created_at: Date }[]>(`select id::text, created_at from "order" where ${where} order by created_at desc, id desc offset ${offset} limit 1`);
      return encodeCursor({ t: new Date(row!.created_at).toISOString(), id: row!.id });
    };
    const month = { from: new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10), to: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10) };

    const [deep, deepDelivered] = await Promise.all([cursorAt('true', DEEP - 1), cursorAt(`status = 'delivered'`, DEEP - 1)]);
    for (const [label, sql] of [
      ['newest first, 50,000 rows in', `select id from "order" where (created_at, id) < (select created_at, id from "order" order by created_at desc, id desc offset ${DEEP - 1} limit 1) order by created_at desc, id desc limit 51`],
      ['status delivered, first page', `select id from "order" where status = 'delivered' order by created_at desc, id desc limit 51`],
      ['a month, first page', `select id from "order" where created_at >= '${month.from}' and created_at <= '${month.to}T23:59:59Z' order by created_at desc, id desc limit 51`],
      ['the failed e-mails', `select distinct subject from mail_job where status = 'failed' and subject like 'order:%'`],
      ['the count of delivered', `select count(*) from "order" where status = 'delivered'`],
    ] as const) {
      const plan = await em.execute<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, timing off) ${sql}`);
      console.log(`  plan, ${label}: ${plan.map((r) => r['QUERY PLAN'].trim()).filter((line) => /Scan|Sort|Execution Time/.test(line)).join(' | ')}`);
    }

    results.push(ratio(await measure('newest first: first page', list({}), RUNS)));
    results.push(ratio(await measure(`newest first: ${DEEP.toLocaleString()} rows in`, list({ after: deep }), RUNS)));
    results.push(ratio(await measure('status=DELIVERED: first page', list({ status: 'DELIVERED' }), RUNS)));
    results.push(ratio(await measure(`status=DELIVERED: ${DEEP.toLocaleString()} rows in`, list({ status: 'DELIVERED', after: deepDelivered }), RUNS)));
    results.push(ratio(await measure('status=REFUNDED: first page', list({ status: 'REFUNDED' }), RUNS)));
    results.push(ratio(await measure('from–to (a month, 30 days ago): first page', list(month), RUNS)));
    results.push(ratio(await measure('failedEmail (300 of 200,000): first page', list({ failedEmail: true }), RUNS)));
    results.push(ratio(await measure('group (none): first page', list({ group: true }), RUNS)));
    results.push(ratio(await measure('search "snowy" + status=PAID: first page', list({ search: 'snowy', status: 'PAID' }), RUNS)));
    return results;
  } finally {
    floor.close();
    await stop();
  }
}
