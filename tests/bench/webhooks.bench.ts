/**
 * Webhooks at volume (`npm run bench -- webhooks`, contract section 19): 10,000 order.paid events
 * delivered by the shop's worker (claimed in batches under a lease, signed, POSTed 16 at a time over
 * kept-alive connections, settled a few dozen at a time) to a local `node:http` receiver, beside a
 * bare client POSTing the same bodies to the same receiver, 16 at a time over kept-alive connections,
 * in the same run: the floor. Measured: the seconds from the wake-up to the last delivery recorded as
 * succeeded (and to the last POST received), deliveries a second, and the ratio to the floor. Also
 * the cost of writing an event in a change's transaction: 1,000 transactions of one event each,
 * against the same transactions without an endpoint taking the type.
 *
 * Then the two ways a delivery can be lost or doubled, each with as many events: the receiver down
 * (503) for its first BENCH_OUTAGE_SECONDS (default 30) and then back, and two worker processes
 * (APP_ROLE=worker) of which one is killed (-9) half way. Each must end with every event delivered,
 * any repeat carrying the same event id and body.
 *
 * BENCH_WEBHOOK_EVENTS (default 10000), BENCH_RECEIVER_DELAY_MS (default 0: the receiver answers at
 * once; a delay stands for an endpoint's own work).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryBody, signatureHeader, USER_AGENT } from '../../server/src/modules/webhooks/webhook-sender.js';
import { CONCURRENCY, SETTLE_EVERY } from '../../server/src/modules/webhooks/webhook-deliveries.js';
import { claimSize } from '../../server/src/modules/webhooks/webhook-delivery-sql.js';
import { startAppProcess, stopAllAppProcesses } from '../helpers/app-process.js';
import { startWebhookReceiver, type Received, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { startBenchApp, type BenchApp } from './bench-kit.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const DELAY_MS = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 0);
const IN_FLIGHT = 16;
const EMIT_RUNS = 1000;
const OUTAGE_S = Number(process.env.BENCH_OUTAGE_SECONDS ?? 30);
/** The shop and the bare client each deliver EVENTS events this many times, in turn first (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const seconds = (ms: number) => +(ms / 1000).toFixed(2);

export async function runWebhooksBench(): Promise<void> {
  let received = 0;
  let lastAt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => {
        received += 1;
        lastAt = performance.now();
        res.end('{}');
      };
      if (DELAY_MS) setTimeout(answer, DELAY_MS);
      else answer();
    });
  });
  receiver.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders`;
  const bench = await startBenchApp({ webhookAllowPrivate: true });
  const { app } = bench;
  try {
    const emitOne = (n: number) => app.orm.em.fork().transactional((em) => app.services.webhookEvents.emit(em, 'order.paid', () => [{ order: { id: `bench-${n}`, status: 'paid', total: '4.50' } }]));
    const timeEmits = async (from: number) => {
      const started = performance.now();
      for (let n = from; n < from + EMIT_RUNS; n++) await emitOne(n);
      return (performance.now() - started) / EMIT_RUNS;
    };
    // A change's transaction with nobody taking the type, then with an endpoint taking it.
    const idle = await timeEmits(0);
    const created = await fetch(`${app.url}/api/admin/webhooks`, { method: 'POST', headers: { ...bench.auth, 'content-type': 'application/json' }, body: JSON.stringify({ url, events: ['order.paid'] }) });
    const { secret } = (await created.json()) as { secret: string };
    // The worker stays still while the events are written: the run starts with all of them due.
    await app.services.webhookDeliveries.stop();
    const taken = await timeEmits(EMIT_RUNS);
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const results: { shop: number; received: number; floor: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round's events are written while the worker stands still: its run starts with all of them due.
      const first = round === 0 ? EMIT_RUNS : 0;
      await app.orm.em.fork().transactional((em) => app.services.webhookEvents.emit(em, 'order.paid', () => Array.from({ length: EVENTS - first }, (_, n) => ({ order: { id: `bench-${round}-${n}`, status: 'paid', total: '4.50', lines: [{ product_id: 1, name: 'Balloon Birthday', quantity: 1, unit_price: '4.50' }] } }))));
      const events = (await app.orm.em.fork().execute<{ id: string; type: string; created_at: Date; data: string }[]>(`select e.id, e.type, e.created_at, e.data::text as data from webhook_event e join webhook_delivery d on d.event_id = e.id where d.status = 'pending' order by e.created_at, e.id`));
      if (events.length !== EVENTS) throw new Error(`${events.length} deliveries pending, not ${EVENTS}`);
      const shop = async () => {
        received = 0;
        const started = performance.now();
        app.services.webhookDeliveries.start(app.orm, 3600);
        // Done when no delivery is pending (a look at the pending ones' index every 50 ms).
        for (;;) {
          const [row] = await app.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from webhook_delivery where status = 'pending'`);
          if (row!.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const done = performance.now();
        await app.services.webhookDeliveries.stop();
        if (received !== EVENTS) throw new Error(`the receiver took ${received} POSTs, not ${EVENTS}`);
        return { shop: done - started, received: lastAt - started };
      };
      // The floor: the same bodies, signed the same way, POSTed by a bare client over kept-alive connections.
      const floor = async () => {
        const post = (event: (typeof events)[number]) =>
          new Promise<void>((resolve, reject) => {
            const body = deliveryBody({ eventId: event.id, type: event.type, createdAt: new Date(event.created_at), data: event.data });
            const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT, 'artsong-event-id': event.id, 'artsong-signature': signatureHeader(secret, body, new Date()) } }, (res) => {
              res.resume();
              res.on('end', () => resolve());
            });
            req.on('error', reject);
            req.end(body);
          });
        const started = performance.now();
        let next = 0;
        await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
          while (next < events.length) await post(events[next++]!);
        }));
        return performance.now() - started;
      };
      // In turn first, so that neither is always measured on a machine the other has just warmed.
      if (round % 2) {
        const floorMs = await floor();
        results.push({ ...(await shop()), floor: floorMs });
      } else {
        const shopMs = await shop();
        results.push({ ...shopMs, floor: await floor() });
      }
      console.log(`  round ${round + 1}/${ROUNDS}: bare client ${seconds(results.at(-1)!.floor)} s, shop ${seconds(results.at(-1)!.shop)} s`);
    }
    agent.destroy();
    const floorMs = median(results.map((r) => r.floor));
    const shopMs = median(results.map((r) => r.shop));
    const shopReceived = median(results.map((r) => r.received));

    console.log(`\nWebhooks: ${EVENTS.toLocaleString('en-US')} order.paid events to a local receiver${DELAY_MS ? ` answering after ${DELAY_MS} ms` : ''}, ${IN_FLIGHT} in flight (medians of ${ROUNDS} rounds)`);
    console.table([
      { case: 'bare client: the same signed bodies POSTed', seconds: seconds(floorMs), 'per second': Math.round(EVENTS / (floorMs / 1000)), 'x floor': 1 },
      { case: 'shop: last POST received', seconds: seconds(shopReceived), 'per second': Math.round(EVENTS / (shopReceived / 1000)), 'x floor': +(shopReceived / floorMs).toFixed(2) },
      { case: 'shop: last delivery recorded as succeeded', seconds: seconds(shopMs), 'per second': Math.round(EVENTS / (shopMs / 1000)), 'x floor': +(shopMs / floorMs).toFixed(2) },
    ]);
    const rate = median(results.map((r) => r.floor / r.shop));
    console.log(`The shop's delivery rate is ${rate.toFixed(2)} of the bare client's, the median of ${ROUNDS} rounds (goal: at least 0.5): ${rate >= 0.5 ? 'met' : 'NOT MET'}`);
    console.log(`Writing an event in its change's transaction (${EMIT_RUNS} transactions each): ${idle.toFixed(2)} ms a transaction with no endpoint taking it, ${taken.toFixed(2)} ms with one (the event and its delivery in one statement).`);

    await fetch(`${app.url}/api/admin/webhooks/${(await app.orm.em.fork().execute<{ id: number }[]>(`select id from webhook_endpoint`))[0]!.id}`, { method: 'DELETE', headers: bench.auth });
    await outageAndBack(bench);
    await workerKilled(bench);
  } finally {
    await bench.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}

/** Writes `count` order.paid events in one transaction (ids `{prefix}-{n}`). */
async function emitOrders(bench: BenchApp, prefix: string, count: number): Promise<void> {
  await bench.app.orm.em.fork().transactional((em) => bench.app.services.webhookEvents.emit(em, 'order.paid', () => Array.from({ length: count }, (_, n) => ({ order: { id: `${prefix}-${n}`, status: 'paid', total: '4.50' } }))));
}

