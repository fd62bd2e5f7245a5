import { SignJWT, decodeJwt } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { createServices } from '../../server/src/services.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ loginLimits: { perUsername: 4, perAddress: 1000, windowSeconds: 900 } });
});
afterAll(async () => {
  await app?.stop();
});

const register = (json: unknown) => app.request('/api/register', { method: 'POST', json });

describe('REST auth', () => {
  it('registers a customer and answers 201 with the message and the public user', async () => {
    const res = await register({ username: 'alice', email: 'Alice@Example.com', password: 'correct-horse' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      message: 'Successfully registered with email alice@example.com',
      user: { id: expect.any(Number), username: 'alice', email: 'alice@example.com' },
    });
    const [row] = await app.sql<{ role: string; password_hash: string }>('select role, password_hash from app_user where username = $1', ['alice']);
    expect(row.role).toBe('customer');
    // The suite's own cheap cost (TEST_PASSWORD_HASH_COST); the shop's is held below.
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
  });

  it('hashes with argon2id at 64 MiB, 3 passes and 4 lanes unless a test says otherwise, and checks hashes of any cost', async () => {
    const shop = createServices(loadConfig({}), 'secret', { log: pino({ level: 'silent' }) });
    const hash = await shop.auth.passwords.hash('correct-horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
    expect(await shop.auth.passwords.verify(hash, 'correct-horse')).toBe(true);
    expect(await shop.auth.passwords.verify(hash, 'correct-horsf')).toBe(false);
    // A password hashed at another cost (an older one, or the suite's) still signs in.
    const [row] = await app.sql<{ password_hash: string }>('select password_hash from app_user where username = $1', ['alice']);
    expect(await shop.auth.passwords.verify(row!.password_hash, 'correct-horse')).toBe(true);
  });

  it('refuses a taken username (whatever its case) or e-mail with 409', async () => {
    const byName = await register({ username: 'ALICE', email: 'other@example.com', password: 'correct-horse' });
    expect(byName.status).toBe(409);
    expect(await byName.json()).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/username/i) });
    const byEmail = await register({ username: 'alice2', email: 'alice@example.com', password: 'correct-horse' });
    expect(byEmail.status).toBe(409);
    expect((await byEmail.json()).code).toBe('CONFLICT');
    expect(await app.sql('select 1 from app_user where username = $1', ['alice2'])).toHaveLength(0);
  });

  it.each([
    [{ username: 'bob', email: 'bob@example.com', password: 'short' }, 'password'],
    [{ username: 'bob', email: 'not-an-email', password: 'long-enough' }, 'email'],
    [{ username: 'b', email: 'bob@example.com', password: 'long-enough' }, 'username'],
    [{ username: 'bob smith', email: 'bob@example.com', password: 'long-enough' }, 'username'],
    [{}, 'username'],
  ])('refuses bad registration input %j with 400 naming the field', async (json, field) => {
    const res = await register(json);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_USER_INPUT', field, message: expect.any(String) });
    expect(await app.sql('select 1 from app_user where username = $1', ['bob'])).toHaveLength(0);
  });

  it('answers 400 to a malformed JSON body', async () => {
    const res = await app.request('/api/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username": ' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'BAD_USER_INPUT' });
  });

  it('logs in with the raw token text, a JWT carrying the contract claims', async () => {
    const res = await app.request('/api/login', { method: 'POST', json: { username: ADMIN.username, password: ADMIN.password } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const token = await res.text();
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: expect.any(String), username: 'admin', email: ADMIN.email, role: 'admin', jti: expect.any(String) });
    expect(claims.exp! - claims.iat!).toBe(8 * 3600);
  });

  it('answers 401 with the exact message to a wrong password and to an unknown user', async () => {
    for (const username of ['alice', 'nobody-here']) {
      const res = await app.request('/api/login', { method: 'POST', json: { username, password: 'wrong-password' } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Invalid username or password', code: 'UNAUTHENTICATED' });
    }
  });

  it('answers /api/me with the caller, 401 without a token or with a garbage one', async () => {
    const token = await app.login('alice', 'correct-horse');
    const me = await app.request('/api/me', { token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'alice', role: 'customer' });
    expect((await app.request('/api/me')).status).toBe(401);
    const garbage = await app.request('/api/me', { token: 'not.a.token' });
    expect(garbage.status).toBe(401);
    expect((await garbage.json()).code).toBe('UNAUTHENTICATED');
  });

  it('refuses an expired token with 401', async () => {
    const [user] = await app.sql<{ id: number }>('select id from app_user where username = $1', ['alice']);
    const expired = await new SignJWT({ username: 'alice', email: 'alice@example.com', role: 'customer' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setJti(crypto.randomUUID())
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode('test-secret-' + app.databaseName));
    const res = await app.request('/api/me', { token: expired });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Token expired', code: 'UNAUTHENTICATED' });
  });

  it('revokes the token on logout (204) and keeps other sessions alive', async () => {
    const first = await app.login('alice', 'correct-horse');
    const second = await app.login('alice', 'correct-horse');
    const res = await app.request('/api/logout', { method: 'POST', token: first });
    expect(res.status).toBe(204);
    expect((await app.request('/api/me', { token: first })).status).toBe(401);
    expect((await app.request('/api/me', { token: second })).status).toBe(200);
    expect((await app.request('/api/logout', { method: 'POST' })).status).toBe(401);
  });

  it('changes the password: every older token stops working, the fresh one works', async () => {
    const older = await app.login('alice', 'correct-horse');
    const caller = await app.login('alice', 'correct-horse');
    const short = await app.request('/api/change-password', { method: 'POST', token: caller, json: { newPassword: 'short' } });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'newPassword' });

    const res = await app.request('/api/change-password', { method: 'POST', token: caller, json: { newPassword: 'battery-staple' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ message: 'Password changed successfully', token: expect.any(String) });
    for (const old of [older, caller]) expect((await app.request('/api/me', { token: old })).status).toBe(401);
    expect((await app.request('/api/me', { token: body.token })).status).toBe(200);
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'alice', password: 'correct-horse' } })).status).toBe(401);
    expect(await app.login('alice', 'battery-staple')).toEqual(expect.any(String));
    expect((await app.request('/api/change-password', { method: 'POST', json: { newPassword: 'whatever-long' } })).status).toBe(401);
  });

  it('rate-limits failed logins per username with 429 and Retry-After, even for the right password', async () => {
    await register({ username: 'carol', email: 'carol@example.com', password: 'carol-password' });
    for (let i = 0; i < 4; i++) {
      const res = await app.request('/api/login', { method: 'POST', json: { username: 'carol', password: 'wrong-one' } });
      expect(res.status).toBe(401);
    }
    const limited = await app.request('/api/login', { method: 'POST', json: { username: 'carol', password: 'carol-password' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Another user from the same address is not affected by carol's limit.
    expect(await app.login(ADMIN.username, ADMIN.password)).toEqual(expect.any(String));
  });
});

describe('changing the password needs the current one, unless the session is fresh', () => {
  const CHANGE = 'mutation($input: ChangePasswordInput!) { changePassword(input: $input) { message token } }';
  const change = (token: string, json: Record<string, unknown>) => app.request('/api/change-password', { method: 'POST', token, json });
  /** A session signed in `minutes` ago (its row says when it was issued). */
  const agedSession = async (username: string, password: string, minutes: number) => {
    const token = await app.login(username, password);
    await app.sql(`update auth_session set created_at = now() - make_interval(mins => $2) where jti = $1`, [decodeJwt(token).jti, minutes]);
    return token;
  };
  const failures = async (username: string) => (await app.sql<{ points: number }>(`select points from rate_limit where key = $1`, [`login-user:${username}`]))[0]?.points ?? 0;

  it('over REST: 403 REAUTHENTICATE without it after 10 minutes, 400 on the field for a wrong one (counted as a failed login), 200 with the right one', async () => {
    await register({ username: 'frank', email: 'frank@example.com', password: 'frank-password' });
    const stale = await agedSession('frank', 'frank-password', 11);
    const missing = await change(stale, { newPassword: 'stolen-password' });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({ code: 'REAUTHENTICATE', message: expect.any(String) });

    const before = await failures('frank');
    const wrong = await change(stale, { newPassword: 'stolen-password', currentPassword: 'not-frank' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: 'BAD_USER_INPUT', field: 'currentPassword', message: 'That password is not right.' });
    expect(await failures('frank')).toBe(before + 1);
    expect((await app.request('/api/me', { token: stale })).status).toBe(200);
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'frank', password: 'stolen-password' } })).status).toBe(401);

    const right = await change(stale, { newPassword: 'frank-second-pass', currentPassword: 'frank-password' });
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ message: 'Password changed successfully', token: expect.any(String) });
    expect(await app.login('frank', 'frank-second-pass')).toEqual(expect.any(String));
  });

  it('over REST: a session issued less than 10 minutes ago may leave it out; a wrong one is refused all the same', async () => {
    await register({ username: 'gina', email: 'gina@example.com', password: 'gina-password' });
    const recent = await agedSession('gina', 'gina-password', 9);
    expect(await (await change(recent, { newPassword: 'gina-second-pass', currentPassword: 'wrong-one' })).json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'currentPassword' });
    const res = await change(recent, { newPassword: 'gina-second-pass' });
    expect(res.status).toBe(200);
    // The fresh token the change answers is itself fresh.
    const fresh = (await res.json()).token;
    expect((await change(fresh, { newPassword: 'gina-third-pass' })).status).toBe(200);
  });

  it('over GraphQL: the same answers', async () => {
    await register({ username: 'hank', email: 'hank@example.com', password: 'hank-password' });
    const stale = await agedSession('hank', 'hank-password', 11);
    const missing = await app.graphql(CHANGE, { input: { newPassword: 'stolen-password' } }, stale);
    expect(missing.body.errors?.map((e) => e.extensions?.code)).toEqual(['REAUTHENTICATE']);
    const wrong = await app.graphql(CHANGE, { input: { newPassword: 'stolen-password', currentPassword: 'not-hank' } }, stale);
    expect(wrong.body.errors?.[0]).toMatchObject({ message: 'That password is not right.', extensions: { code: 'BAD_USER_INPUT', field: 'currentPassword' } });
    const right = await app.graphql(CHANGE, { input: { newPassword: 'hank-second-pass', currentPassword: 'hank-password' } }, stale);
    expect(right.body.data.changePassword).toEqual({ message: 'Password changed successfully', token: expect.any(String) });
  });
});

