import pino from 'pino';
import { GraphQLObjectType, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isAbstractType, type GraphQLArgument, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../gateway/src/routes/index.js';
import { loadConfig } from '../../server/src/config.js';
import { buildSchema, declaredAccess } from '../../server/src/schema/build-schema.js';
import { createServices } from '../../server/src/services.js';
import { fromAddress, placeGroupCard, sign, type PlacedGroupCard } from '../helpers/group-card-fixtures.js';
import { seedShop } from '../helpers/order-fixtures.js';
import { staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The authorisation matrix: every admin and staff entry point, REST and GraphQL, called by a member
 * of staff and by a customer. Staff may use Orders (search, details, resend, refund), Customers and
 * Sales: each of those gives staff exactly the answer an admin would get on this database (one
 * customer, no orders; the ids the calls name do not exist); everything else admins may do answers
 * 403 to staff. A customer gets 403 from all of them. Last, a customer's group card: staff may change
 * nothing of it (its purchaser and admins may).
 */

const SHOPPER = 'matrixshopper';
const notFound = (message: string) => ({ status: 404, body: { message, code: 'NOT_FOUND' } });

/** What a member of staff gets from each route staff may use: the status, the content type and the body. */
const STAFF_REST: Record<string, { status: number; type?: RegExp; body?: unknown; text?: string | RegExp }> = {
  'get /admin/orders': { status: 200, type: /^application\/json/, body: [] },
  // The export of no orders is its header line alone.
  'get /admin/orders.csv': { status: 200, type: /^text\/csv/, text: 'order_id,order_number,created_at,customer,status,total,discount_code,items,refund_reason\r\n' },
  'post /admin/orders/:id/refund': notFound('Order not found'),
  // The sales of the last 30 days (of no orders): a line of zeros a day.
  'get /admin/sales.csv': { status: 200, type: /^text\/csv/, text: /^period_start,period_end,gross,refunds,net,orders,average_order,cards_sent,cards_opened\r\n(\d{4}-\d\d-\d\d,\d{4}-\d\d-\d\d,0\.00,0\.00,0\.00,0,0\.00,0,0\r\n){30}$/ },
  // The note is checked before the order is looked for: the empty body is refused as it is for an admin.
  'post /admin/orders/:id/notes': { status: 400, body: { message: 'Write the note.', code: 'BAD_USER_INPUT', field: 'text' } },
  'get /admin/customers': {
    status: 200,
    type: /^application\/json/,
    body: {
      customers: [
        { id: expect.any(Number), username: SHOPPER, email: `${SHOPPER}@example.com`, created_at: expect.any(String), confirmed: false, email_confirmed_at: null, orders: 0, total_spent: 0, last_order_at: null },
      ],
      total: 1,
      next_page: null,
      next_after: null,
    },
  },
  'get /admin/customers/:id': notFound('Customer not found'),
};

const notFoundError = (field: string, message: string) => ({ errors: [expect.objectContaining({ message, path: [field], extensions: { code: 'NOT_FOUND' } })], data: null });

/** What a member of staff gets from each field staff may use: a document reading its answer, and that answer. */
const STAFF_GRAPHQL: Record<string, { document?: string; body: unknown }> = {
  orders: {
    document: 'query { orders { totalCount edges { node { id } } pageInfo { hasNextPage } } }',
    body: { data: { orders: { totalCount: 0, edges: [], pageInfo: { hasNextPage: false } } } },
  },
  customers: {
    document: 'query { customers { totalCount edges { node { username email ordersCount } } } }',
    body: { data: { customers: { totalCount: 1, edges: [{ node: { username: SHOPPER, email: `${SHOPPER}@example.com`, ordersCount: 0 } }] } } },
  },
  customer: { body: notFoundError('customer', 'Customer not found') },
  salesSummary: {
    document: 'query { salesSummary { orders revenue cardsSent cardsOpened timeZone days { orders } } }',
    body: { data: { salesSummary: { orders: 0, revenue: '0.00', cardsSent: 0, cardsOpened: 0, timeZone: 'UTC', days: Array.from({ length: 30 }, () => ({ orders: 0 })) } } },
  },
  membershipFigures: {
    document: 'query { membershipFigures(from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z") { activeMembers newMembers endedMembers monthlyRecurringRevenue } }',
    body: { data: { membershipFigures: { activeMembers: 0, newMembers: 0, endedMembers: 0, monthlyRecurringRevenue: '0.00' } } },
  },
  refundOrder: { body: notFoundError('refundOrder', 'Order not found') },
  addOrderNote: { body: notFoundError('addOrderNote', 'Order not found') },
  resendCardEmail: { body: notFoundError('resendCardEmail', 'Order item not found') },
  resendReceipt: { body: notFoundError('resendReceipt', 'Order not found') },
  retryEmail: { body: notFoundError('retryEmail', 'E-mail not found') },
};

const routes = restRoutes(createServices(loadConfig({}), 'secret', { log: pino({ level: 'silent' }) })).filter((r) => r.access === 'admin' || r.access === 'staff');
const schema = buildSchema(null);

let app: TestApp;
let admin: string;
let staff: string;
let customer: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  staff = (await staffMember(app, admin)).token;
  customer = await app.customer(SHOPPER);
});
afterAll(async () => {
  await app?.stop();
});