/** Creates an endpoint taking order.paid; answers its id. */
async function endpointTo(bench: BenchApp, url: string): Promise<number> {
  const res = await fetch(`${bench.app.url}/api/admin/webhooks`, { method: 'POST', headers: { ...bench.auth, 'content-type': 'application/json' }, body: JSON.stringify({ url, events: ['order.paid'] }) });
  if (res.status !== 201) throw new Error(`creating an endpoint answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** Waits until every delivery to the endpoint succeeded (a failed one ends the wait with an error). */
async function allDelivered(bench: BenchApp, endpointId: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const [row] = await bench.app.orm.em.fork().execute<{ ok: number; failed: number }[]>(`select count(*) filter (where status = 'succeeded')::int as ok, count(*) filter (where status = 'failed')::int as failed from webhook_delivery where endpoint_id = ?`, [endpointId]);
    if (row!.failed) throw new Error(`${row!.failed} deliveries failed`);
    if (row!.ok >= EVENTS) return;
    if (performance.now() > deadline) throw new Error(`only ${row!.ok} of ${EVENTS} delivered within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What the receiver took: events, POSTs, repeats, and whether every repeat was the same event (same body). */
function tally(received: Received[], accepted: (delivery: Received) => boolean) {
  const bodies = new Map<string, Set<string>>();
  for (const delivery of received) bodies.set(delivery.eventId, (bodies.get(delivery.eventId) ?? new Set()).add(delivery.body));
  const acceptedIds = new Set(received.filter(accepted).map((delivery) => delivery.eventId));
  return { events: bodies.size, accepted: acceptedIds.size, posts: received.length, repeats: received.length - bodies.size, sameBodies: [...bodies.values()].every((set) => set.size === 1) };
}

/** The receiver answers 503 for its first OUTAGE_S seconds, then 200: the retries bring every event through. */
async function outageAndBack(bench: BenchApp): Promise<void> {
  const receiver = await startWebhookReceiver();
  try {
    const endpointId = await endpointTo(bench, `${receiver.url}/outage`);
    const started = performance.now();
    const backAt = Date.now() + OUTAGE_S * 1000;
    receiver.status = (delivery) => (delivery.at < backAt ? 503 : 200);
    bench.app.services.webhookDeliveries.start(bench.app.orm, 3600);
    await emitOrders(bench, 'outage', EVENTS);
    await allDelivered(bench, endpointId, 15 * 60_000);
    const ms = performance.now() - started;
    await bench.app.services.webhookDeliveries.stop();
    const [attempts] = await bench.app.orm.em.fork().execute<{ most: number; mean: number }[]>(`select max(attempts)::int as most, avg(attempts)::float as mean from webhook_delivery where endpoint_id = ?`, [endpointId]);
    const t = tally(receiver.received, (delivery) => delivery.at >= backAt);
    const ok = t.events === EVENTS && t.accepted === EVENTS && t.sameBodies;
    console.log(`\nThe receiver down (503) for ${OUTAGE_S} s, then back: ${EVENTS.toLocaleString('en-US')} events delivered in ${seconds(ms)} s, ${t.posts.toLocaleString('en-US')} POSTs (${attempts!.mean.toFixed(2)} attempts an event, at most ${attempts!.most}); ${t.accepted.toLocaleString('en-US')} events answered 2xx, every repeat the same event id and body: ${t.sameBodies ? 'yes' : 'NO'}  ${ok ? 'met' : 'NOT MET'}`);
    await fetch(`${bench.app.url}/api/admin/webhooks/${endpointId}`, { method: 'DELETE', headers: bench.auth });
  } finally {
    await receiver.stop();
  }
}

/** Two worker processes deliver; one is killed (-9) half way: every event arrives, repeats are the same event. */
async function workerKilled(bench: BenchApp): Promise<void> {
  const receiver: WebhookReceiver = await startWebhookReceiver();
  const databaseUrl = bench.app.orm.config.get('clientUrl')!;
  try {
    const endpointId = await endpointTo(bench, `${receiver.url}/killed`);
    const env = { APP_ROLE: 'worker', DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_LEASE_SECONDS: '3', PAYMENT_PROVIDER: 'test' };
    const workers = [await startAppProcess('webhooks-a', env), await startAppProcess('webhooks-b', env)];
    const started = performance.now();
    await emitOrders(bench, 'killed', EVENTS);
    while (receiver.received.length < EVENTS / 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await workers[0]!.stop('SIGKILL');
    const atKill = receiver.received.length;
    await allDelivered(bench, endpointId, 5 * 60_000);
    const ms = performance.now() - started;
    await workers[1]!.stop();
    const t = tally(receiver.received, () => true);
    const bound = claimSize(CONCURRENCY) + SETTLE_EVERY;
    const ok = t.events === EVENTS && t.sameBodies && t.repeats <= bound;
    console.log(`One of two worker processes killed (-9) after ${atKill.toLocaleString('en-US')} POSTs: ${EVENTS.toLocaleString('en-US')} events delivered in ${seconds(ms)} s (the dead worker's claims taken over once their 3 s lease ran out), ${t.repeats} sent twice (at most ${bound}: what it held), every repeat the same event id and body: ${t.sameBodies ? 'yes' : 'NO'}  ${ok ? 'met' : 'NOT MET'}`);
  } finally {
    await stopAllAppProcesses();
    await receiver.stop();
  }
}
