import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../gateway/src/boot.js';
import { installProcessGuards } from '../../gateway/src/process-guards.js';
import { DB_STATEMENT_TIMEOUT_MS } from '../../server/src/db/orm.js';
import { isDatabaseUnavailable } from '../../server/src/core/db-errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { orderInput, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { staffMember } from '../helpers/staff-fixtures.js';

/** Contract section 8: bad requests never answer 500, every /api error is JSON {message, code}. */
let app: TestApp;
let admin: string;
let staff: string;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp({ metricsToken: 'metrics-token-1' });
  admin = await app.login();
  staff = (await staffMember(app, admin)).token;
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

/** A digest of everything the shop keeps, to see that bad requests change nothing. */
async function snapshot(): Promise<string> {
  const tables = ['app_user', 'auth_session', 'setting', 'media_folder', 'media_file', 'blog_post', 'product_type', 'category', 'product', 'e_greeting_card', '"order"', 'order_item', 'mail_job', 'sold_media', 'ecard_reply', 'discount_code', 'staff_invitation', 'audit_entry', 'order_note', 'api_key', 'webhook_endpoint'];
  const parts = await Promise.all(tables.map(async (t) => `${t}:${(await app.sql<{ d: string }>(`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from ${t} x`))[0]!.d}`));
  return parts.join(',');
}

const expectJsonError = async (res: Response, label: string) => {
  expect(res.status, label).toBeLessThan(500);
  expect(res.headers.get('content-type'), label).toMatch(/application\/json/);
  const body = await res.json();
  expect(body, label).toMatchObject({ message: expect.any(String), code: expect.stringMatching(/^[A-Z_]+$/) });
  return body;
};