describe('GraphQL auth', () => {
  const LOGIN = 'mutation($input: LoginInput!) { login(input: $input) { token user { id username email role } } }';

  it('registers, logs in, answers me, logs out', async () => {
    const reg = await app.graphql(
      'mutation($input: RegisterInput!) { register(input: $input) { message user { username email role } } }',
      { input: { username: 'dave', email: 'dave@example.com', password: 'dave-password' } },
    );
    expect(reg.body.data.register).toEqual({
      message: 'Successfully registered with email dave@example.com',
      user: { username: 'dave', email: 'dave@example.com', role: 'CUSTOMER' },
    });
    const login = await app.graphql(LOGIN, { input: { username: 'dave', password: 'dave-password' } });
    const { token, user } = login.body.data.login;
    expect(user).toMatchObject({ username: 'dave', role: 'CUSTOMER' });
    expect((await app.graphql('{ me { username } }', {}, token)).body.data.me).toEqual({ username: 'dave' });
    expect((await app.graphql('{ me { username } }')).body.data.me).toBeNull();
    expect((await app.graphql('mutation { logout }', {}, token)).body.data.logout).toBe(true);
    expect((await app.graphql('{ me { username } }', {}, token)).body.data.me).toBeNull();
  });

  it('gives errors with extensions.code and the field', async () => {
    const dup = await app.graphql('mutation($input: RegisterInput!) { register(input: $input) { message } }', {
      input: { username: 'dave', email: 'new@example.com', password: 'dave-password' },
    });
    expect(dup.body.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', field: 'username' });
    const bad = await app.graphql('mutation($input: RegisterInput!) { register(input: $input) { message } }', {
      input: { username: 'erin', email: 'erin@example.com', password: '123' },
    });
    expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });
    const wrong = await app.graphql(LOGIN, { input: { username: 'dave', password: 'nope-nope' } });
    expect(wrong.body.errors?.[0]).toMatchObject({ message: 'Invalid username or password', extensions: { code: 'UNAUTHENTICATED' } });
    const anonymous = await app.graphql('mutation { logout }');
    expect(anonymous.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('changes the password and returns a fresh token', async () => {
    const token = (await app.graphql(LOGIN, { input: { username: 'dave', password: 'dave-password' } })).body.data.login.token;
    const res = await app.graphql('mutation($input: ChangePasswordInput!) { changePassword(input: $input) { message token } }', { input: { newPassword: 'dave-new-password' } }, token);
    expect(res.body.data.changePassword.message).toBe('Password changed successfully');
    expect((await app.graphql('{ me { username } }', {}, token)).body.data.me).toBeNull();
    expect((await app.graphql('{ me { username } }', {}, res.body.data.changePassword.token)).body.data.me).toEqual({ username: 'dave' });
  });

  it('rate-limits the login mutation too, with HTTP 429 and Retry-After', async () => {
    for (let i = 0; i < 4; i++) await app.graphql(LOGIN, { input: { username: 'dave', password: 'wrong-again' } });
    const limited = await app.graphql(LOGIN, { input: { username: 'dave', password: 'dave-new-password' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body.errors?.[0].extensions?.code).toBe('RATE_LIMITED');
  });
});
