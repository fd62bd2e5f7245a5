import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../../gateway/src/boot.js';
import { restRoutes } from '../../gateway/src/routes/index.js';
import { API_SCOPES, type ApiScope } from '../../server/src/core/access.js';
import { API_SCOPE_DOCS } from '../../server/src/rules/index.js';
import { loadConfig } from '../../server/src/config.js';
import { buildSchema, declaredScopes } from '../../server/src/schema/build-schema.js';
import { createServices } from '../../server/src/services.js';
import { startAppProcess, type AppProcess } from '../helpers/app-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * API keys (contract section 19): created by admins and shown once, kept as a digest, listed with
 * their last use, revoked at once in every process; a request signed with a key may call exactly the
 * operations that name one of its scopes, and what it changes is audited under the key's name.
 */

/**
 * Every operation a scope allows is the whole declaration, so that giving a key more is a conscious
 * change: the shared rules' list (which the console offers and /developers documents) is held to
 * what the routes and resolvers declare.
 */
const DECLARED = Object.fromEntries(API_SCOPE_DOCS.map(({ scope, rest, graphql }) => [scope, { rest, graphql }])) as Record<ApiScope, { rest: readonly string[]; graphql: readonly string[] }>;

const UNKNOWN_ORDER = '00000000-0000-4000-8000-000000000000';

/** A representative call of each scope, over REST and GraphQL, and what tells it was let through. */
const CALLS: Record<ApiScope, { rest: { path: string; method?: string; json?: unknown; allowed: number }; graphql: { query: string; allowed: (body: any) => void } }> = {
  'catalogue:read': {
    rest: { path: '/api/categories/all', allowed: 200 },
    graphql: { query: '{ categories { id name } }', allowed: (body) => expect(body.data.categories).toEqual(expect.any(Array)) },
  },
  'catalogue:write': {
    rest: { path: '/api/categories', method: 'POST', json: { name: `Keyed ${crypto.randomUUID().slice(0, 8)}` }, allowed: 201 },
    graphql: { query: `mutation { createCategory(input: { name: "Keyed ${crypto.randomUUID().slice(0, 8)}" }) { id name } }`, allowed: (body) => expect(body.data.createCategory.id).toEqual(expect.any(Number)) },
  },
  'orders:read': {
    rest: { path: '/api/admin/orders', allowed: 200 },
    graphql: { query: '{ orders { totalCount } }', allowed: (body) => expect(body.data.orders.totalCount).toBe(0) },
  },
  'orders:write': {
    // Let through to the service, which finds no such order.
    rest: { path: `/api/admin/orders/${UNKNOWN_ORDER}/notes`, method: 'POST', json: { text: 'Called by the warehouse' }, allowed: 404 },
    graphql: { query: `mutation { addOrderNote(orderId: "${UNKNOWN_ORDER}", text: "Called") { id } }`, allowed: (body) => expect(body.errors[0].extensions.code).toBe('NOT_FOUND') },
  },
  'customers:read': {
    rest: { path: '/api/admin/customers', allowed: 200 },
    graphql: { query: '{ customers { totalCount } }', allowed: (body) => expect(body.data.customers.totalCount).toEqual(expect.any(Number)) },
  },
};

let app: TestApp;
let admin: string;

const createKey = async (name: string, scopes: string[]) => {
  const res = await app.request('/api/admin/api-keys', { method: 'POST', token: admin, json: { name, scopes } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; name: string; scopes: string[]; key: string; last4: string };
};

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
});

afterAll(async () => {
  await app?.stop();
});

