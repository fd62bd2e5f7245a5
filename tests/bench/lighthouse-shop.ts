/**
 * What `npm run lighthouse` and its helpers ask of a running shop: its GraphQL endpoint, a shopper's
 * account, a card bought with the demo's fake payment and sent at once (the e-card page a recipient
 * opens), and a static copy of a page (the control page: the same HTML and styles without a script).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export const shopBase = (process.env.LIGHTHOUSE_URL ?? 'http://localhost:4000').replace(/\/+$/, '');

export async function graphql<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
  const res = await fetch(`${shopBase}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** A day from today, as a delivery date reads: `2026-12-24`. */
export const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** A new shopper's account, signed in: its name and token. */
export async function newShopper(): Promise<{ username: string; token: string }> {
  const username = `lighthouse_${crypto.randomBytes(3).toString('hex')}`;
  const json = { 'content-type': 'application/json' };
  const registered = await fetch(`${shopBase}/api/register`, { method: 'POST', headers: json, body: JSON.stringify({ username, email: `${username}@example.com`, password: 'lighthouse-pass-1' }) });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const token = await (await fetch(`${shopBase}/api/login`, { method: 'POST', headers: json, body: JSON.stringify({ username, password: 'lighthouse-pass-1' }) })).text();
  return { username, token };
}

/** Buys the shop's first e-greeting card (with the demo's fake payment): the order and its one item. */
export async function buyFirstCard(shopper: { username: string; token: string }, personalisation: Record<string, unknown>) {
  const { searchProducts } = await graphql<{ searchProducts: { edges: { node: { id: number; productTypeId: number } }[] } }>(`{ searchProducts(first: 50) { edges { node { id productTypeId } } } }`);
  const card = searchProducts.edges.map((edge) => edge.node).find((product) => product.productTypeId === 1);
  if (!card) throw new Error('The shop has no e-greeting card.');
  const { placeOrder } = await graphql<{ placeOrder: { id: string; items: { id: number; ecardPath: string; signingToken: string }[] } }>(
    `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id items { id ecardPath signingToken } } }`,
    {
      input: {
        idempotencyKey: crypto.randomUUID(),
        purchaserEmail: `${shopper.username}@example.com`,
        lines: [{ productId: card.id, quantity: 1, personalisation }],
        payment: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' },
      },
    },
    shopper.token,
  );
  return { orderId: placeOrder.id, item: placeOrder.items[0]! };
}

/** Waits until the order's card has gone out (a card for today goes out within seconds). */
export async function waitForDelivery(orderId: string, token: string): Promise<void> {
  for (let tries = 0; ; tries += 1) {
    const { order } = await graphql<{ order: { items: { deliveredAt: string | null }[] } }>(`query($id: ID!) { order(id: $id) { items { deliveredAt } } }`, { id: orderId }, token);
    if (order.items[0]!.deliveredAt) return;
    if (tries > 60) throw new Error('The card did not go out within a minute.');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** A delivered e-card's page (LIGHTHOUSE_ECARD, or a card bought now for today): its path. */
export async function deliveredEcardPath(): Promise<string> {
  if (process.env.LIGHTHOUSE_ECARD) return process.env.LIGHTHOUSE_ECARD;
  const shopper = await newShopper();
  const { orderId, item } = await buyFirstCard(shopper, { recipientName: 'Grace Hopper', recipientEmail: 'grace@example.com', senderName: 'Ada', message: 'Happy birthday, Grace!\nWith love from all of us.', deliveryDate: day(0) });
  await waitForDelivery(orderId, shopper.token);
  return item.ecardPath;
}

/**
 * The control page: a page of the shop as the server draws it, with its scripts taken out (the same
 * text, styles and pictures, nothing to run), served by a tiny server that passes every other request
 * on to the shop. What a page of the same kind scores on this machine in this run.
 */
export async function startControlPage(page: string): Promise<{ url: string; close: () => Promise<void> }> {
  const drawn = await (await fetch(`${shopBase}${page}`)).text();
  const html = drawn.replace(/<script\b(?![^>]*type="application\/(?:ld\+)?json")[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');
  const gzipped = zlib.gzipSync(html);
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      // Compressed as the shop sends its pages.
      const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(gzip ? { 'content-encoding': 'gzip' } : {}) }).end(gzip ? gzipped : html);
      return;
    }
    const upstream = http.request(`${shopBase}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(shopBase).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
