import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { selectPaymentProvider } from '../../server/src/services.js';
import { createRequestContext } from '../../server/src/core/context.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';
import { ORDER_FIELDS, PAY_OK, orderInput, personalisation, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Contract section 8: who pays, how often one may try, and what may go into an e-mail. */
let app: TestApp;
let admin: string;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.login();
  shop = await seedShop(app, admin);
});
afterAll(async () => {
  await app?.stop();
});

const count = async (table: string) => Number((await app.sql<{ n: string }>(`select count(*) as n from "${table}"`))[0]!.n);

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
  return { log, lines };
}

describe('payments', () => {
  it('are off in production until a provider is named: checkout answers 503 PAYMENTS_UNAVAILABLE and the page is told', async () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    expect(config.paymentProvider).toBeNull();
    const off = await startTestApp({ paymentProvider: null });
    try {
      const shopOff = await seedShop(off, await off.login());
      const setup = await off.graphql('{ paymentSetup { available provider } }');
      expect(setup.body.data.paymentSetup).toEqual({ available: false, provider: null });
      const res = await placeOrder(off, orderInput(shopOff));
      expect(res.status).toBe(503);
      expect(res.body.errors?.[0].extensions?.code).toBe('PAYMENTS_UNAVAILABLE');
      expect(await off.sql('select id from "order"')).toEqual([]);
    } finally {
      await off.stop();
    }
  });

  it('takes the test provider in production only when asked for, with a warning; an unknown one is refused at start', () => {
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }).paymentProvider).toBe('test');
    expect(loadConfig({}).paymentProvider).toBe('test');
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'free' })).toThrow(/PAYMENT_PROVIDER/);
    const { log, lines } = capture();
    const provider = selectPaymentProvider(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }), [new TestPaymentProvider()], log);
    expect(provider?.name).toBe('test');
    expect(lines.some((line) => line.level === 40 && String(line.msg).includes('PAYMENT_PROVIDER=test in production'))).toBe(true);
    // A provider this build does not have is not silently replaced by the test one.
    expect(selectPaymentProvider(loadConfig({ PAYMENT_PROVIDER: 'stripe' }), [new TestPaymentProvider()], log)).toBeNull();
  });

  it('refuses a provider named by the client', async () => {
    const before = await count('order');
    const viaSchema = await placeOrder(app, orderInput(shop, { payment: { ...PAY_OK, provider: 'test' } }));
    expect(viaSchema.status).toBe(400);
    expect(viaSchema.body.errors?.[0].message).toMatch(/provider/);
    const ctx = createRequestContext({ em: app.orm.em.fork(), ip: '10.9.9.9', log: pino({ level: 'silent' }), requestId: 't', authenticate: async () => { throw new Error('no'); } });
    await expect(app.services.checkout.place(ctx, orderInput(shop, { payment: { ...PAY_OK, provider: 'test' } }))).rejects.toMatchObject({ code: 'BAD_USER_INPUT', field: 'payment.provider' });
    expect(await count('order')).toBe(before);
  });
});

describe('limits', () => {
  it('limits checkout attempts per client address (429, Retry-After, RATE_LIMITED), counted in PostgreSQL', async () => {
    const limited = await startTestApp({ limits: { registerPerHour: 1000, checkoutPer10Minutes: 3 } });
    try {
      const shopL = await seedShop(limited, await limited.login());
      for (let i = 0; i < 3; i += 1) expect((await placeOrder(limited, orderInput(shopL))).status).toBe(200);
      const refused = await placeOrder(limited, orderInput(shopL));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
      expect(await limited.sql(`select points from rate_limit where key like 'checkout:%'`)).toEqual([{ points: 4 }]);
      expect(await limited.sql('select id from "order"')).toHaveLength(3);
    } finally {
      await limited.stop();
    }
  });

  it('limits registrations per client address per hour', async () => {
    const limited = await startTestApp({ limits: { registerPerHour: 3, checkoutPer10Minutes: 1000 } });
    const register = (i: number) => limited.request('/api/register', { method: 'POST', json: { username: `signup${i}`, email: `signup${i}@example.com`, password: 'customer-pass-1' } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await register(i)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const refused = await register(9);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.any(String) });
      expect(await limited.sql(`select id from app_user where username = 'signup9'`)).toEqual([]);
    } finally {
      await limited.stop();
    }
  });
});

