import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '../helpers/account-mail.js';
import { placeGroupCard } from '../helpers/group-card-fixtures.js';
import { manualClock, orderInput, PAY_DECLINED, personalisation, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Contract section 20: what the shop answers a shopper, a recipient or a signer who meets an error
 * is in the language of the page they are on (the storefront sends it as Accept-Language), by
 * GraphQL and by REST alike; `extensions.code` (and REST's `code`) stay as they are, and a request
 * naming no language, or English, reads exactly the English it always did.
 */
let app: TestApp;
let shop: Shop;
const clock = manualClock('2026-12-01T10:00:00Z');

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' }, { clock: clock.now });
  shop = await seedShop(app, await app.login());
});
afterAll(async () => {
  await app?.stop();
});

/** A GraphQL operation asked from a page in `language` (no Accept-Language when undefined): its first error. */
async function firstError(query: string, variables: Record<string, unknown>, language?: string, token?: string) {
  const res = await app.request('/graphql', { method: 'POST', json: { query, variables }, token, headers: language ? { 'Accept-Language': language } : {} });
  const body = (await res.json()) as { errors?: { message: string; extensions?: { code?: string; field?: string } }[] };
  if (!body.errors?.length) throw new Error(`no error: ${JSON.stringify(body)}`);
  return body.errors[0]!;
}

const QUOTE = `query($lines: [CartLineInput!]!, $code: String) { cartQuote(lines: $lines, discountCode: $code) { total } }`;
const PLACE = `mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }`;
const SIGN = `mutation Sign($token: String!, $input: SignatureInput!) { signGroupCard(token: $token, input: $input) { id } }`;
const albumLines = () => [{ productId: shop.albumId, quantity: 1 }];

describe('the errors a shopper meets, in the language of their page', () => {
  it('an unknown discount code: German, French and Spanish by Accept-Language, English without it', async () => {
    const unusable = 'This discount code cannot be used: it is unknown, not valid yet, expired or used up.';
    const said = async (language?: string) => firstError(QUOTE, { lines: albumLines(), code: 'NOSUCHCODE' }, language);
    expect(await said()).toMatchObject({ message: unusable, extensions: { code: 'BAD_USER_INPUT', field: 'discountCode' } });
    expect(await said('en-GB,en;q=0.9')).toMatchObject({ message: unusable });
    expect(await said('de-DE,de;q=0.9,en;q=0.8')).toMatchObject({
      message: 'Dieser Rabattcode kann nicht verwendet werden: Er ist unbekannt, noch nicht gültig, abgelaufen oder aufgebraucht.',
      extensions: { code: 'BAD_USER_INPUT', field: 'discountCode' },
    });
    expect((await said('fr')).message).toBe('Ce code promo ne peut pas être utilisé : il est inconnu, pas encore valable, expiré ou épuisé.');
    expect((await said('es')).message).toBe('Este código de descuento no se puede usar: es desconocido, aún no es válido, ha caducado o se ha agotado.');
    // A language the shop does not speak reads English.
    expect((await said('ja')).message).toBe(unusable);

    // A signed-in shopper hears why.
    const shopper = await app.customer('errors_ada');
    expect((await firstError(QUOTE, { lines: albumLines(), code: 'NOSUCHCODE' }, 'de', shopper)).message).toBe('Diesen Rabattcode gibt es nicht.');
    expect((await firstError(QUOTE, { lines: albumLines(), code: 'NOSUCHCODE' }, undefined, shopper)).message).toBe('There is no such discount code.');
  });

  it('a checkout: a declined card and a product that left the shop', async () => {
    const declined = orderInput(shop, { payment: PAY_DECLINED });
    expect(await firstError(PLACE, { input: declined })).toMatchObject({ message: 'Your card was declined. Try another card.', extensions: { code: 'PAYMENT_DECLINED' } });
    expect(await firstError(PLACE, { input: orderInput(shop, { payment: PAY_DECLINED }) }, 'de')).toMatchObject({
      message: 'Ihre Karte wurde abgelehnt. Versuchen Sie es mit einer anderen Karte.',
      extensions: { code: 'PAYMENT_DECLINED' },
    });
    const gone = { lines: [{ productId: 999999, quantity: 1 }] };
    expect(await firstError(PLACE, { input: orderInput(shop, gone) })).toMatchObject({ message: 'Some products in your cart are no longer available; review your cart.', extensions: { code: 'PRODUCT_UNAVAILABLE' } });
    expect(await firstError(PLACE, { input: orderInput(shop, gone) }, 'fr')).toMatchObject({
      message: 'Certains produits de votre panier ne sont plus disponibles ; vérifiez votre panier.',
      extensions: { code: 'PRODUCT_UNAVAILABLE', field: 'lines' },
    });
  });

  it('an empty cart at checkout', async () => {
    const empty = { lines: [] };
    expect(await firstError(PLACE, { input: orderInput(shop, empty) })).toMatchObject({ message: 'Your cart is empty.', extensions: { code: 'BAD_USER_INPUT', field: 'lines' } });
    expect(await firstError(PLACE, { input: orderInput(shop, empty) }, 'de')).toMatchObject({ message: 'Ihr Warenkorb ist leer.', extensions: { code: 'BAD_USER_INPUT', field: 'lines' } });
    expect((await firstError(PLACE, { input: orderInput(shop, empty) }, 'fr')).message).toBe('Votre panier est vide.');
  });

  it('a signing that has closed, by GraphQL and by REST', async () => {
    clock.set('2026-12-02T10:00:00Z');
    const card = await placeGroupCard(app, shop, { deliveryDate: '2026-12-10', collectUntil: '2026-12-05T12:00:00Z', locale: 'de' });
    clock.set('2026-12-05T12:00:00Z');
    const input = { name: 'Late Larry', message: 'Sorry I am late' };
    expect(await firstError(SIGN, { token: card.token, input })).toMatchObject({ message: 'Signing has closed.', extensions: { code: 'CONFLICT' } });
    expect(await firstError(SIGN, { token: card.token, input }, 'de')).toMatchObject({ message: 'Die Frist zum Unterschreiben ist abgelaufen.', extensions: { code: 'CONFLICT' } });
    expect((await firstError(SIGN, { token: card.token, input }, 'es')).message).toBe('Las firmas se han cerrado.');

    const rest = (headers: Record<string, string>) => app.request(`/api/sign/${card.token}/signatures`, { method: 'POST', json: input, headers });
    const plain = await rest({});
    expect(plain.status).toBe(409);
    expect(await plain.json()).toEqual({ code: 'CONFLICT', message: 'Signing has closed.' });
    const french = await rest({ 'Accept-Language': 'fr' });
    expect(french.status).toBe(409);
    expect(await french.json()).toEqual({ code: 'CONFLICT', message: 'Les signatures sont closes.' });
    clock.set('2026-12-01T10:00:00Z');
  });

  it('a gift card code nobody has, by REST in German', async () => {
    const english = await app.request('/api/gift-cards/AAAABBBBCCCCDDDD');
    const german = await app.request('/api/gift-cards/AAAABBBBCCCCDDDD', { headers: { 'Accept-Language': 'de' } });
    expect([english.status, german.status]).toEqual([404, 404]);
    expect((await english.json()).message).toBe('No gift card has this code. Check it against the e-mail or the card (letters and digits, dashes optional).');
    expect((await german.json()).message).toBe('Kein Gutschein hat diesen Code. Vergleichen Sie ihn mit der E-Mail oder dem Gutschein (Buchstaben und Ziffern, Bindestriche optional).');
  });
});

