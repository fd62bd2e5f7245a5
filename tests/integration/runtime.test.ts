import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema as buildSdlSchema } from 'graphql';
import pino from 'pino';
import { createApolloServer, MAX_QUERY_DEPTH } from '../../gateway/src/graphql.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ loginLimits: { perUsername: 100, perAddress: 3, windowSeconds: 900 } });
});
afterAll(async () => {
  await app?.stop();
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect(await (await app.request('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await app.request('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok', media: 'ok' } });
  });

  it('answers /readyz with 503 while the database refuses connections', async () => {
    const db = app.databaseName;
    // Close this app's pooled connections and refuse new ones, as a database outage would.
    await app.adminSql(`alter database "${db}" allow_connections false`);
    await app.adminSql(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [db]);
    try {
      const res = await app.request('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', checks: { database: 'unreachable', media: 'ok' } });
      expect((await app.request('/healthz')).status).toBe(200);
    } finally {
      await app.adminSql(`alter database "${db}" allow_connections true`);
    }
    expect((await app.request('/readyz')).status).toBe(200);
  });
});

describe('HTTP surface', () => {
  it('answers an unknown API path with a JSON 404', async () => {
    const res = await app.request('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'No such API route', code: 'NOT_FOUND' });
  });

  it('counts the requests it is answering, for the mail queue to make room for them', async () => {
    expect(app.services.foreground.busy).toBe(false);
    // A request whose body is still arriving is being answered.
    const req = http.request(app.url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '40' } });
    const answer = new Promise<number>((resolve, reject) => req.once('response', (res) => (res.resume(), res.once('end', () => resolve(res.statusCode!)))).once('error', reject));
    req.write('{"query":');
    req.flushHeaders();
    await expect.poll(() => app.services.foreground.busy, { timeout: 10_000 }).toBe(true);
    req.end(JSON.stringify('{ __typename }').padEnd(30, ' ') + '}');
    expect(await answer).toBe(200);
    await app.services.foreground.whenIdle();
    expect(app.services.foreground.busy).toBe(false);
  });

  it('tags every answer with a request id, echoing a well-formed incoming one', async () => {
    expect((await app.request('/api/settings')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await app.request('/api/settings', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe('abc-123');
  });

  it('serves the web client for client-side routes, with security headers', async () => {
    const res = await app.request('/admindash', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('opens the GraphQL explorer for a browser, with every asset served locally', async () => {
    const res = await app.request('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toMatch(/src="https?:\/\//);
    const scripts = [...html.matchAll(/src="(\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect((await app.request(src)).status).toBe(200);
  });

  it('still runs GET operations and POSTs on /graphql', async () => {
    const res = await app.request('/graphql?query=' + encodeURIComponent('{ settings { underConstructionMode } }'), {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(await res.json()).toEqual({ data: { settings: { underConstructionMode: false } } });
  });

  it('answers 400 to malformed JSON on /graphql', async () => {
    const res = await app.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":' });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('BAD_USER_INPUT');
  });

  it('rate-limits failed logins per client address across usernames', async () => {
    for (const username of ['u1', 'u2', 'u3']) {
      expect((await app.request('/api/login', { method: 'POST', json: { username, password: 'wrong-pass' } })).status).toBe(401);
    }
    const res = await app.request('/api/login', { method: 'POST', json: { username: 'u4', password: 'wrong-pass' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('GraphQL limits', () => {
  // A recursive schema, so that a query can be as deep as we like.
  const schema = buildSdlSchema('type Node { name: String, child: Node } type Query { node: Node }');
  schema.getQueryType()!.getFields().node.resolve = () => ({ name: 'n', child: null });
  const nested = (depth: number) => `{ ${'node { '.repeat(1)}${'child { '.repeat(depth - 2)}name${' }'.repeat(depth - 1)} }`;

  it(`accepts a query ${MAX_QUERY_DEPTH} deep and refuses one deeper`, async () => {
    const server = createApolloServer(schema, { introspection: true, log: pino({ level: 'silent' }) });
    await server.start();
    try {
      const ok = await server.executeOperation({ query: nested(MAX_QUERY_DEPTH) });
      expect(ok.body.kind === 'single' && ok.body.singleResult.errors).toBeFalsy();
      const deep = await server.executeOperation({ query: nested(MAX_QUERY_DEPTH + 2) });
      expect(deep.body.kind === 'single' && deep.body.singleResult.errors?.[0].message).toMatch(/depth/i);
    } finally {
      await server.stop();
    }
  });

  it('refuses a query whose cost is past the bound', async () => {
    const server = createApolloServer(schema, { introspection: true, log: pino({ level: 'silent' }) });
    await server.start();
    try {
      // Under the token limit of a document, over the cost bound.
      const aliases = Array.from({ length: 100 }, (_, i) => `a${i}: ${nested(MAX_QUERY_DEPTH - 1).slice(2, -2)}`).join(' ');
      const res = await server.executeOperation({ query: `{ ${aliases} }` });
      expect(res.body.kind === 'single' && res.body.singleResult.errors?.[0].message).toMatch(/cost/i);
    } finally {
      await server.stop();
    }
  });
});

