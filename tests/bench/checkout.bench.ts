/**
 * Checkout benchmark (contract section 12: a 100-recipient line is placed in one transaction with
 * bulk inserts, p95 under 250 ms): `placeOrder` over GraphQL with the test provider, for a card to one
 * recipient and a card to 100 (101 order items and 101 e-mails written), beside a floor: a bare
 * node:http answer to a POST of the same body, measured the same way in the same run. The queue's
 * sending is stopped, so that only placing the order is measured (sending is the mail queue's own
 * bench), and the SQL of one 100-recipient order is counted. Then the address book at its largest
 * (2,000 contacts): a first page, a page deep in, and two searches.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { measure, startBenchApp, type BenchResult } from './bench-kit.js';

const RUNS = 100;
const GOAL_P95_MS = 250;

const PLACE = `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { id total items { id itemUrlUuid } } }`;

export async function runCheckoutBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp({ limits: { registerPerHour: 10, checkoutPer10Minutes: 1_000_000 } });
  const floorServer = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{}}');
    });
  });
  await new Promise<void>((resolve) => floorServer.listen(0, '127.0.0.1', resolve));
  try {
    await app.services.deliveries.stop();
    const json = { ...auth, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return res.json() as Promise<any>;
    };
    const category = await post('/api/categories', { name: 'Holidays', parent_id: null });
    const card = await post('/api/products', { product: { name: 'Snowy Pines', price: 4.5, product_type_id: 1, category_id: category.id }, tags: [], e_greeting_card_data: { message_location: 'middle-center', font_name: 'Dancing Script' } });

    const input = (recipients: number) => ({
      idempotencyKey: crypto.randomUUID(),
      purchaserEmail: 'bench@example.com',
      payment: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' },
      lines: [
        {
          productId: card.product.id,
          quantity: recipients,
          personalisation: {
            senderName: 'Ada',
            message: 'Dear {name},\nhappy holidays and a bright new year!',
            recipients: Array.from({ length: recipients }, (_, i) => ({ name: `Friend ${i}`, email: `friend${i}@example.com` })),
            timeZone: 'Europe/Paris',
          },
        },
      ],
    });
    const place = (recipients: number) => async () => {
      const body = await post('/graphql', { query: PLACE, variables: { input: input(recipients) } });
      if (!body.data || body.data.placeOrder.items.length !== recipients) throw new Error(`placeOrder answered ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
    };

    // The SQL of one 100-recipient order, for the record.
    const queries: string[] = [];
    const logger = app.orm.config.getLogger();
    const original = logger.logQuery;
    logger.logQuery = (context) => void queries.push(String(context.query));
    app.orm.config.set('debug', true);
    try {
      await place(100)();
    } finally {
      app.orm.config.set('debug', false);
      logger.logQuery = original;
    }
    const inserts = queries.filter((q) => /^\s*insert/i.test(q)).map((q) => /^\s*insert into "?(\w+)"?/i.exec(q)?.[1]);
    console.log(`one 100-recipient order: ${queries.length} statements, inserts: ${inserts.join(', ')}`);

    const floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}/`;
    const floorBody = JSON.stringify({ query: PLACE, variables: { input: input(100) } });
    const floor = await measure('floor: bare node:http answer to the same POST', async () => void (await (await fetch(floorUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: floorBody })).arrayBuffer()), RUNS);
    const one = await measure('placeOrder: a card to 1 recipient', place(1), RUNS);
    const hundred = await measure('placeOrder: a card to 100 recipients (101 items and e-mails)', place(100), RUNS);
    const goal = (r: BenchResult) => `${r.p95 <= GOAL_P95_MS ? 'met' : 'MISSED'}: p95 ≤ ${GOAL_P95_MS} ms`;

    // The address book at its largest: 2,000 contacts (imported as a shopper would), paged and searched.
    const rows = Array.from({ length: 2000 }, (_, i) => `Person ${String(i).padStart(4, '0')},person${i}@${i % 3 ? 'example.com' : 'mail.test'},${i % 2 ? '' : `${String(1 + (i % 12)).padStart(2, '0')}-15`}`);
    const imported = await post('/graphql', { query: 'mutation($csv: String!) { importContacts(csv: $csv) { imported errors { line message } } }', variables: { csv: ['name,email,birthday', ...rows].join('\n') } });
    if (imported.data?.importContacts.imported !== 2000) throw new Error(`import answered ${JSON.stringify(imported).slice(0, 300)}`);
    const CONTACTS = `query($search: String, $after: String) { contacts(search: $search, first: 50, after: $after) { totalCount pageInfo { endCursor } edges { node { id name email occasions { label month day remind nextRemindAt } } } } }`;
    const contacts = (variables: Record<string, unknown>) => async () => {
      const body = await post('/graphql', { query: CONTACTS, variables });
      if (!body.data) throw new Error(`contacts answered ${JSON.stringify(body.errors).slice(0, 300)}`);
    };
    let cursor: string | null = null;
    for (let page = 0; page < 30; page++) cursor = (await post('/graphql', { query: CONTACTS, variables: { after: cursor } })).data.contacts.pageInfo.endCursor;
    const book = [
      await measure('contacts(first: 50) of 2,000, page 1', contacts({}), RUNS),
      await measure('contacts(first: 50) of 2,000, page 31', contacts({ after: cursor }), RUNS),
      await measure('contacts(search: "person1234") of 2,000', contacts({ search: 'person1234' }), RUNS),
      await measure('contacts(search: "mail.test") of 2,000 (a third)', contacts({ search: 'mail.test' }), RUNS),
    ];
    return [
      floor,
      { ...one, name: `${one.name} (×${(one.p50 / floor.p50).toFixed(1)} floor)` },
      { ...hundred, name: `${hundred.name} (×${(hundred.p50 / floor.p50).toFixed(1)} floor; ${goal(hundred)})` },
      ...book.map((r) => ({ ...r, name: `${r.name} (×${(r.p50 / floor.p50).toFixed(1)} floor)` })),
    ];
  } finally {
    floorServer.close();
    await stop();
  }
}
