/**
 * A delivered group card with 100 signatures on a running shop, for `npm run lighthouse` (issue 28:
 * the e-card page stays light with 100 signatures, Lighthouse mobile ≥ 95):
 *
 *   PORT=4128 DATA_DIR=/tmp/shop SIGNATURES_MAX_PER_HOUR=1000 npm start      # the demo shop
 *   LIGHTHOUSE_URL=http://localhost:4128 npx tsx tests/bench/group-card-shop.ts
 *   LIGHTHOUSE_URL=http://localhost:4128 LIGHTHOUSE_FORMS=mobile LIGHTHOUSE_PAGES=<the path it prints> npm run lighthouse
 *
 * It buys the shop's first e-greeting card as a new account with "Make it a group card", signs it 100
 * times through the signing API (messages of a line or two, some of a paragraph), then moves the card
 * to today in My orders, so that it goes out at once and its page is the delivered card.
 */
import crypto from 'node:crypto';

const base = (process.env.LIGHTHOUSE_URL ?? 'http://localhost:4000').replace(/\/+$/, '');

async function graphql<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const username = `lighthouse_${crypto.randomBytes(3).toString('hex')}`;
const registered = await fetch(`${base}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, email: `${username}@example.com`, password: 'lighthouse-pass-1' }) });
if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
const token = await (await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'lighthouse-pass-1' }) })).text();

const { searchProducts } = await graphql<{ searchProducts: { edges: { node: { id: number; name: string; productTypeId: number } }[] } }>(`{ searchProducts(first: 50) { edges { node { id name productTypeId } } } }`);
const card = searchProducts.edges.map((edge) => edge.node).find((product) => product.productTypeId === 1);
if (!card) throw new Error('The shop has no e-greeting card.');

const { placeOrder } = await graphql<{ placeOrder: { id: string; items: { id: number; ecardPath: string; signingToken: string }[] } }>(
  `mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id items { id ecardPath signingToken } } }`,
  {
    input: {
      idempotencyKey: crypto.randomUUID(),
      purchaserEmail: `${username}@example.com`,
      lines: [{
        productId: card.id,
        quantity: 1,
        personalisation: { recipientName: 'Grace Hopper', recipientEmail: 'grace@example.com', senderName: 'The whole team', message: 'Happy retirement, Grace!\nFrom all of us.', deliveryDate: day(2), groupCard: { collectUntil: new Date(Date.now() + 86_400_000).toISOString() } },
      }],
      payment: { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' },
    },
  },
  token,
);
const item = placeOrder.items[0]!;

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Dennis', 'Frances', 'Ken', 'Radia', 'Tim', 'Katherine', 'Edsger', 'Hedy', 'John', 'Sophie', 'Guido', 'Annie', 'Donald', 'Mary'];
const LAST = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Ritchie', 'Allen', 'Thompson', 'Perlman'];
const WORDS = 'thank you for everything you have done for the team over the years it has been a real joy to work with you and we will miss your laugh your kindness and your terrible puns good luck'.split(' ');
for (let i = 0; i < 100; i += 1) {
  const words = i % 33 === 7 ? 90 : i % 9 === 4 ? 35 : 6 + (i % 7) * 2;
  const text = Array.from({ length: words }, (_, w) => WORDS[(i * 7 + w) % WORDS.length]).join(' ');
  const message = `${text[0]!.toUpperCase()}${text.slice(1)}${i % 5 === 0 ? '!\nSee you soon.' : '.'}`.slice(0, 500);
  const res = await fetch(`${base}/api/sign/${item.signingToken}/signatures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `${FIRST[i % FIRST.length]} ${LAST[(i * 3) % LAST.length]}`, message }) });
  if (res.status !== 201) throw new Error(`signature ${i + 1}: ${res.status} ${await res.text()} (start the shop with SIGNATURES_MAX_PER_HOUR=1000)`);
}

// Today: the card goes out now (its signing closes with it).
await graphql(`mutation($id: Int!, $day: String!) { changeCardDate(itemId: $id, deliveryDate: $day) { id } }`, { id: item.id, day: day(0) }, token);
for (let tries = 0; ; tries += 1) {
  const { order } = await graphql<{ order: { items: { deliveredAt: string | null }[] } }>(`query($id: ID!) { order(id: $id) { items { deliveredAt } } }`, { id: placeOrder.id }, token);
  if (order.items[0]!.deliveredAt) break;
  if (tries > 60) throw new Error('The card did not go out within a minute.');
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
console.log(item.ecardPath);
