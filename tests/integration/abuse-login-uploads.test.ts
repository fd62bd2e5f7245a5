import http from 'node:http';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../gateway/src/boot.js';
import { loadConfig } from '../../server/src/config.js';
import { MAX_DOCUMENT_TOKENS, MAX_MUTATION_ROOT_FIELDS } from '../../gateway/src/graphql.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { png, stagedNames, storedNames, uploadGraphQL } from '../helpers/media-fixtures.js';

/** Contract section 8: the login limit, uploads refused before their body is read, GraphQL document limits. */
let app: TestApp;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  app = await startTestApp({ loginLimits: { perUsername: 10, perAddress: 1000, windowSeconds: 900 }, trustProxy: 1, maxConcurrentUploads: 1 });
});
afterAll(async () => {
  await app?.stop();
});

const login = (username: string, password: string, from = '203.0.113.7') =>
  app.request('/api/login', { method: 'POST', json: { username, password }, headers: { 'x-forwarded-for': `198.51.100.1, ${from}` } });

describe('the login limit', () => {
  it('holds under 40 parallel guesses: at most 10 reach the password check, the rest answer 429', async () => {
    await app.customer('victim');
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => login(i % 2 ? 'Victim' : 'VICTIM', `guess-${i}-wrong`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    // Spent for this username (any case), even with the right password.
    const right = await login('victim', 'customer-pass-1');
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await right.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.any(String) });
  });

  it('gives the point back when the password is right, and keeps its counters in PostgreSQL (shared by every process)', async () => {
    await app.customer('regular');
    for (let i = 0; i < 12; i += 1) expect((await login('regular', 'customer-pass-1')).status).toBe(200);
    for (let i = 0; i < 9; i += 1) expect((await login('regular', 'wrong-password')).status).toBe(401);
    const rows = await app.sql<{ key: string; points: number }>(`select key, points from rate_limit where key = 'login-user:regular'`);
    expect(rows).toEqual([{ key: 'login-user:regular', points: 9 }]);
    // A second process on the same database sees the same counter.
    const second = await startApp({ ...loadSameConfig(app), port: 0 }, pino({ level: 'silent' }));
    try {
      const once = await fetch(`${second.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'regular', password: 'wrong' }) });
      expect(once.status).toBe(401);
      const twice = await fetch(`${second.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'REGULAR', password: 'customer-pass-1' }) });
      expect(twice.status).toBe(429);
    } finally {
      await second.stop();
    }
  });

  it('keys the address by TRUST_PROXY hops from the right of X-Forwarded-For', async () => {
    // TRUST_PROXY=1: one proxy in front, whose own entry (the right-most) names the client.
    const limited = await startTestApp({ loginLimits: { perUsername: 1000, perAddress: 2, windowSeconds: 900 }, trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy });
    try {
      const attempt = (xff: string) => limited.request('/api/login', { method: 'POST', json: { username: 'nobody', password: 'wrong-pass' }, headers: { 'x-forwarded-for': xff } });
      expect((await attempt('1.1.1.1, 203.0.113.50')).status).toBe(401);
      // A forged left-hand entry changes nothing: the proxy's own entry (the right-most) is the client.
      expect((await attempt('9.9.9.9, 203.0.113.50')).status).toBe(401);
      expect((await attempt('8.8.8.8, 203.0.113.50')).status).toBe(429);
      expect((await attempt('8.8.8.8, 203.0.113.51')).status).toBe(401);
    } finally {
      await limited.stop();
    }
  });

  it('counts against the account once it is known, whether it is named by its username or its e-mail address', async () => {
    await app.customer('twofaced');
    for (let i = 0; i < 10; i += 1) expect((await login('TwoFaced', `wrong-${i}`)).status).toBe(401);
    const byEmail = await login('TWOFACED@example.com', 'wrong-again');
    expect(byEmail.status).toBe(429);
    expect(await byEmail.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await login('twofaced@example.com', 'customer-pass-1')).status).toBe(429);
    // The other way round: guesses by e-mail spend the username's attempts too.
    await app.customer('mailfirst');
    for (let i = 0; i < 10; i += 1) expect((await login('mailfirst@example.com', `wrong-${i}`)).status).toBe(401);
    expect((await login('mailfirst', 'customer-pass-1')).status).toBe(429);
    expect(await app.sql(`select key, points from rate_limit where key in ('login-user:mailfirst', 'login-user:mailfirst@example.com') order by key`)).toEqual([{ key: 'login-user:mailfirst', points: 11 }]);
  });

  it('answers any username or password, however long or strange, with 401 or 429 and never a 5xx', async () => {
    const long = 'u'.repeat(3000);
    const res = await login(long, 'whatever-password');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const graphql = await app.request('/graphql', { method: 'POST', json: { query: 'mutation($u: String!) { login(input: { username: $u, password: "x" }) { token } }', variables: { u: long } }, headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.99' } });
    expect(graphql.status).toBeLessThan(500);
    expect((await graphql.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const text = fc.oneof(fc.string({ maxLength: 6000 }), fc.string({ unit: 'binary', maxLength: 600 }), fc.nat({ max: 20_000 }).map((n) => `${'é'.repeat(n)}@example.com`));
    await fc.assert(
      fc.asyncProperty(text, text, fc.nat({ max: 255 }), async (username, password, host) => {
        const answer = await login(username, password, `203.0.113.${host}`);
        // A NUL character is refused at the door (400), whatever the field; anything else is a failed login.
        if ((username + password).includes('\u0000')) {
          expect(answer.status, `${answer.status} for a NUL in a username of ${username.length} characters`).toBe(400);
          expect((await answer.json()).code).toBe('BAD_USER_INPUT');
          return;
        }
        expect([401, 429], `${answer.status} for a username of ${username.length} characters`).toContain(answer.status);
        expect((await answer.json()).code).toMatch(/^(UNAUTHENTICATED|RATE_LIMITED)$/);
      }),
      { numRuns: 60, seed: 2405 },
    );
  });

  it('keeps what was typed out of the log of a failed login', async () => {
    const sink = new Writable({ write(chunk, _e, done) { logLines.push(JSON.parse(String(chunk))); done(); } });
    const logged = await startApp({ ...loadSameConfig(app), port: 0 }, pino({ level: 'info' }, sink));
    try {
      await fetch(`${logged.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'S3cret-Typed-In-Username-Field', password: 'hunter2-typed' }) });
      const text = JSON.stringify(logLines);
      expect(text).toContain('login failed');
      expect(text).not.toContain('S3cret-Typed');
      expect(text).not.toContain('hunter2');
    } finally {
      await logged.stop();
    }
  });
});

describe('GraphQL document limits', () => {
  it(`refuses a mutation operation with more than ${MAX_MUTATION_ROOT_FIELDS} root fields, fragments included, before running any`, async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `r${i}: register(input: { username: "alias${i}", email: "alias${i}@example.com", password: "customer-pass-1" }) { message }`).join(' ');
    const refused = await app.graphql(`mutation { ${aliases(MAX_MUTATION_ROOT_FIELDS + 1)} }`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0].message).toMatch(/at most 10 fields/);
    const viaFragment = await app.graphql(`mutation { ...F ...F2 } fragment F on Mutation { ${aliases(6)} } fragment F2 on Mutation { x1: logout x2: logout x3: logout x4: logout x5: logout }`);
    expect(viaFragment.status).toBe(400);
    expect(await app.sql(`select id from app_user where username like 'alias%'`)).toEqual([]);
    // Ten are fine (queries are bounded by cost, not by this rule).
    const ten = await app.graphql(`mutation { ${Array.from({ length: 10 }, (_, i) => `l${i}: login(input: { username: "nobody${i}", password: "x" }) { token }`).join(' ')} }`);
    expect(ten.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it(`refuses a document of more than ${MAX_DOCUMENT_TOKENS} tokens`, async () => {
    const res = await app.graphql(`{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: me { id }`).join(' ')} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].message).toMatch(/tokens/);
  });
});

/** Sends the head of a multipart request and as much of the body as given, then waits for the answer without ending it. */
function partialUpload(pathname: string, headers: Record<string, string>, bodyStart = ''): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders; req: http.ClientRequest }> {
  const url = new URL(app.url + pathname);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=XyZ', 'content-length': String(50 * 1024 * 1024), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null'), headers: res.headers, req }));
    });
    req.on('error', reject);
    req.write(bodyStart);
  });
}

const operations = `--XyZ\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: 'mutation($f: [Upload!]!) { uploadProductMedia(files: $f) { id } }', variables: { f: [null] } })}\r\n--XyZ\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.f.0"]}\r\n--XyZ\r\nContent-Disposition: form-data; name="0"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;

describe('uploads', () => {
  it('refuses an anonymous or customer upload to /graphql before reading its body, storing nothing anywhere', async () => {
    const anonymous = await partialUpload('/graphql', { 'apollo-require-preflight': 'true' }, operations + 'x'.repeat(64 * 1024));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(anonymous.headers.connection).toBe('close');
    anonymous.req.destroy();
    const customer = await partialUpload('/graphql', { 'apollo-require-preflight': 'true', authorization: `Bearer ${await app.customer()}` }, operations);
    expect(customer.status).toBe(403);
    customer.req.destroy();
    expect(stagedNames(app)).toEqual([]);
    expect(storedNames(app)).toEqual([]);
  });

  it("answers 401/403 to an anonymous or customer upload without Apollo's CSRF header, not the CSRF 400", async () => {
    const anonymous = await partialUpload('/graphql', {}, operations);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    anonymous.req.destroy();
    const customer = await partialUpload('/graphql', { authorization: `Bearer ${await app.customer()}` }, operations);
    expect(customer.status).toBe(403);
    expect(customer.body.errors[0].extensions.code).toBe('FORBIDDEN');
    customer.req.destroy();
    expect(stagedNames(app)).toEqual([]);
  });

  it("refuses a multipart /graphql request without Apollo's CSRF header, even from an admin", async () => {
    const res = await partialUpload('/graphql', { authorization: `Bearer ${await app.login()}` }, operations);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/cross-site request forgery/);
    res.req.destroy();
  });

  it('refuses anonymous REST uploads before their body is read', async () => {
    const res = await partialUpload('/api/media/files/upload-for-product', {}, '--XyZ\r\n');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.any(String) });
    res.req.destroy();
  });

  it('caps the uploads received at once (429), and frees the slot when one ends', async () => {
    const admin = await app.login();
    const url = new URL(app.url + '/graphql');
    // An upload that holds the one slot: its body never ends. Should a poll's upload hold the slot at
    // the moment it arrives, it is refused itself; it is then sent again before the next poll's upload.
    let refused = false;
    const hold = () => {
      const request = http.request({ host: url.hostname, port: url.port, path: '/graphql', method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=XyZ', 'content-length': String(10 * 1024 * 1024), 'apollo-require-preflight': 'true', authorization: `Bearer ${admin}` } });
      request.on('error', () => undefined);
      request.on('response', () => (refused = true));
      request.write(operations);
      return request;
    };
    let held = hold();
    await expect
      .poll(
        async () => {
          if (refused) {
            refused = false;
            held = hold();
            return 'held again';
          }
          return (await uploadGraphQL(app, 'mutation($files: [Upload!]!) { uploadProductMedia(files: $files) { id } }', {}, [{ name: 'a.png', data: await png(20, 20) }], admin)).status;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(429);
    held.destroy();
    await expect.poll(async () => (await uploadGraphQL(app, 'mutation($files: [Upload!]!) { uploadProductMedia(files: $files) { id } }', {}, [{ name: 'a.png', data: await png(20, 20) }], admin)).status, { timeout: 30_000 }).toBe(200);
  });
});

/** A second process's configuration: the same database and secrets as the test app. */
function loadSameConfig(test: TestApp) {
  return { ...test.config };
}
