import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeGroupCard } from '../helpers/group-card-fixtures.js';
import { decodeQuotedPrintable, manualClock, orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Contract section 20: a card's e-mail, its page and its reminders speak the language its purchaser
 * bought it in (`placeOrder(input: {locale})`), English when it is left out, whatever the shop's
 * own language; the e-mails go through a real SMTP server.
 */
let sink: SmtpSink;
let app: TestApp;
let shop: Shop;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  sink = await startSmtpSink();
  app = await startTestApp({ deliveryPollSeconds: 3600, publicUrl: 'https://cards.example', smtpUrl: sink.url }, { clock: clock.now });
  shop = await seedShop(app, await app.login());
});
afterAll(async () => {
  await app?.stop();
  await sink?.stop();
});

const PLACE = `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { id locale items { itemUrlUuid } } }`;

/** A card to `recipientEmail` bought in `locale` (left out when undefined), and its order. */
async function buyCard(recipientEmail: string, locale?: string) {
  const input = orderInput(shop, { purchaserEmail: `buyer-${recipientEmail}`, lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail }) }], ...(locale ? { locale } : {}) });
  const { body } = await app.graphql(PLACE, { input });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.placeOrder as { id: string; locale: string; items: { itemUrlUuid: string }[] };
}

/** The e-mail that reached `to` through the SMTP server: its subject and its parts as written. */
function arrived(to: string) {
  const arrival = sink.arrivals.find((one) => one.to === to || one.to.endsWith(`<${to}>`));
  if (!arrival) throw new Error(`nothing reached ${to}`);
  return { subject: arrival.subject, body: decodeQuotedPrintable(arrival.message.replace(/\r\n/g, '\n')) };
}