describe('malformed requests', () => {
  it('answers 400 JSON to malformed percent-encoding in a path, on every kind of route', async () => {
    const paths = ['/api/products/%FF', '/api/products/%C0%AF', '/api/categories/%E0%A4%A', '/api/media/folders/%FF', '/api/blog/%C0%AF', '/api/uploads/%FF', '/api/uploads/uploads/%C0%AF', '/api/product_types/%ZZ', '/api/products/category/%FF'];
    for (const path of paths) {
      const res = await app.request(path, { token: admin });
      expect(res.status, path).toBe(400);
      expect(await expectJsonError(res, path)).toMatchObject({ code: 'BAD_USER_INPUT' });
    }
    for (const path of ['/ecards/%FF.html', '/blog/%C0%AF']) expect((await app.request(path)).status, path).toBe(400);
  });

  it('answers an unknown API route with 404 JSON, and a range outside a file with 416 JSON', async () => {
    expect(await expectJsonError(await app.request('/api/no/such/route', { method: 'POST' }), 'unknown')).toMatchObject({ code: 'NOT_FOUND' });
    const outside = await app.request(`/api/${shop.files.cover}`, { headers: { range: 'bytes=999999999-' } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toMatch(/^bytes \*\/\d+$/);
    expect(await expectJsonError(outside, '416')).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
  });
});

describe('random input (property-based)', () => {
  // Random bytes percent-encoded (mostly not UTF-8), known troublemakers, ids and plain words.
  const encodedBytes = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }).map((bytes) => bytes.map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''));
  const segment = fc.oneof(
    encodedBytes,
    fc.constantFrom('1', '0', '-1', '99999999999', 'all', 'upload-for-product', '..', '%2e%2e', '%FF', '%C0%AF', '%E0%A4%A', '%', '%zz', '%2F', 'x.png', 'uploads'),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
  );
  const templates = ['/api/products/:x', '/api/products/category/:x', '/api/categories/:x', '/api/categories/all', '/api/media/folders/:x', '/api/media/files/:x', '/api/media/files/all', '/api/blog/:x', '/api/product_types/:x', '/api/uploads/:x', '/api/uploads/uploads/:x', '/api/settings', '/api/login', '/api/register', '/api/me', '/api/admin/orders', '/api/:x', '/api/:x/:x',
    // Day two: staff, customers, the audit log, e-mail problems, (partial) refunds, metrics.
    '/api/admin/staff', '/api/admin/staff/:x', '/api/admin/staff/invitations/:x', '/api/staff/accept', '/api/admin/customers', '/api/admin/customers/:x', '/api/admin/audit', '/api/admin/emails', '/api/admin/emails/retry', '/api/admin/orders/:x/refund', '/api/admin/orders.csv', '/api/admin/sales', '/metrics',
    // Shoppers' essentials: the remembered session (revoke-all is left out: it would sign the fuzzer's own callers out) and the shop's search.
    '/api/session', '/api/products/search', '/api/ecards/preview', '/api/ecards/preview/send',
    // The console at scale: every product, bulk actions, orders' filters and notes.
    '/api/admin/products', '/api/admin/products/bulk', '/api/admin/products/bulk/:x/undo', '/api/admin/orders/:x/notes',
    // Sales over ranges: the export of a range.
    '/api/admin/sales.csv',
    // API consumers: keys and webhooks, their deliveries and redeliveries.
    '/api/admin/api-keys', '/api/admin/api-keys/:x', '/api/admin/webhooks', '/api/admin/webhooks/:x', '/api/admin/webhooks/:x/deliveries', '/api/admin/webhooks/deliveries/:x/redeliver',
    // Memberships and gift cards: plans, a shopper's membership and a gift's code, balances, the owner's gift cards, Stripe's events.
    '/api/membership', '/api/membership/redeem', '/api/membership/cancel', '/api/membership/resume', '/api/admin/membership-plans', '/api/admin/membership-plans/:x',
    '/api/gift-cards/:x', '/api/admin/gift-cards', '/api/admin/gift-cards/:x/void', '/api/admin/gift-cards/:x/adjust', '/api/payments/stripe/webhook'];
  const queryString = fc.oneof(fc.constant(''), fc.tuple(fc.constantFrom('search', 'page', 'sort', 'order', 'actor', 'entity', 'q', 'min_price', 'max_price', 'type_id', 'category_id', 'first', 'after', 'on_sale', 'status', 'from', 'to', 'failed_email', 'group', 'days', 'by', 'time_zone', 'code'), segment).map(([name, value]) => `?${name}=${value}`));
  const restPath = fc.tuple(fc.constantFrom(...templates), segment, segment, queryString).map(([template, a, b, query]) => template.replace(':x', a).replace(':x', b) + query);
  const jsonValue = fc.jsonValue({ maxDepth: 3 });
  const body = fc.oneof(jsonValue.map((v) => JSON.stringify(v)), fc.string({ maxLength: 200 }), fc.constant('{"product":'), fc.constant(''));
  const headerValue = fc.string({ maxLength: 40 }).filter((v) => /^[\x20-\x7e]*$/.test(v));
  const headers = fc.record(
    {
      'content-type': fc.constantFrom('application/json', 'application/json; charset=latin-9', 'text/plain', 'multipart/form-data', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16'),
      authorization: fc.oneof(headerValue, fc.constant(`Bearer ${'x'.repeat(20)}`), headerValue.map((v) => `Bearer ${v}`)),
      range: headerValue.map((v) => `bytes=${v}`),
      'x-forwarded-for': headerValue,
      'if-none-match': headerValue,
    },
    { requiredKeys: ['content-type'] },
  );

  it('REST: never a 5xx, always JSON {message, code} on errors, anonymous writes always refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), restPath, body, headers, fc.constantFrom('anonymous', 'admin', 'staff'), async (method, path, payload, head, caller) => {
        const token = caller === 'admin' ? admin : caller === 'staff' ? staff : null;
        const init: RequestInit = { method, headers: { ...head, ...(token ? { authorization: `Bearer ${token}` } : {}) } };
        if (method !== 'GET') init.body = payload;
        const res = await fetch(app.url + path, init);
        const label = `${caller}: ${method} ${path} ${JSON.stringify(head)} ${payload.slice(0, 80)}`;
        expect(res.status, label).toBeLessThan(500);
        // /metrics speaks Prometheus, not the API: its refusals are plain.
        if (res.status >= 400 && !path.startsWith('/metrics')) await expectJsonError(res, label);
        else await res.arrayBuffer();
        // Admin and staff writes with random bodies may legitimately succeed; anonymous ones never do.
        // The preview draws a page from what it is sent and writes nothing (a valid body answers 200).
        const open = ['/api/login', '/api/register', '/api/staff/accept'].some((p) => path.startsWith(p)) || /^\/api\/ecards\/preview(\?|$)/.test(path);
        if (caller === 'anonymous' && method !== 'GET' && !open) expect(res.status, label).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 300, seed: 1313 },
    );
  });

  it('REST and GraphQL: anonymous random input changes nothing in the database', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'PUT', 'DELETE'), restPath, body, async (method, path, payload) => {
        if (path === '/api/login' || path === '/api/register') return;
        const res = await fetch(app.url + path, { method, headers: { 'content-type': 'application/json' }, body: payload });
        expect(res.status).toBeLessThan(500);
        await res.arrayBuffer();
      }),
      { numRuns: 80, seed: 1314 },
    );
    expect(await snapshot()).toBe(before);
  });

  it('GraphQL: random variables for every kind of operation never answer 5xx, and change nothing when anonymous', async () => {
    const operations = [
      'mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }',
      'query($lines: [CartLineInput!]!) { cartQuote(lines: $lines) { total } }',
      'query($id: ID!) { order(id: $id) { id } }',
      'mutation($input: LoginInput!) { login(input: $input) { token } }',
      'query($id: Int!) { product(id: $id) { id name } }',
      'mutation($id: Int!) { deleteMediaFile(id: $id) }',
      'mutation($itemId: Int!) { resendCardEmail(itemId: $itemId) { id } }',
      'query($first: Int, $after: String, $search: String) { orders(first: $first, after: $after, search: $search) { totalCount } }',
      'query($first: Int, $after: String, $search: String) { customers(first: $first, after: $after, search: $search) { totalCount } }',
      'query($id: Int!) { customer(id: $id) { id } }',
      'query($first: Int, $after: String, $id: Int) { auditLog(first: $first, after: $after, actorId: $id) { totalCount } }',
      'mutation($input: InviteStaffInput!) { inviteStaff(input: $input) { acceptUrl } }',
      'mutation($input: AcceptStaffInvitationInput!) { acceptStaffInvitation(input: $input) { token } }',
      'mutation($id: Int!) { removeStaff(id: $id) }',
      'mutation($id: ID!, $itemIds: [Int!]) { refundOrder(id: $id, itemIds: $itemIds) { id } }',
      'mutation($ids: [Int!]) { retryEmails(ids: $ids) }',
      'query($sort: ProductSort, $minPrice: Decimal, $maxPrice: Decimal, $onSale: Boolean, $first: Int, $after: String) { searchProducts(sort: $sort, minPrice: $minPrice, maxPrice: $maxPrice, onSale: $onSale, first: $first, after: $after) { totalCount } }',
      'query($search: String, $status: OrderStatus, $from: String, $to: String, $failedEmail: Boolean, $group: Boolean) { orders(search: $search, status: $status, from: $from, to: $to, failedEmail: $failedEmail, group: $group) { totalCount } }',
      'mutation($orderId: ID!, $text: String!) { addOrderNote(orderId: $orderId, text: $text) { id } }',
      'query($search: String, $status: ProductStatus, $onSale: Boolean, $first: Int, $after: String) { adminProducts(query: $search, status: $status, onSale: $onSale, first: $first, after: $after) { totalCount } }',
      'mutation($ids: [Int!]!, $action: BulkProductActionInput!) { bulkUpdateProducts(ids: $ids, action: $action) { updated undoId } }',
      'mutation($undoId: String!) { undoBulkUpdateProducts(undoId: $undoId) { restored skipped } }',
    ];
    const variable = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(orderInput(shop)).map((input) => ({ ...input, purchaserEmail: 'a\nb@example.com' })));
    const variables = fc.dictionary(fc.constantFrom('input', 'lines', 'id', 'itemId', 'itemIds', 'ids', 'first', 'after', 'search', 'sort', 'minPrice', 'maxPrice', 'onSale', 'status', 'from', 'to', 'failedEmail', 'group', 'orderId', 'text', 'action', 'undoId'), variable, { maxKeys: 3 });
    const before = await snapshot();
    const asks = (token: string | null) => async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
      const label = `${query} ${JSON.stringify(variables).slice(0, 200)}`;
      expect(res.status, label).toBeLessThan(500);
      const answer = await res.json();
      for (const error of answer.errors ?? []) {
        expect(error.message, label).toEqual(expect.any(String));
        expect(error.extensions?.code, label).toMatch(/^[A-Z_]+$/);
        expect(error.extensions?.code, label).not.toBe('INTERNAL_SERVER_ERROR');
      }
    };
    await fc.assert(fc.asyncProperty(fc.constantFrom(...operations), variables, asks(null)), { numRuns: 120, seed: 1315 });
    expect(await snapshot()).toBe(before);
    // A member of staff asking the same: refused or answered, never a 5xx.
    await fc.assert(fc.asyncProperty(fc.constantFrom(...operations), variables, asks(staff)), { numRuns: 80, seed: 1316 });
  });
});