describe('listing who has an account', () => {
  it('is no faster by signing up than by the reset page: every sign-up reaching the e-mail check counts, a taken address (409) too, REST and GraphQL alike', async () => {
    // The shop's own limits, as it runs with no variables set.
    const limited = await startTestApp({ trustProxy: 1, limits: loadConfig({}).limits });
    const prober = { 'x-forwarded-for': '203.0.113.50' };
    let n = 0;
    /** Tries one more address (taken or free, by REST or GraphQL, in turn): 'limited' once refused with 429. */
    const signUp = async (): Promise<'answered' | 'limited'> => {
      n += 1;
      const email = n % 2 === 0 ? 'admin@example.com' : `probe${n}@example.com`;
      const input = { username: `probe${n}`, email, password: 'customer-pass-1' };
      if (n % 3 === 0) {
        const res = await limited.request('/graphql', { method: 'POST', headers: prober, json: { query: 'mutation($i: RegisterInput!) { register(input: $i) { message } }', variables: { i: input } } });
        return (await res.json()).errors?.[0]?.extensions?.code === 'RATE_LIMITED' ? 'limited' : 'answered';
      }
      const res = await limited.request('/api/register', { method: 'POST', headers: prober, json: input });
      expect([201, 409, 429]).toContain(res.status);
      if (res.status !== 429) return 'answered';
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await res.json()).toEqual({ code: 'RATE_LIMITED', message: 'Too many sign-ups from your address. Please try again later.' });
      return 'limited';
    };
    const resetAsker = { 'x-forwarded-for': '203.0.113.60' };
    let m = 0;
    const askReset = async () => ((await limited.request('/api/password-reset', { method: 'POST', headers: resetAsker, json: { email: `someone${++m}@example.com` } })).status === 429 ? 'limited' : 'answered');
    const answeredBeforeLimit = async (attempt: () => Promise<'answered' | 'limited'>) => {
      let answered = 0;
      while ((await attempt()) === 'answered' && answered < 100) answered += 1;
      return answered;
    };
    try {
      const signUps = await answeredBeforeLimit(signUp);
      const resets = await answeredBeforeLimit(askReset);
      expect(resets).toBe(5);
      expect(signUps).toBeLessThanOrEqual(resets);
      // Taken addresses were among them, and each attempt was counted in PostgreSQL, the refused one too.
      expect(await limited.sql(`select count(*)::int as n from app_user where username like 'probe%'`)).toEqual([{ n: Math.ceil(signUps / 2) }]);
      expect(await limited.sql(`select points from rate_limit where key = 'register:203.0.113.50'`)).toEqual([{ points: signUps + 1 }]);
    } finally {
      await limited.stop();
    }
  });
});

