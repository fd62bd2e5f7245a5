import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderInput, personalisation, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 24, item 5: every free-text field is bounded before it reaches a query. Text of any length
 * (up to 20,000 characters) and any content (NUL, lone surrogates, control characters, emoji) in every
 * field a client can type into answers a 2xx or a 4xx with a clear error, never a 5xx.
 */
let app: TestApp;
let admin: string;
let customer: string;
let shop: Shop;
let cardUuid: string;
let itemId: number;

beforeAll(async () => {
  app = await startTestApp({ loginLimits: { perUsername: 1_000_000, perAddress: 1_000_000, windowSeconds: 900 }, limits: { registerPerHour: 1_000_000, checkoutPer10Minutes: 1_000_000, thankYouPerHour: 1_000_000, discountCodesPerHour: 1_000_000 } });
  admin = await app.login();
  customer = await app.customer('freetext');
  shop = await seedShop(app, admin);
  const { body } = await app.graphql(`mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { items { id itemUrlUuid } } }`, { input: orderInput(shop, { purchaserEmail: 'freetext@example.com' }) }, customer);
  const card = body.data.placeOrder.items.find((item: { itemUrlUuid: string | null }) => item.itemUrlUuid);
  cardUuid = card.itemUrlUuid;
  itemId = card.id;
  await app.services.deliveries.runDue();
});
afterAll(async () => {
  await app?.stop();
});

/** Text a client could send: short and strange, or very long. */
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff x', '%', '_', '\\', "'; drop table x; --", '🎉'.repeat(300), ' '.repeat(5000)) },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 256, max: 20_000 }), fc.constantFrom('x', 'é', '🎉', 'a b ', '\u0000', '%_')).map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)) },
);

type Call = (value: string) => Promise<Response>;
const gql = (query: string, variables: (value: string) => Record<string, unknown>, token?: string): Call => (value) =>
  app.request('/graphql', { method: 'POST', json: { query, variables: variables(value) }, token });
const rest = (method: string, path: (value: string) => string, json?: (value: string) => unknown, token?: string): Call => (value) =>
  app.request(path(value), { method, ...(json ? { json: json(value) } : {}), token });