describe('the process and its connections', () => {
  it('bounds how long a client may take to send headers and a request', () => {
    expect(app.server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBeLessThan(REQUEST_TIMEOUT_MS);
  });

  it('keeps an idle connection open longer than a proxy or client keeps it, so that they close it first', () => {
    expect(app.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
  });

  it('gives every database connection a statement timeout, and a connect timeout to the pool', async () => {
    const [row] = await app.orm.em.fork().execute<{ statement_timeout: string }[]>('show statement_timeout');
    expect(row!.statement_timeout).toBe(`${DB_STATEMENT_TIMEOUT_MS / 1000}s`);
    const pool = (await app.orm.em.getConnection().getNativeClient()) as unknown as { options: { connectionTimeoutMillis: number } };
    expect(pool.options.connectionTimeoutMillis).toBeGreaterThan(0);
    // A statement past the limit is cancelled (57014) and reads as "unavailable", never as a 500.
    const error = await app.orm.em.fork().execute(`set local statement_timeout = 50; select pg_sleep(1)`).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('logs an unhandled rejection and keeps serving; stops in order with exit code 1 on an uncaught exception', () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, new Writable({ write(chunk, _e, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
    const proc = new EventEmitter();
    const exits: number[] = [];
    installProcessGuards(proc as never, log, (code) => exits.push(code));
    proc.emit('unhandledRejection', new Error('lost promise'));
    expect(exits).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ level: 50, msg: 'unhandled promise rejection', err: { message: 'lost promise' } });
    proc.emit('uncaughtException', new Error('broken state'));
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toMatchObject({ level: 60, err: { message: 'broken state' } });
  });
});
