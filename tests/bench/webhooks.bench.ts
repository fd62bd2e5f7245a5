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
 * BENCH_WEBHOOK_EVENTS (default 10000), BENCH_RECEIVER_DELAY_MS (default 0: the receiver answers at
 * once; a delay stands for an endpoint's own work).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliveryBody, signatureHeader, USER_AGENT } from '../../server/src/modules/webhooks/webhook-sender.js';
import { startBenchApp } from './bench-kit.js';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const DELAY_MS = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 0);
const IN_FLIGHT = 16;
const EMIT_RUNS = 1000;

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
    await app.orm.em.fork().transactional((em) => app.services.webhookEvents.emit(em, 'order.paid', () => Array.from({ length: EVENTS - EMIT_RUNS }, (_, n) => ({ order: { id: `bench-bulk-${n}`, status: 'paid', total: '4.50', lines: [{ product_id: 1, name: 'Balloon Birthday', quantity: 1, unit_price: '4.50' }] } }))));
    const events = (await app.orm.em.fork().execute<{ id: string; type: string; created_at: Date; data: string }[]>(`select id, type, created_at, data::text as data from webhook_event where type = 'order.paid' order by created_at, id`)).slice(-EVENTS);

    received = 0;
    const shopStart = performance.now();
    app.services.webhookDeliveries.start(app.orm, 3600);
    const shopDone = await new Promise<number>((resolve) => {
      const check = setInterval(async () => {
        const [row] = await app.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from webhook_delivery where status = 'succeeded'`);
        if (row!.n >= EVENTS) {
          clearInterval(check);
          resolve(performance.now());
        }
      }, 50);
    });
    const shopReceived = lastAt - shopStart;
    const shopMs = shopDone - shopStart;
    await app.services.webhookDeliveries.stop();

    // The floor: the same bodies, signed the same way, POSTed by a bare client over kept-alive connections.
    received = 0;
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
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
    const floorStart = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < events.length) await post(events[next++]!);
    }));
    const floorMs = performance.now() - floorStart;
    agent.destroy();

    console.log(`\nWebhooks: ${EVENTS.toLocaleString('en-US')} order.paid events to a local receiver${DELAY_MS ? ` answering after ${DELAY_MS} ms` : ''}, ${IN_FLIGHT} in flight`);
    console.table([
      { case: 'bare client: the same signed bodies POSTed', seconds: seconds(floorMs), 'per second': Math.round(EVENTS / (floorMs / 1000)), 'x floor': 1 },
      { case: 'shop: last POST received', seconds: seconds(shopReceived), 'per second': Math.round(EVENTS / (shopReceived / 1000)), 'x floor': +(shopReceived / floorMs).toFixed(2) },
      { case: 'shop: last delivery recorded as succeeded', seconds: seconds(shopMs), 'per second': Math.round(EVENTS / (shopMs / 1000)), 'x floor': +(shopMs / floorMs).toFixed(2) },
    ]);
    console.log(`Writing an event in its change's transaction (${EMIT_RUNS} transactions each): ${idle.toFixed(2)} ms a transaction with no endpoint taking it, ${taken.toFixed(2)} ms with one (the event and its delivery in one statement).`);
  } finally {
    await bench.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}