describe('keys', () => {
  it('are created with a name and scopes, shown once, and kept as a digest with their last four characters', async () => {
    const created = await createKey('Fulfilment service', ['orders:write', 'orders:read']);
    expect(created).toMatchObject({ id: expect.any(Number), name: 'Fulfilment service', scopes: ['orders:read', 'orders:write'], key: expect.stringMatching(/^ask_[A-Za-z0-9]{32}$/), last4: created.key.slice(-4) });
    const [row] = await app.sql('select * from api_key where id = $1', [created.id]);
    expect(row!.key_digest).toBe(crypto.hash('sha256', created.key));
    expect(Object.values(row!).map(String).join(' ')).not.toContain(created.key.slice(4));

    const listed = await (await app.request('/api/admin/api-keys', { token: admin })).json();
    const entry = listed.find((key: { id: number }) => key.id === created.id);
    expect(entry).toEqual({ id: created.id, name: 'Fulfilment service', scopes: ['orders:read', 'orders:write'], last4: created.last4, created_by: 'admin', created_at: expect.any(String), last_used_at: null, revoked_at: null });
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it('are created, listed and revoked over GraphQL too', async () => {
    const created = await app.graphql('mutation { createApiKey(input: { name: "CRM", scopes: ["customers:read"] }) { key apiKey { id name scopes last4 revokedAt } } }', {}, admin);
    const { key, apiKey } = created.body.data.createApiKey;
    expect(apiKey).toEqual({ id: expect.any(Number), name: 'CRM', scopes: ['customers:read'], last4: key.slice(-4), revokedAt: null });
    const list = await app.graphql('{ apiKeys { id name lastUsedAt } }', {}, admin);
    expect(list.body.data.apiKeys).toContainEqual({ id: apiKey.id, name: 'CRM', lastUsedAt: null });
    const revoked = await app.graphql(`mutation { revokeApiKey(id: ${apiKey.id}) { id revokedAt } }`, {}, admin);
    expect(revoked.body.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    expect((await app.request('/api/admin/customers', { token: key })).status).toBe(401);
  });

  it('refuse bad input by its field, and are for admins only', async () => {
    const bad = async (json: unknown) => {
      const res = await app.request('/api/admin/api-keys', { method: 'POST', token: admin, json });
      return { status: res.status, body: await res.json() };
    };
    expect(await bad({ name: ' ', scopes: ['orders:read'] })).toMatchObject({ status: 400, body: { code: 'BAD_USER_INPUT', field: 'name' } });
    expect(await bad({ name: 'x'.repeat(101), scopes: ['orders:read'] })).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await bad({ name: 'Tool', scopes: [] })).toMatchObject({ status: 400, body: { field: 'scopes' } });
    expect(await bad({ name: 'Tool', scopes: ['orders:read', 'admin'] })).toMatchObject({ status: 400, body: { field: 'scopes' } });
    expect(await bad({ name: 'Tool', scopes: 'orders:read' })).toMatchObject({ status: 400, body: { field: 'scopes' } });
    const graphql = await app.graphql('mutation { createApiKey(input: { name: "Tool", scopes: ["everything"] }) { key } }', {}, admin);
    expect(graphql.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'scopes' });

    const shopper = await app.customer();
    expect((await app.request('/api/admin/api-keys', { token: shopper })).status).toBe(403);
    expect((await app.request('/api/admin/api-keys', { method: 'POST', token: shopper, json: { name: 'Mine', scopes: ['orders:read'] } })).status).toBe(403);
    expect((await app.request('/api/admin/api-keys')).status).toBe(401);
    expect((await app.request('/api/admin/api-keys/1', { method: 'DELETE' })).status).toBe(401);
    expect((await app.graphql('{ apiKeys { id } }', {}, shopper)).body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await app.request('/api/admin/api-keys/999999', { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('are revoked: 204, refused with 401 from then on, and listed as revoked', async () => {
    const created = await createKey('Old integration', ['catalogue:read']);
    expect((await app.request('/api/categories/all', { token: created.key })).status).toBe(200);
    const revoked = await app.request(`/api/admin/api-keys/${created.id}`, { method: 'DELETE', token: admin });
    expect(revoked.status).toBe(204);
    for (const res of [await app.request('/api/categories/all', { token: created.key }), await app.request('/api/settings', { token: created.key })]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    const graphql = await app.graphql('{ categories { id } }', {}, created.key);
    expect(graphql.body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const listed = await (await app.request('/api/admin/api-keys', { token: admin })).json();
    expect(listed.find((key: { id: number }) => key.id === created.id).revoked_at).toEqual(expect.any(String));
    // Revoking again changes nothing.
    expect((await app.request(`/api/admin/api-keys/${created.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
  });

  it('that are unknown or malformed are refused with 401, on REST and GraphQL', async () => {
    for (const token of [`ask_${'A'.repeat(32)}`, 'ask_short', `ask_${'b'.repeat(40)}`]) {
      const res = await app.request('/api/categories/all', { token });
      expect(res.status).toBe(401);
      const graphql = await app.graphql('{ categories { id } }', {}, token);
      expect(graphql.body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    }
  });

  it('record their last use, at most once a minute', async () => {
    const created = await createKey('Reporting', ['orders:read']);
    expect((await app.request('/api/admin/orders', { token: created.key })).status).toBe(200);
    const [first] = await app.sql<{ last_used_at: Date | null }>('select last_used_at from api_key where id = $1', [created.id]);
    expect(first!.last_used_at).toBeInstanceOf(Date);
    await app.sql('update api_key set last_used_at = $2 where id = $1', [created.id, new Date('2026-01-01T00:00:00Z')]);
    for (let i = 0; i < 3; i++) expect((await app.request('/api/admin/orders', { token: created.key })).status).toBe(200);
    // Within the minute no other write is made.
    const [later] = await app.sql<{ last_used_at: Date }>('select last_used_at from api_key where id = $1', [created.id]);
    expect(later!.last_used_at.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('cached reads', () => {
  it('answer a key with catalogue:read from the read cache ahead of Express, once it is known and its use noted; any other key goes through Express', async () => {
    const reader = await createKey('Catalogue mirror', ['catalogue:read']);
    const other = await createKey('Order desk', ['orders:read']);
    const served = () => app.cachedReads!.stats.served.tree;
    const anonymous = await app.request('/api/categories/all');
    expect(anonymous.status).toBe(200);
    const expected = await anonymous.json();
    // The first use looks the key up and notes it: through Express.
    const before = served();
    const first = await app.request('/api/categories/all', { token: reader.key });
    expect(first.status).toBe(200);
    expect(served()).toBe(before);
    const second = await app.request('/api/categories/all', { token: reader.key });
    expect(second.status).toBe(200);
    expect(served()).toBe(before + 1);
    expect(await second.json()).toEqual(expected);
    expect(second.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    // The settings and pages are no key's: refused by Express.
    expect((await app.request('/api/settings', { token: reader.key })).status).toBe(403);

    for (let i = 0; i < 2; i++) expect((await app.request('/api/categories/all', { token: other.key })).status).toBe(403);
    expect(served()).toBe(before + 1);

    // Revoked, it is not known any more: refused by Express.
    expect((await app.request(`/api/admin/api-keys/${reader.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await app.request('/api/categories/all', { token: reader.key })).status).toBe(401);
    expect(served()).toBe(before + 1);
  });
});

describe('scopes', () => {
  it('are declared on exactly the operations each scope allows (REST routes and GraphQL fields), as the shared rules list them', () => {
    const routes = restRoutes(createServices(loadConfig({}), 'secret', { log: pino({ level: 'silent' }) }));
    const schema = buildSchema(null);
    const fields = [schema.getQueryType(), schema.getMutationType()].flatMap((type) => Object.keys((type as GraphQLObjectType).getFields()).map((name) => ({ type: type as GraphQLObjectType, name })));
    expect(API_SCOPE_DOCS.map((doc) => doc.scope)).toEqual([...API_SCOPES]);
    for (const scope of API_SCOPES) {
      const rest = routes.filter((route) => route.scopes?.includes(scope)).map((route) => `${route.method.toUpperCase()} /api${route.path}`);
      expect(rest.sort(), scope).toEqual([...DECLARED[scope].rest].sort());
      const graphql = fields.filter(({ type, name }) => declaredScopes(type, name).includes(scope)).map(({ name }) => name);
      expect(graphql.sort(), scope).toEqual([...DECLARED[scope].graphql].sort());
    }
  });

  it('and the API keys part of the schema describe every type, field and argument', () => {
    const schema = buildSchema(null);
    const roots = [schema.getQueryType()!, schema.getMutationType()!];
    for (const name of ['apiKeys', 'createApiKey', 'revokeApiKey']) {
      const field = roots.map((root) => root.getFields()[name]).find(Boolean)!;
      expect(field.description, name).toBeTruthy();
    }
    for (const typeName of ['ApiKey', 'CreatedApiKey', 'ApiKeyInput']) {
      const type = schema.getType(typeName) as GraphQLObjectType;
      expect(type.description, typeName).toBeTruthy();
      for (const field of Object.values(type.getFields())) expect(field.description, `${typeName}.${field.name}`).toBeTruthy();
    }
  });

  it('allow a key exactly its calls: a representative call of each scope, with each single-scope key, over REST and GraphQL', async () => {
    const keys = Object.fromEntries(await Promise.all(API_SCOPES.map(async (scope) => [scope, (await createKey(`Only ${scope}`, [scope])).key] as const))) as Record<ApiScope, string>;
    for (const holder of API_SCOPES) {
      for (const scope of API_SCOPES) {
        const call = CALLS[scope];
        const res = await app.request(call.rest.path, { method: call.rest.method ?? 'GET', json: call.rest.json, token: keys[holder] });
        const graphql = await app.graphql(call.graphql.query, {}, keys[holder]);
        if (holder === scope) {
          expect(res.status, `${holder} → REST ${scope}`).toBe(call.rest.allowed);
          call.graphql.allowed(graphql.body);
        } else {
          expect(res.status, `${holder} → REST ${scope}`).toBe(403);
          expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
          expect(graphql.body.errors![0]!.extensions!.code, `${holder} → GraphQL ${scope}`).toBe('FORBIDDEN');
        }
      }
    }
  });

  it('refuse a key everything no scope names, even with every scope: keys, the sales report, public calls', async () => {
    const all = await createKey('Everything', [...API_SCOPES]);
    const refused = [
      await app.request('/api/admin/api-keys', { token: all.key }),
      await app.request('/api/admin/api-keys', { method: 'POST', token: all.key, json: { name: 'Another', scopes: ['orders:read'] } }),
      await app.request('/api/admin/sales.csv', { token: all.key }),
      await app.request('/api/settings', { token: all.key }),
      await app.request('/api/admin/gift-cards', { token: all.key }),
    ];
    for (const res of refused) expect(res.status).toBe(403);
    for (const query of ['{ apiKeys { id } }', '{ salesSummary { orders } }', '{ me { id } }', 'mutation { createApiKey(input: { name: "x", scopes: ["orders:read"] }) { key } }']) {
      expect((await app.graphql(query, {}, all.key)).body.errors![0]!.extensions!.code, query).toBe('FORBIDDEN');
    }
  });

  it("audit a key's changes under its name, not as a user", async () => {
    const key = await createKey('Catalogue sync', ['catalogue:write']);
    const name = `Synced ${crypto.randomUUID().slice(0, 8)}`;
    const res = await app.request('/api/categories', { method: 'POST', token: key.key, json: { name } });
    expect(res.status).toBe(201);
    const rows = await app.sql('select actor_id, actor_name, actor_role, entity, action from audit_entry where summary like $1', [`%${name}%`]);
    expect(rows).toEqual([{ actor_id: null, actor_name: 'Catalogue sync', actor_role: 'api-key', entity: 'category', action: expect.any(String) }]);
    const created = await app.sql('select actor_name, action from audit_entry where entity = $1 and entity_id = $2', ['api-key', String(key.id)]);
    expect(created).toEqual([{ actor_name: 'admin', action: 'created' }]);
  });
});

/** Uses a key on another shop until it is refused; resolves with how long after the revocation that was. */
async function refusedWithin(ask: () => Promise<Response>, revokedAt: number, limitMs: number): Promise<number> {
  let status = (await ask()).status;
  while (status !== 401 && Date.now() - revokedAt < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = (await ask()).status;
  }
  expect(status).toBe(401);
  return Date.now() - revokedAt;
}

describe('revocation across processes', () => {
  let other: RunningApp | undefined;
  let otherDir: string | undefined;
  let second: AppProcess | undefined;

  afterAll(async () => {
    await other?.stop();
    if (otherDir) fs.rmSync(otherDir, { recursive: true, force: true });
    await second?.stop();
    if (second) fs.rmSync(second.dataDir, { recursive: true, force: true });
  });

  it('is seen by the shop run as a process of its own (its entry point, as `npm start` runs it) within a second', { timeout: 240_000 }, async () => {
    second = await startAppProcess('keys-second', { DATABASE_URL: app.config.databaseUrl!, PAYMENT_PROVIDER: 'test', JWT_SECRET: app.config.jwtSecret! }, 200_000);
    const created = await createKey('Accounting', ['orders:read']);
    const ask = () => second!.request('/api/admin/orders', { token: created.key });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    expect((await app.request(`/api/admin/api-keys/${created.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await refusedWithin(ask, Date.now(), 1000)).toBeLessThan(1000);
  });

  it('is seen by a second shop on the same database within a second', async () => {
    otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'artsong-keys-'));
    other = await startApp({ ...app.config, port: 0, dataDir: otherDir }, pino({ level: 'silent' }));
    const created = await createKey('Warehouse', ['orders:read']);
    const ask = () => fetch(`${other!.url}/api/admin/orders`, { headers: { authorization: `Bearer ${created.key}` } });
    // Known (and cached) by the other shop first.
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    expect((await app.request(`/api/admin/api-keys/${created.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await refusedWithin(ask, Date.now(), 1000)).toBeLessThan(1000);
  });
});