const UUID = '00000000-0000-4000-8000-000000000000';
const concretePath = (path: string) => path.replace(/:id\b/g, path.startsWith('/admin/orders/') ? UUID : '999999').replace(/:(\w+)/g, '999999').replace(/\*\w+/g, 'x');

describe('the staff role over REST', () => {
  it('knows every admin and staff route, and which ones staff may use', () => {
    expect(routes.length).toBeGreaterThan(25);
    expect(routes.filter((r) => r.access === 'staff').map((r) => `${r.method} ${r.path}`).sort()).toEqual(Object.keys(STAFF_REST).sort());
  });

  it.each(routes.map((r) => [`${r.method.toUpperCase()} /api${r.path}`, r] as const))('%s', async (_name, route) => {
    const url = `/api${concretePath(route.path)}`;
    const call = (token: string) => app.request(url, { method: route.method.toUpperCase(), token, json: route.method === 'get' || route.method === 'delete' ? undefined : {} });
    const asStaff = await call(staff);
    if (route.access === 'admin') expect(asStaff.status).toBe(403);
    else {
      const expected = STAFF_REST[`${route.method} ${route.path}`]!;
      const text = await asStaff.text();
      // The body alongside the status, so that an unexpected status shows what the route said.
      expect({ status: asStaff.status, body: text }).toMatchObject({ status: expected.status });
      if (expected.type) expect(asStaff.headers.get('content-type')).toMatch(expected.type);
      if (expected.text instanceof RegExp) expect(text).toMatch(expected.text);
      else if (expected.text !== undefined) expect(text).toBe(expected.text);
      else expect(JSON.parse(text)).toEqual(expected.body);
    }
    expect((await call(customer)).status).toBe(403);
  });
});

/** A literal of the argument's type (one item for a list), or null when it cannot be written (an upload). */
function literal(type: GraphQLInputType): string | null {
  if (isNonNullType(type)) return literal(type.ofType);
  if (isListType(type)) {
    const item = literal(type.ofType);
    return item === null ? null : `[${item}]`;
  }
  if (isEnumType(type)) return type.getValues()[0]!.name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    const parts = fields.map((f) => [f.name, literal(f.type)] as const);
    return parts.some(([, v]) => v === null) ? null : `{ ${parts.map(([k, v]) => `${k}: ${v}`).join(', ')} }`;
  }
  switch (type.name) {
    case 'Int':
    case 'Float':
      return '999999';
    case 'Boolean':
      return 'false';
    case 'ID':
      return `"${UUID}"`;
    case 'Upload':
      return null;
    case 'DateTimeISO':
      return '"2030-01-01T00:00:00.000Z"';
    default:
      return '"x"';
  }
}