describe('"Send a test to myself" from a German page', () => {
  it('mails the test in German, and its link opens the preview in German', async () => {
    const shopper = await app.customer('errors_test_de');
    const res = await app.request('/api/ecards/preview/send', {
      method: 'POST',
      token: shopper,
      headers: { 'Accept-Language': 'de' },
      json: { product_id: shop.cardId, personalisation: personalisation({ recipientName: 'Grace Hopper', message: 'Alles Gute, {name}!' }) },
    });
    expect(res.status).toBe(202);
    const mail = await waitForMail(app, 'errors_test_de@example.com', 'Test: Ada hat Ihnen eine Karte geschickt: Balloon Birthday');
    expect(mail).toContain('Hallo Grace Hopper,');
    expect(mail).toContain('Dies ist ein Test, den Sie sich selbst von Art & Song Cards geschickt haben');
    expect(mail).not.toContain('Dear Grace Hopper');
    const link = /https:\/\/cards\.example(\/ecards\/preview\?card=[A-Za-z0-9_.-]+)/.exec(mail)![1]!;
    const page = await (await app.request(link)).text();
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('Alles Gute, Grace Hopper!');

    // The preview itself, drawn for the German page.
    const drawn = await app.request('/api/ecards/preview', { method: 'POST', headers: { 'Accept-Language': 'de' }, json: { product_id: shop.cardId, personalisation: personalisation() } });
    expect(await drawn.text()).toContain('<html lang="de">');
    // Its refusals too, and English as ever without the header.
    const album = (headers: Record<string, string>) => app.request('/api/ecards/preview', { method: 'POST', headers, json: { product_id: shop.albumId, personalisation: personalisation() } });
    expect((await (await album({})).json()).message).toBe('"Summer Songs Album" is not a card: there is nothing to preview.');
    expect((await (await album({ 'Accept-Language': 'de' })).json()).message).toBe('„Summer Songs Album“ ist keine Karte: Es gibt keine Vorschau.');
  });
});

describe('the 404 page', () => {
  it('is titled in the page’s language', async () => {
    const english = await app.request('/product/987654', { headers: { Accept: 'text/html' } });
    expect(english.status).toBe(404);
    expect(await english.text()).toContain('<title>Not found · Art &amp; Song Cards</title>');
    const german = await app.request('/de/product/987654', { headers: { Accept: 'text/html' } });
    expect(german.status).toBe(404);
    expect(await german.text()).toContain('<title>Nicht gefunden · Art &amp; Song Cards</title>');
    const french = await (await app.request('/fr/product/987654', { headers: { Accept: 'text/html' } })).text();
    expect(french).toContain('<title>Introuvable · Art &amp; Song Cards</title>');
  });
});