describe('the language an order is bought in', () => {
  it('a card bought in German sends a German e-mail and receipt, and its page is German', async () => {
    const order = await buyCard('hallo@example.com', 'de');
    expect(order.locale).toBe('de');
    await app.services.deliveries.runDue();

    const card = arrived('hallo@example.com');
    expect(card.subject).toBe('Ada hat Ihnen eine Karte geschickt: Balloon Birthday');
    expect(card.body).toContain('Hallo Grace Hopper,');
    expect(card.body).toContain('Ada hat Ihnen eine E-Grußkarte mit Musik geschickt: Balloon Birthday.');
    expect(card.body).toContain(`Karte öffnen: https://cards.example/ecards/${order.items[0]!.itemUrlUuid}.html`);
    expect(card.body).toContain('Art & Song Cards – schöne Grüße, ganz ohne Warten.');
    expect(card.body).toMatch(/<html [^>]*lang="de"/);
    expect(card.body).not.toContain('Open your card');

    const receipt = arrived('buyer-hallo@example.com');
    expect(receipt.body).toContain('Vielen Dank für Ihre Bestellung.');
    expect(receipt.body).toContain('Gesamt: 4,50');
    expect(receipt.body).toContain(`https://cards.example/de/order-confirmation/${order.id}`);

    const page = await (await app.request(`/ecards/${order.items[0]!.itemUrlUuid}.html`)).text();
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<h1>Grace Hopper, Ada hat Ihnen eine Karte geschickt</h1>');
    expect(page).toContain('Danke sagen');
    expect(page).toContain('<a href="/de">Art &amp; Song Cards</a> – schöne Grüße, ganz ohne Warten.');
    // The page's script is given its words in the page's language.
    const words = JSON.parse(/<script type="application\/json" id="page-words">(.*?)<\/script>/.exec(page)![1]!) as Record<string, string>;
    expect(words.nameMissing).toBe('Bitte geben Sie Ihren Namen ein.');
    expect(words.pageOf).toBe('Seite {page} von {count}');
    expect(page).not.toContain('Send a thank-you');
  });

  it("a product with a German name is sold by that name in German: the order's line, its e-mail and receipt; the console finds it by either name", async () => {
    const admin = await app.login();
    expect((await app.request(`/api/products/${shop.albumId}`, { method: 'PUT', token: admin, json: { translations: [{ locale: 'de', name: 'Sommerlieder-Album' }] } })).status).toBe(200);
    const input = orderInput(shop, { purchaserEmail: 'sommer@example.com', lines: [{ productId: shop.albumId, quantity: 1 }], locale: 'de' });
    const { body } = await app.graphql(`mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { id items { name } } }`, { input });
    expect(body.data.placeOrder.items).toEqual([{ name: 'Sommerlieder-Album' }]);
    await app.services.deliveries.runDue();
    expect(arrived('sommer@example.com').body).toContain('Sommerlieder-Album');
    const found = async (search: string) => (await app.graphql(`query($search: String) { orders(search: $search) { edges { node { id } } } }`, { search }, admin)).body.data.orders.edges.map((edge: { node: { id: string } }) => edge.node.id);
    expect(await found('sommerlieder')).toEqual([body.data.placeOrder.id]);
    expect(await found('summer songs')).toContain(body.data.placeOrder.id);
    // Bought in English, the same product keeps its own name.
    const english = await app.graphql(`mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { items { name } } }`, { input: orderInput(shop, { lines: [{ productId: shop.albumId, quantity: 1 }] }) });
    expect(english.body.data.placeOrder.items).toEqual([{ name: 'Summer Songs Album' }]);
  });

  it('placeOrder without a locale is English: the order, its e-mail and its page', async () => {
    const order = await buyCard('hello@example.com');
    expect(order.locale).toBe('en');
    await app.services.deliveries.runDue();
    const card = arrived('hello@example.com');
    expect(card.subject).toBe('Ada sent you a card: Balloon Birthday');
    expect(card.body).toContain('Dear Grace Hopper,');
    expect(arrived('buyer-hello@example.com').body).toContain('Total: $4.50');
    const page = await (await app.request(`/ecards/${order.items[0]!.itemUrlUuid}.html`)).text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<h1>Ada sent you a card, Grace Hopper</h1>');
  });

  it('an order is named as its shopper read it: a translated card bought in German is German in its e-mail, its receipt and its order lines, and found by either name', async () => {
    const admin = await app.login();
    const translations = [{ locale: 'de', name: 'Luftballon-Geburtstag', description: 'Luftballons und ein Lied.' }];
    expect((await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token: admin, json: { translations } })).status).toBe(200);
    try {
      const german = await buyCard('ballon@example.com', 'de');
      const english = await buyCard('balloon@example.com', 'en');
      await app.services.deliveries.runDue();
      expect(arrived('ballon@example.com').subject).toBe('Ada hat Ihnen eine Karte geschickt: Luftballon-Geburtstag');
      expect(arrived('buyer-ballon@example.com').body).toContain('Luftballon-Geburtstag');
      expect(arrived('balloon@example.com').subject).toBe('Ada sent you a card: Balloon Birthday');
      const names = await app.sql<{ id: string; name: string; item_names: string }>('select o.id, i.name, o.item_names from "order" o join order_item i on i.order_id = o.id where o.id in ($1, $2)', [german.id, english.id]);
      expect(names.find((row) => row.id === german.id)).toMatchObject({ name: 'Luftballon-Geburtstag', item_names: 'balloon birthday luftballon-geburtstag' });
      expect(names.find((row) => row.id === english.id)).toMatchObject({ name: 'Balloon Birthday', item_names: 'balloon birthday' });
    } finally {
      expect((await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token: admin, json: { translations: [] } })).status).toBe(200);
    }
  });

  it('refuses a language the shop does not speak, on the locale field', async () => {
    const { body } = await placeOrder(app, orderInput(shop, { locale: 'it' }));
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.extensions?.field).toBe('locale');
  });

  it("a group card bought in French has its signing page in French, with its date in French", async () => {
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-09T18:00:00Z', locale: 'fr' });
    const page = await (await app.request(`/sign/${card.token}`)).text();
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain('<h1>Signez la carte pour Grace Hopper</h1>');
    expect(page).toContain('<dt>Signatures jusqu’au</dt>');
    expect(page).toContain('mercredi 9 décembre 2026');
    expect(page).toContain('<button type="submit">Signer la carte</button>');
    const words = JSON.parse(/<script type="application\/json" id="page-words">(.*?)<\/script>/.exec(page)![1]!) as Record<string, string>;
    expect(words.confirmRemove).toBe('Retirer votre signature de la carte\u00a0?');
    expect(page).not.toContain('Sign the card');
  });

  it('an account e-mail speaks the language of the page it was asked from (the storefront sends it as Accept-Language)', async () => {
    await app.request('/api/register', { method: 'POST', json: { username: 'marie', email: 'marie@example.com', password: 'customer-pass-1' }, headers: { 'accept-language': 'fr' } });
    const ask = `mutation Reset($input: RequestPasswordResetInput!) { requestPasswordReset(input: $input) { message } }`;
    const res = await app.request('/graphql', { method: 'POST', json: { query: ask, variables: { input: { email: 'marie@example.com' } } }, headers: { 'accept-language': 'es' } });
    expect(res.status).toBe(200);
    await app.services.deliveries.runDue();
    const mails = sink.arrivals.filter((one) => one.to.includes('marie@example.com')).map((one) => decodeQuotedPrintable(one.message.replace(/\r\n/g, '\n')));
    // The address confirmation in the page's language at sign-up, the reset in the one it was asked from.
    expect(mails.find((mail) => mail.includes('Confirmez votre adresse e-mail'))).toBeDefined();
    const reset = mails.find((mail) => mail.includes('Restablezca su contraseña'));
    expect(reset).toContain('https://cards.example/es/reset-password?token=');
    expect(await app.sql('select locale from app_user where username = $1', ['marie'])).toEqual([{ locale: 'fr' }]);
  });
});