function operation(schema: GraphQLSchema, kind: 'query' | 'mutation', name: string): string | null {
  const field = (kind === 'query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name]!;
  const args = field.args.filter((a: GraphQLArgument) => isNonNullType(a.type)).map((a) => [a.name, literal(a.type)] as const);
  if (args.some(([, v]) => v === null)) return null;
  const named = getNamedType(field.type);
  const selection = isObjectType(named) || isAbstractType(named) ? ' { __typename }' : '';
  return `${kind} { ${name}${args.length ? `(${args.map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}${selection} }`;
}

const fields = (['query', 'mutation'] as const).flatMap((kind) => {
  const type = (kind === 'query' ? schema.getQueryType() : schema.getMutationType()) as GraphQLObjectType;
  return Object.keys(type.getFields())
    .filter((name) => ['admin', 'staff'].includes(declaredAccess(type, name) ?? ''))
    .map((name) => ({ kind, name, access: declaredAccess(type, name)!, document: operation(schema, kind, name) }));
});

describe('the staff role over GraphQL', () => {
  it('knows every admin and staff field, and which ones staff may use', () => {
    expect(fields.length).toBeGreaterThan(30);
    expect(fields.filter((f) => f.access === 'staff').map((f) => f.name).sort()).toEqual(Object.keys(STAFF_GRAPHQL).sort());
  });

  it.each(fields.filter((f) => f.document).map((f) => [`${f.kind} ${f.name}`, f] as const))('%s', async (_name, field) => {
    const expected = field.access === 'staff' ? STAFF_GRAPHQL[field.name]! : undefined;
    const document = expected?.document ?? field.document!;
    const asStaff = await app.graphql(document, {}, staff);
    if (expected) {
      expect(asStaff.status).toBe(200);
      expect(asStaff.body).toEqual(expected.body);
    } else expect(asStaff.body.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    const asCustomer = await app.graphql(document, {}, customer);
    expect(asCustomer.body.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
  });

  it('leaves only upload mutations to the REST matrix (their arguments cannot be written inline), all admin-only', () => {
    expect(fields.filter((f) => !f.document).map((f) => [f.name, f.access])).toEqual([
      ['uploadMediaFiles', 'admin'],
      ['uploadProductMedia', 'admin'],
    ]);
  });
});

/** The mutations on a purchaser's group card (those answering its purchaser's view of it), each as called on the card below. */
const GROUP_CARD_CALLS: Record<string, (card: PlacedGroupCard, signatureId: number) => { document: string; variables: Record<string, unknown> }> = {
  removeGroupCardSignature: (card, signatureId) => ({
    document: 'mutation($o: ID!, $s: Int!) { removeGroupCardSignature(orderId: $o, signatureId: $s) { signatureCount } }',
    variables: { o: card.orderId, s: signatureId },
  }),
  extendSigningDeadline: (card) => ({
    document: 'mutation($o: ID!, $i: Int!, $at: String!) { extendSigningDeadline(orderId: $o, itemId: $i, collectUntil: $at) { collectUntil } }',
    variables: { o: card.orderId, i: card.itemId, at: new Date(Date.now() + 6 * 86_400_000).toISOString() },
  }),
  inviteSigners: (card) => ({
    document: 'mutation($o: ID!, $i: Int!, $e: [String!]!) { inviteSigners(orderId: $o, itemId: $i, emails: $e) { invited } }',
    variables: { o: card.orderId, i: card.itemId, e: ['signer@team.example'] },
  }),
};

// Runs last: the exact answers above are those of a shop with no orders.
describe("the staff role on a customer's group card", () => {
  let card: PlacedGroupCard;
  let signatureId: number;
  const day = (days: number) => new Date(Date.now() + days * 86_400_000);
  const stateOf = async () => ({
    signatures: await app.sql('select s.name from group_card_signature s join group_card g on g.id = s.group_card_id where g.item_id = $1', [card.itemId]),
    card: await app.sql('select collect_until from group_card where item_id = $1', [card.itemId]),
    invitations: await app.sql('select i.email from group_card_invitation i join group_card g on g.id = i.group_card_id where g.item_id = $1', [card.itemId]),
    audit: await app.sql('select action from audit_entry where entity_id = $1', [card.orderId]),
  });

  beforeAll(async () => {
    const shop = await seedShop(app, admin);
    card = await placeGroupCard(app, shop, { deliveryDate: day(8).toISOString().slice(0, 10), collectUntil: day(5).toISOString(), buyer: customer });
    signatureId = (await (await sign(app, card.token, { name: 'Ann', message: 'Hello' }, fromAddress(1))).json()).id;
  });

  it('knows every mutation on a purchaser\'s group card', () => {
    const purchasers = Object.entries(schema.getMutationType()!.getFields())
      .filter(([, field]) => ['GroupCardDetails', 'GroupCardInvitationResult'].includes(getNamedType(field.type).name))
      .map(([name]) => name);
    expect(purchasers.sort()).toEqual(Object.keys(GROUP_CARD_CALLS).sort());
  });

  it.each(Object.keys(GROUP_CARD_CALLS))('mutation %s: FORBIDDEN for staff, nothing changed', async (name) => {
    const { document, variables } = GROUP_CARD_CALLS[name]!(card, signatureId);
    const before = await stateOf();
    const asStaff = await app.graphql(document, variables, staff);
    expect(asStaff.body).toEqual({ data: null, errors: [expect.objectContaining({ message: "Only the card's purchaser can change it.", path: [name], extensions: { code: 'FORBIDDEN' } })] });
    expect(await stateOf()).toEqual(before);
  });
});