/** A query-string or path value (an address cannot carry a lone surrogate; a header line stays under Node's 16 kB). */
const q = (value: string) => encodeURIComponent(value.slice(0, 6000).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** Every entry point that takes typed text, by name. */
const calls = (): Record<string, Call> => ({
  'REST login': rest('POST', () => '/api/login', (v) => ({ username: v, password: v })),
  'REST register': rest('POST', () => '/api/register', (v) => ({ username: v, email: `${v}@example.com`, password: v })),
  'REST change password': rest('POST', () => '/api/change-password', (v) => ({ newPassword: v }), customer),
  'REST blog post by slug': rest('GET', (v) => `/api/blog/${q(v)}`),
  'REST blog list': rest('GET', (v) => `/api/blog?status=${q(v)}&after=${q(v)}&limit=${q(v)}`, undefined, admin),
  'REST admin orders search': rest('GET', (v) => `/api/admin/orders?search=${q(v)}`, undefined, admin),
  'REST admin orders CSV': rest('GET', (v) => `/api/admin/orders.csv?search=${q(v)}`, undefined, admin),
  'REST thank-you': rest('POST', () => `/api/ecards/${cardUuid}/replies`, (v) => ({ name: v, message: v })),
  'REST e-card beacon': rest('POST', (v) => `/api/ecards/${q(v)}/opened`),
  'REST category': rest('POST', () => '/api/categories', (v) => ({ name: v, parent_id: null }), admin),
  'REST folder': rest('POST', () => '/api/media/folders', (v) => ({ name: v, parent_id: null }), admin),
  'REST product type': rest('POST', () => '/api/product_types', (v) => ({ name: v }), admin),
  'REST discount': rest('POST', () => '/api/admin/discounts', (v) => ({ code: v, percent_off: 5 }), admin),
  'REST product create': rest('POST', () => '/api/products', (v) => ({ product: { name: v, description: v, sku: v, price: 1, category_id: 1, product_type_id: 2 }, tags: [v, v.slice(0, 10)], e_greeting_card_data: null }), admin),
  'REST staff invitation': rest('POST', () => '/api/admin/staff', (v) => ({ email: v, role: v }), admin),
  'REST staff acceptance': rest('POST', () => '/api/staff/accept', (v) => ({ token: v, username: v, password: v })),
  'REST customers search': rest('GET', (v) => `/api/admin/customers?search=${q(v)}&sort=${q(v)}&order=${q(v)}&page=${q(v)}`, undefined, admin),
  'REST audit log': rest('GET', (v) => `/api/admin/audit?actor=${q(v)}&entity=${q(v)}&page=${q(v)}`, undefined, admin),
  'REST password reset': rest('POST', () => '/api/password-reset', (v) => ({ email: v })),
  'REST password reset confirm': rest('POST', () => '/api/password-reset/confirm', (v) => ({ token: v, password: v })),
  'REST verify e-mail': rest('POST', () => '/api/verify-email', (v) => ({ token: v })),
  'REST change e-mail': rest('POST', () => '/api/account/email', (v) => ({ new_email: v, password: v }), customer),
  'REST delete account': rest('DELETE', () => '/api/account', (v) => ({ password: v }), customer),
  'REST unsubscribe link': rest('GET', (v) => `/api/unsubscribe?token=${q(v)}`),
  'REST unsubscribe': rest('POST', () => '/api/unsubscribe', (v) => ({ token: v })),
  'one-click unsubscribe': rest('POST', (v) => `/unsubscribe?token=${q(v)}`),
  'GraphQL reset password': gql('mutation($t: String!, $p: String!) { resetPassword(input: { token: $t, password: $p }) { message } }', (v) => ({ t: v, p: v })),
  'GraphQL verify e-mail': gql('mutation($t: String!) { verifyEmail(token: $t) { email } }', (v) => ({ t: v })),
  'GraphQL unsubscribe': gql('mutation($t: String!) { unsubscribe(token: $t) { unsubscribed } }', (v) => ({ t: v })),
  'GraphQL change e-mail': gql('mutation($e: String!, $p: String!) { changeEmail(input: { newEmail: $e, password: $p }) { message } }', (v) => ({ e: v, p: v }), customer),
  'GraphQL customers search': gql('query($s: String, $after: String) { customers(search: $s, after: $after, first: 5) { totalCount } }', (v) => ({ s: v, after: v }), admin),
  'GraphQL audit log': gql('query($e: String, $after: String) { auditLog(entity: $e, after: $after, first: 5) { totalCount } }', (v) => ({ e: v, after: v }), admin),
  'storefront shop page': rest('GET', (v) => `/shop?q=${q(v)}&category=${q(v)}`),
  'blog post page': rest('GET', (v) => `/blog/${q(v)}`),
  'e-card page': rest('GET', (v) => `/ecards/${q(v)}.html`),
  'stored file': rest('GET', (v) => `/api/uploads/${q(v)}`),
  'REST product': rest('GET', (v) => `/api/products/${q(v)}`),
  'GraphQL product search': gql('query($q: String, $after: String) { searchProducts(query: $q, after: $after, first: 5) { totalCount } }', (v) => ({ q: v, after: v })),
  'GraphQL category products': gql('query($after: String) { products(categoryId: 1, after: $after) { totalCount } }', (v) => ({ after: v })),
  'GraphQL orders search': gql('query($s: String, $after: String) { orders(search: $s, after: $after, first: 5) { totalCount } }', (v) => ({ s: v, after: v }), admin),
  'GraphQL my orders': gql('query($after: String) { myOrders(after: $after) { totalCount } }', (v) => ({ after: v }), customer),
  'GraphQL blog posts': gql('query($after: String) { blogPosts(after: $after) { totalCount } }', (v) => ({ after: v })),
  'GraphQL blog post': gql('query($s: String!) { blogPost(idOrSlug: $s) { id } }', (v) => ({ s: v })),
  'GraphQL blog preview': gql('query($b: String!) { blogPreview(body: $b) }', (v) => ({ b: v }), admin),
  'GraphQL blog post create': gql('mutation($input: BlogPostInput!) { createBlogPost(input: $input) { id } }', (v) => ({ input: { title: v, slug: v, excerpt: v, metaDescription: v, body: v } }), admin),
  'GraphQL media files': gql('query($after: String) { allMediaFiles(after: $after) { totalCount } }', (v) => ({ after: v }), admin),
  'GraphQL order': gql('query($id: ID!) { order(id: $id) { id } }', (v) => ({ id: v })),
  'GraphQL sales': gql('query($tz: String, $f: String, $t: String) { salesSummary(timeZone: $tz, from: $f, to: $t) { revenue } }', (v) => ({ tz: v, f: v, t: v }), admin),
  'REST admin sales CSV': rest('GET', (v) => `/api/admin/sales.csv?from=${q(v)}&to=${q(v)}&days=${q(v)}&by=${q(v)}&time_zone=${q(v)}`, undefined, admin),
  // The shop's settings: the name alone (a good one is saved), then every text at once (the first bad one answers).
  'REST shop name': rest('PUT', () => '/api/settings', (v) => ({ shopName: v }), admin),
  'REST shop settings': rest('PUT', () => '/api/settings', (v) => ({ supportEmail: v, senderName: v, timeZone: v, defaultDeliveryHour: v, logoId: v, announcement: { enabled: v, text: v, link: v } }), admin),
  'GraphQL shop settings': gql(
    'mutation($v: String!) { updateSettings(input: { shopName: $v, supportEmail: $v, senderName: $v, timeZone: $v, announcement: { text: $v, link: $v } }) { shopName } }',
    (v) => ({ v }),
    admin,
  ),
  'GraphQL cart quote': gql('query($lines: [CartLineInput!]!, $code: String) { cartQuote(lines: $lines, discountCode: $code) { total } }', (v) => ({ lines: [{ productId: shop.albumId, quantity: 1 }], code: v })),
  'GraphQL change card date': gql('mutation($id: Int!, $d: String!) { changeCardDate(itemId: $id, deliveryDate: $d) { id } }', (v) => ({ id: itemId, d: v }), customer),
  'GraphQL rename folder': gql('mutation($n: String!) { createMediaFolder(name: $n) { id } }', (v) => ({ n: v }), admin),
  'GraphQL place order': gql(
    'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
    (v) => ({
      input: {
        ...orderInput(shop, { purchaserEmail: v, discountCode: v.slice(0, 100) || null }),
        idempotencyKey: v,
        lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientName: v, recipientEmail: v, senderName: v, message: v, deliveryDate: v, timeZone: v }) }],
        payment: { cardNumber: v, expiry: v, cvc: v, cardholderName: v },
      },
    }),
  ),
});