describe('client addresses', () => {
  it('are counted by their /64 for IPv6 clients, and IPv4 mapped into IPv6 is the IPv4 client', async () => {
    const limited = await startTestApp({ trustProxy: 1, limits: { registerPerHour: 3, checkoutPer10Minutes: 1000 } });
    let n = 0;
    const register = (from: string) => {
      n += 1;
      return limited.request('/api/register', { method: 'POST', json: { username: `six${n}`, email: `six${n}@example.com`, password: 'customer-pass-1' }, headers: { 'x-forwarded-for': from } });
    };
    try {
      const sameBlock = ['2001:db8:aa:1::1', '2001:db8:aa:1:1234:5678:9abc:def0', '2001:DB8:AA:1:ffff:ffff:ffff:ffff', '2001:db8:aa:1::2'];
      const statuses = [];
      for (const from of sameBlock) statuses.push((await register(from)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      // The next /64 is another client.
      expect((await register('2001:db8:aa:2::1')).status).toBe(201);
      // An IPv4 client seen through an IPv6 socket is one client with its plain address.
      const mapped = [];
      for (const from of ['203.0.113.9', '::ffff:203.0.113.9', '::FFFF:203.0.113.9', '203.0.113.9']) mapped.push((await register(from)).status);
      expect(mapped).toEqual([201, 201, 201, 429]);
      expect((await limited.sql<{ key: string }>(`select key from rate_limit where key like 'register:%' order by key`)).map((r) => r.key)).toEqual(['register:2001:db8:aa:1::/64', 'register:2001:db8:aa:2::/64', 'register:203.0.113.9']);
    } finally {
      await limited.stop();
    }
  });
});

describe('names and addresses that go into e-mails', () => {
  const line = (p: Record<string, unknown>) => [{ productId: shop.cardId, quantity: 1, personalisation: personalisation(p) }];

  it('refuses line breaks and control characters in the names of a card (400, nothing recorded)', async () => {
    const before = await count('order');
    for (const [p, field] of [
      [{ senderName: 'Bob\n\nYour account is locked: https://evil.example' }, 'lines.0.personalisation.senderName'],
      [{ recipientName: 'Grace\r\nBcc: victim@example.com' }, 'lines.0.personalisation.recipientName'],
      [{ recipientName: 'Grace\u0000' }, 'lines.0.personalisation.recipientName'],
      [{ senderName: 'Ada\u2028Lovelace' }, 'lines.0.personalisation.senderName'],
    ] as const) {
      const { body } = await placeOrder(app, orderInput(shop, { lines: line(p) }));
      expect(body.errors?.[0].extensions, JSON.stringify(p)).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    // The message itself keeps its line breaks.
    expect((await placeOrder(app, orderInput(shop, { lines: line({ message: 'Line one\nLine two' }) }))).body.data.placeOrder.id).toBeTruthy();
    expect(await count('order')).toBe(before + 1);
  });

  it('takes one e-mail address only, at checkout, for recipients and at registration', async () => {
    const bad = ['root,x@y.z', 'a@b.c;d@e.f', 'Bob <bob@example.com>', '"bob"@example.com', 'bob@example.com>', 'bob@exa mple.com', 'bob@@example.com'];
    for (const address of bad) {
      const purchaser = await placeOrder(app, orderInput(shop, { purchaserEmail: address }));
      expect(purchaser.body.errors?.[0].extensions, address).toMatchObject({ code: 'BAD_USER_INPUT', field: 'purchaserEmail' });
      const recipient = await placeOrder(app, orderInput(shop, { lines: line({ recipientEmail: address }) }));
      expect(recipient.body.errors?.[0].extensions, address).toMatchObject({ code: 'BAD_USER_INPUT', field: 'lines.0.personalisation.recipientEmail' });
    }
    const res = await app.graphql(`mutation { register(input: { username: "listy", email: "a@b.co,c@d.co", password: "customer-pass-1" }) { message } }`);
    expect(res.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
  });

  it('keeps admin edits of names that reach e-mails single-line too (product names are in the subject)', async () => {
    const res = await app.request(`/api/products/${shop.cardId}`, { method: 'PUT', token: admin, json: { product: { name: 'Balloons\r\nBcc: x@example.com' } } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect((await app.sql<{ name: string }>('select name from product where id = $1', [shop.cardId]))[0]!.name).toBe('Balloon Birthday');
  });
});

describe('the confirmation look-up', () => {
  it("shows what the confirmation page needs to anyone with the number, everything only to admins and the owner", async () => {
    const owner = await app.customer('owner1');
    const placed = await placeOrder(app, orderInput(shop, { purchaserEmail: 'secret-buyer@example.com', lines: [{ productId: shop.cardId, quantity: 1, personalisation: personalisation({ recipientEmail: 'secret-friend@example.com', message: 'A private note' }) }] }), owner);
    const id = placed.body.data.placeOrder.id;
    const query = `query($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`;
    const anonymous = (await app.graphql(query, { id })).body.data.order;
    expect(anonymous.purchaserEmail).toBe('s•••@example.com');
    expect(anonymous.items[0]).toMatchObject({ recipientEmail: 's•••@example.com', message: null, recipientName: 'Grace Hopper', ecardPath: expect.stringMatching(/^\/ecards\//) });
    const stranger = (await app.graphql(query, { id }, await app.customer('stranger1'))).body.data.order;
    expect(stranger.items[0].message).toBeNull();
    for (const token of [owner, admin]) {
      const full = (await app.graphql(query, { id }, token)).body.data.order;
      expect(full.purchaserEmail).toBe('secret-buyer@example.com');
      expect(full.items[0]).toMatchObject({ recipientEmail: 'secret-friend@example.com', message: 'A private note' });
    }
  });
});
