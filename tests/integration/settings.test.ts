import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../server/src/core/context.js';
import { authorize } from '../../server/src/core/access.js';
import { AppError } from '../../server/src/core/errors.js';
import pino from 'pino';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let adminToken: string;
let customerToken: string;
beforeAll(async () => {
  app = await startTestApp();
  adminToken = await app.login();
  customerToken = await app.customer('shopper');
});
afterAll(async () => {
  await app?.stop();
});

const put = (json: unknown, token?: string) => app.request('/api/settings', { method: 'PUT', json, token });

describe('REST settings', () => {
  it('describes the site and the caller with the strings "true"/"false", and the shop by its name', async () => {
    const shop = { shopName: 'Art & Song Cards', announcement: null };
    expect(await (await app.request('/api/settings')).json()).toEqual({ underConstructionMode: 'false', isAdmin: 'false', ...shop });
    expect(await (await app.request('/api/settings', { token: customerToken })).json()).toEqual({ underConstructionMode: 'false', isAdmin: 'false', ...shop });
    expect(await (await app.request('/api/settings', { token: adminToken })).json()).toEqual({ underConstructionMode: 'false', isAdmin: 'true', ...shop });
  });

  it('treats an invalid token on a public read as anonymous', async () => {
    const res = await app.request('/api/settings', { token: 'garbage' });
    expect(res.status).toBe(200);
    expect((await res.json()).isAdmin).toBe('false');
  });

  it('lets only an admin change them: 401 anonymous, 403 customer', async () => {
    const anonymous = await put({ underConstructionMode: 'true' });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe('UNAUTHENTICATED');
    const customer = await put({ underConstructionMode: 'true' }, customerToken);
    expect(customer.status).toBe(403);
    expect(await customer.json()).toEqual({ message: 'Admins only', code: 'FORBIDDEN' });
    expect(await app.sql("select value from setting where key = 'underConstructionMode'")).toEqual([{ value: 'false' }]);
  });

  it.each([[{ underConstructionMode: 'yes' }], [{}], [{ underConstructionMode: 1 }]])('refuses %j with 400', async (json) => {
    const res = await put(json, adminToken);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'underConstructionMode' });
  });

  it('persists the switch in the database', async () => {
    const res = await put({ underConstructionMode: 'true' }, adminToken);
    expect(res.status).toBe(200);
    expect((await res.json()).underConstructionMode).toBe('true');
    expect(await app.sql("select value from setting where key = 'underConstructionMode'")).toEqual([{ value: 'true' }]);
    expect((await (await app.request('/api/settings')).json()).underConstructionMode).toBe('true');
    await put({ underConstructionMode: 'false' }, adminToken);
    expect(await app.sql("select value from setting where key = 'underConstructionMode'")).toEqual([{ value: 'false' }]);
  });
});

describe('GraphQL settings', () => {
  const UPDATE = 'mutation($on: Boolean!) { updateSettings(input: { underConstructionMode: $on }) { underConstructionMode isAdmin } }';

  it('reads them as booleans', async () => {
    expect((await app.graphql('{ settings { underConstructionMode isAdmin } }', {}, adminToken)).body.data.settings).toEqual({ underConstructionMode: false, isAdmin: true });
  });

  it('updates them as an admin only', async () => {
    const anonymous = await app.graphql(UPDATE, { on: true });
    expect(anonymous.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const customer = await app.graphql(UPDATE, { on: true }, customerToken);
    expect(customer.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(await app.sql("select value from setting where key = 'underConstructionMode'")).toEqual([{ value: 'false' }]);
    const ok = await app.graphql(UPDATE, { on: true }, adminToken);
    expect(ok.body.data.updateSettings).toEqual({ underConstructionMode: true, isAdmin: true });
    await app.graphql(UPDATE, { on: false }, adminToken);
  });
});

describe('the storefront guard', () => {
  const contextFor = (token?: string) =>
    createRequestContext({
      em: app.orm.em.fork(),
      requestId: 'test',
      ip: '127.0.0.1',
      log: pino({ level: 'silent' }),
      authorization: token ? `Bearer ${token}` : undefined,
      authenticate: (em, t) => app.services.auth.authenticate(em, t),
    });
  const check = (token?: string) => authorize(contextFor(token), 'storefront', app.services.settings);

  it('lets everyone in while the site is open', async () => {
    await expect(check()).resolves.toBeUndefined();
    await expect(check(customerToken)).resolves.toBeUndefined();
  });

  it('answers UNDER_CONSTRUCTION with a retry hint to all but a signed-in admin while the mode is on', async () => {
    await put({ underConstructionMode: 'true' }, adminToken);
    try {
      for (const token of [undefined, customerToken, 'garbage']) {
        const error = await check(token).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: 'UNDER_CONSTRUCTION', retryAfter: 3600 });
      }
      await expect(check(adminToken)).resolves.toBeUndefined();
      // Auth and settings keep working for everyone.
      expect((await app.request('/api/settings')).status).toBe(200);
      expect((await app.request('/api/login', { method: 'POST', json: { username: 'shopper', password: 'customer-pass-1' } })).status).toBe(200);
    } finally {
      await put({ underConstructionMode: 'false' }, adminToken);
    }
  });
});