describe('free text of any length and content', () => {
  it('refuses a NUL character (which PostgreSQL text cannot hold) with 400 before any query, in addresses, bodies, variables and literals', async () => {
    const message = 'Text must not contain NUL characters (\\u0000).';
    for (const [res, field] of [
      [await app.request('/api/login', { method: 'POST', json: { username: 'ada\u0000', password: 'x' } }), 'username'],
      [await app.request(`/api/admin/orders?search=${encodeURIComponent('a\u0000b')}`, { token: admin }), 'search'],
      [await app.request(`/api/blog/${encodeURIComponent('spring\u0000')}`), undefined],
      [await app.request(`/ecards/${encodeURIComponent('\u0000')}.html`), undefined],
    ] as const) {
      expect(res.status, res.url).toBe(400);
      expect(await res.json(), res.url).toEqual({ code: 'BAD_USER_INPUT', message, ...(field ? { field } : {}) });
    }
    // The stored files answer only the names they store: anything else is not found.
    expect((await app.request(`/api/uploads/${encodeURIComponent('x\u0000.png')}`)).status).toBe(404);
    for (const [query, variables, field] of [
      ['query($s: String!) { blogPost(idOrSlug: $s) { id } }', { s: 'a\u0000' }, 's'],
      ['query { blogPost(idOrSlug: "a\\u0000") { id } }', {}, undefined],
      ['mutation($input: LoginInput!) { login(input: $input) { token } }', { input: { username: '\u0000', password: 'x' } }, 'username'],
    ] as const) {
      const { status, body } = await app.graphql(query, variables);
      expect(status, query).toBe(400);
      expect(body.errors![0]!.message, query).toBe(message);
      expect(body.errors![0]!.extensions, query).toEqual({ code: 'BAD_USER_INPUT', ...(field ? { field } : {}) });
    }
  });

  it('never reaches a query unbounded: every text field answers 2xx or 4xx, never a 5xx', async () => {
    const entries = Object.entries(calls());
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...entries), text, async ([name, call], value) => {
        const res = await call(value);
        const body = await res.text();
        const label = `${name} with ${value.length} characters ${JSON.stringify(value.slice(0, 40))}: ${res.status} ${body.slice(0, 300)}`;
        expect(res.status, label).toBeLessThan(500);
        expect(body, label).not.toContain('INTERNAL_SERVER_ERROR');
      }),
      { numRuns: 400, seed: 2424 },
    );
  });
});
