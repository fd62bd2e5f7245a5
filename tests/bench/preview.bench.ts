/**
 * Preview before paying (contract section 15): `POST /api/ecards/preview` against the real e-card
 * page of a bought card of the same product, on the demo shop. Over HTTP: the preview (drawn on every
 * request, nothing cached), the real page as a recipient opens it (kept by the read cache after its
 * first drawing) and a bare node:http server answering the preview's bytes (the floor). In process:
 * the preview's checks and read (`draw`), and the renderer alone on the preview and on the bought card.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createSystemContext } from '../../server/src/core/context.js';
import { renderEcardPage } from '../../server/src/modules/ecard/ecard-page.js';
import { measure, startBenchApp, type BenchResult } from './bench-kit.js';

const RUNS = 300;

export async function runPreviewBench(): Promise<BenchResult[]> {
  const { app, stop } = await startBenchApp({ seedDemo: true });
  const results: BenchResult[] = [];
  let floorServer: http.Server | null = null;
  try {
    const em = app.orm.em.fork();
    const [card] = await em.execute<{ id: number }[]>(`select p.id from product p join e_greeting_card c on c.product_id = p.id where c.song_1_id is not null order by p.id limit 1`);
    const personalisation = { recipientName: 'Grace Hopper', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Dear {firstName},\nmany happy returns of the day!' };
    const body = JSON.stringify({ product_id: card!.id, personalisation });
    const preview = async () => {
      const res = await fetch(`${app.url}/api/ecards/preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (res.status !== 200) throw new Error(`preview answered ${res.status}: ${await res.text()}`);
      return res.text();
    };
    const bytes = await preview();
    floorServer = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(bytes);
    });
    await new Promise<void>((resolve) => floorServer!.listen(0, '127.0.0.1', resolve));
    const floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}/`;

    // The same card bought (the test provider pays), so that its page can be opened.
    const placed = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { items { id itemUrlUuid } } }',
        variables: { input: { idempotencyKey: crypto.randomUUID(), purchaserEmail: 'ada@example.com', lines: [{ productId: card!.id, quantity: 1, personalisation }], payment: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', cardholderName: 'Ada' } } },
      }),
    });
    const item = ((await placed.json()) as { data: { placeOrder: { items: { id: number; itemUrlUuid: string }[] } } }).data.placeOrder.items[0]!;
    const page = async () => {
      const res = await fetch(`${app.url}/ecards/${item.itemUrlUuid}.html`);
      if (res.status !== 200) throw new Error(`the e-card page answered ${res.status}`);
      await res.text();
    };

    const floor = await measure('floor: bare node:http answering the preview\'s bytes', async () => void (await (await fetch(floorUrl)).text()), RUNS);
    const ratio = (r: BenchResult) => ({ ...r, name: `${r.name} (×${(r.p50 / floor.p50).toFixed(1)} floor)` });
    results.push(floor);
    results.push(ratio(await measure('POST /api/ecards/preview (drawn every time)', async () => void (await preview()), RUNS)));
    results.push(ratio(await measure('GET /ecards/{uuid}.html, the bought card (read cache)', page, RUNS)));

    const previews = app.services.cardPreviews;
    const context = () => createSystemContext({ em: app.orm.em.fork(), log: pino({ level: 'silent' }), task: 'bench' });
    const drawn = await previews.draw(context(), { productId: card!.id, personalisation });
    const bought = await app.services.ecards.open(context(), item.itemUrlUuid);
    if (!bought) throw new Error('the bought card did not open');
    results.push(await measure('in process: the preview\'s checks and read (draw)', async () => void (await previews.draw(context(), { productId: card!.id, personalisation })), RUNS));
    results.push(await measure('in process: renderEcardPage of the preview', async () => void renderEcardPage(drawn, { preview: true, repliesLeft: 0 }), RUNS));
    results.push(await measure('in process: renderEcardPage of the bought card', async () => void renderEcardPage(bought, { preview: false, repliesLeft: 3 }), RUNS));
    return results;
  } finally {
    floorServer?.close();
    await stop();
  }
}
