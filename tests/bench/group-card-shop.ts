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
import { buyFirstCard, day, graphql, newShopper, shopBase as base, waitForDelivery } from './lighthouse-shop.js';

const shopper = await newShopper();
const { orderId, item } = await buyFirstCard(shopper, {
  recipientName: 'Grace Hopper',
  recipientEmail: 'grace@example.com',
  senderName: 'The whole team',
  message: 'Happy retirement, Grace!\nFrom all of us.',
  deliveryDate: day(2),
  groupCard: { collectUntil: new Date(Date.now() + 86_400_000).toISOString() },
});

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
await graphql(`mutation($id: Int!, $day: String!) { changeCardDate(itemId: $id, deliveryDate: $day) { id } }`, { id: item.id, day: day(0) }, shopper.token);
await waitForDelivery(orderId, shopper.token);
console.log(item.ecardPath);
