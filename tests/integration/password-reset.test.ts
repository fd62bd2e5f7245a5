import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, mailHeader, mailsTo, queueIdle, waitForMail } from '../helpers/account-mail.js';
import { manualClock, orderInput, placeOrder, seedShop } from '../helpers/order-fixtures.js';
import { recordQueries } from '../helpers/queries.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Password reset (contract section 11): "Forgot password?" e-mails a link (1 hour, once) that sets a
 * new password and ends every session; the answer, the work and the e-mail tell nothing about
 * whether an address has an account; only a digest of the token is kept; limits per client address
 * and per e-mail address. REST and GraphQL, the links read from the outbox and followed.
 */

const SUBJECT = 'Reset your Art & Song Cards password';
const ANSWER = 'If an account uses that address, we have sent it a link.';
const PASSWORD = 'customer-pass-1';
const clock = manualClock(new Date().toISOString());

let app: TestApp;
/** Each test asks from its own client address (TRUST_PROXY=1), so that the per-address limit is its own. */
let client = 0;
const from = () => ({ 'x-forwarded-for': `198.51.100.${++client}` });

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example', trustProxy: 1 }, { clock: clock.now });
});
afterAll(async () => {
  await app?.stop();
});

async function register(name: string): Promise<void> {
  const res = await app.request('/api/register', { method: 'POST', json: { username: name, email: `${name}@example.com`, password: PASSWORD }, headers: from() });
  expect(res.status).toBe(201);
}

const ask = (email: string, headers: Record<string, string> = from()) => app.request('/api/password-reset', { method: 'POST', json: { email }, headers });
const confirm = (token: string, password: string) => app.request('/api/password-reset/confirm', { method: 'POST', json: { token, password }, headers: from() });
const me = (token: string) => app.request('/api/me', { token });

describe('resetting a password over REST', () => {
  it('e-mails a link; it sets the new password once, and every earlier session ends', async () => {
    await register('rosa');
    const sessions = [await app.login('rosa', PASSWORD), await app.login('rosa', PASSWORD)];
    const res = await ask(' Rosa@Example.com ');
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ message: ANSWER });

    const mail = await waitForMail(app, 'rosa@example.com', SUBJECT);
    const link = linkIn(mail, '/reset-password');
    expect(link.origin + link.pathname).toBe('https://cards.example/reset-password');
    expect(mail).toContain('rosa');
    expect(mail).toContain('You receive this e-mail because someone asked');
    const token = link.searchParams.get('token')!;
    // Only a digest of the token is kept; the queued e-mail keeps no seed once sent.
    const [row] = await app.sql<{ token_hash: string; expires_at: Date; user_id: number }>(`select token_hash, expires_at, user_id from account_token where purpose = 'password-reset' and email = 'rosa@example.com'`);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await app.sql('select * from account_token'))).not.toContain(token);
    expect(JSON.stringify(await app.sql(`select payload from mail_job where kind = 'password-reset'`))).not.toContain('seed');
    expect((row!.expires_at.getTime() - clock.now().getTime()) / 60_000).toBeCloseTo(60, 0);

    // Too short: refused, and the link still works afterwards.
    const short = await confirm(token, 'short');
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });

    const done = await confirm(token, 'a-brand-new-pass');
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ message: 'Your password has been set. Sign in with it.' });
    for (const session of sessions) expect((await me(session)).status).toBe(401);
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'rosa', password: PASSWORD } })).status).toBe(401);
    expect((await me(await app.login('rosa', 'a-brand-new-pass'))).status).toBe(200);

    // Single use.
    const again = await confirm(token, 'yet-another-pass');
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await me(await app.login('rosa', 'a-brand-new-pass'))).status).toBe(200);
  });

  it('refuses unknown, tampered, malformed, expired and replaced links (400 TOKEN_INVALID), changing nothing', async () => {
    await register('sven');
    await ask('sven@example.com');
    const token = linkIn(await waitForMail(app, 'sven@example.com', SUBJECT), '/reset-password').searchParams.get('token')!;
    const flipped = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    for (const bad of [flipped, token.slice(1), `${token}x`, 'x'.repeat(43), '', 'not a token at all']) {
      const res = await confirm(bad, 'sven-new-password');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    }
    expect((await app.request('/api/password-reset/confirm', { method: 'POST', json: { password: 'sven-new-password' } })).status).toBe(400);
    expect((await me(await app.login('sven', PASSWORD))).status).toBe(200);

    // A newer reset ends the earlier link once it is used.
    await ask('sven@example.com');
    const newer = linkIn(await waitForMail(app, 'sven@example.com', SUBJECT, 2), '/reset-password').searchParams.get('token')!;
    expect(newer).not.toBe(token);
    expect((await confirm(newer, 'sven-second-pass')).status).toBe(200);
    expect(await (await confirm(token, 'sven-third-pass')).json()).toMatchObject({ code: 'TOKEN_INVALID' });

    // An hour later a link no longer works.
    await ask('sven@example.com');
    const late = linkIn(await waitForMail(app, 'sven@example.com', SUBJECT, 3), '/reset-password').searchParams.get('token')!;
    clock.set(new Date(clock.now().getTime() + 61 * 60_000).toISOString());
    try {
      expect(await (await confirm(late, 'sven-late-password')).json()).toMatchObject({ code: 'TOKEN_INVALID' });
    } finally {
      clock.set(new Date(clock.now().getTime() - 61 * 60_000).toISOString());
    }
    expect((await me(await app.login('sven', 'sven-second-pass'))).status).toBe(200);
  });
});

describe("a change of address or of password ends the account's links", () => {
  const NEW_ADDRESS = 'Confirm your new e-mail address';
  const resetToken = async (email: string, count = 1) => linkIn(await waitForMail(app, email, SUBJECT, count), '/reset-password').searchParams.get('token')!;
  const verify = (token: string) => app.request('/api/verify-email', { method: 'POST', json: { token } });
  const changeAddress = (session: string, newEmail: string) => app.request('/api/account/email', { method: 'POST', token: session, json: { new_email: newEmail, password: PASSWORD } });

  it('a reset link sent to the old address is refused once the new address is confirmed (400 TOKEN_INVALID); the password stays', async () => {
    await register('wanda');
    await ask('wanda@example.com');
    const token = await resetToken('wanda@example.com');
    const session = await app.login('wanda', PASSWORD);
    expect((await changeAddress(session, 'wanda.new@example.com')).status).toBe(202);
    const link = linkIn(await waitForMail(app, 'wanda.new@example.com', NEW_ADDRESS), '/verify-email').searchParams.get('token')!;
    expect((await verify(link)).status).toBe(200);

    const res = await confirm(token, 'stolen-new-password');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'wanda', password: 'stolen-new-password' } })).status).toBe(401);
    expect((await me(await app.login('wanda', PASSWORD))).status).toBe(200);
  });

  it('a password change ends the reset links and a pending change of address', async () => {
    await register('xena');
    await ask('xena@example.com');
    const token = await resetToken('xena@example.com');
    const session = await app.login('xena', PASSWORD);
    expect((await changeAddress(session, 'xena.new@example.com')).status).toBe(202);
    const link = linkIn(await waitForMail(app, 'xena.new@example.com', NEW_ADDRESS), '/verify-email').searchParams.get('token')!;
    const changed = await app.request('/api/change-password', { method: 'POST', token: session, json: { currentPassword: PASSWORD, newPassword: 'xena-second-pass' } });
    expect(changed.status).toBe(200);

    expect(await (await confirm(token, 'stolen-new-password')).json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect(await (await verify(link)).json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect(await app.sql(`select email from app_user where username = 'xena'`)).toEqual([{ email: 'xena@example.com' }]);
    expect((await me(await app.login('xena', 'xena-second-pass'))).status).toBe(200);
  });

  it('a reset ends the other links of the account too', async () => {
    await register('yara');
    const session = await app.login('yara', PASSWORD);
    expect((await changeAddress(session, 'yara.new@example.com')).status).toBe(202);
    const link = linkIn(await waitForMail(app, 'yara.new@example.com', NEW_ADDRESS), '/verify-email').searchParams.get('token')!;
    await ask('yara@example.com');
    expect((await confirm(await resetToken('yara@example.com'), 'yara-second-pass')).status).toBe(200);
    expect(await (await verify(link)).json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect(await app.sql(`select email from app_user where username = 'yara'`)).toEqual([{ email: 'yara@example.com' }]);
  });

  it('a link works only while it names the account\'s current address', async () => {
    await register('zelda');
    await ask('zelda@example.com');
    const token = await resetToken('zelda@example.com');
    // The address changed by any other way than its links (nothing retired the link).
    await app.sql(`update app_user set email = 'zelda.elsewhere@example.com' where username = 'zelda'`);
    const res = await confirm(token, 'stolen-new-password');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect(await app.sql(`select used_at from account_token where email = 'zelda@example.com' and purpose = 'password-reset'`)).toEqual([{ used_at: null }]);
    expect((await me(await app.login('zelda', PASSWORD))).status).toBe(200);
  });
});

describe('resetting a password over GraphQL', () => {
  it('answers the same, and the link works the same', async () => {
    await register('tove');
    const session = await app.login('tove', PASSWORD);
    const asked = await app.graphql(`mutation($e: String!) { requestPasswordReset(input: { email: $e }) { message } }`, { e: 'tove@example.com' });
    expect(asked.body).toEqual({ data: { requestPasswordReset: { message: ANSWER } } });
    const token = linkIn(await waitForMail(app, 'tove@example.com', SUBJECT), '/reset-password').searchParams.get('token')!;
    const bad = await app.graphql(`mutation($t: String!) { resetPassword(input: { token: $t, password: "tove-new-pass" }) { message } }`, { t: token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A') });
    expect(bad.body.errors![0]!.extensions!.code).toBe('TOKEN_INVALID');
    const done = await app.graphql(`mutation($t: String!) { resetPassword(input: { token: $t, password: "tove-new-pass" }) { message } }`, { t: token });
    expect(done.body).toEqual({ data: { resetPassword: { message: 'Your password has been set. Sign in with it.' } } });
    expect((await me(session)).status).toBe(401);
    expect((await app.graphql(`{ me { id } }`, {}, session)).body.data.me).toBeNull();
    await app.login('tove', 'tove-new-pass');
  });
});

describe('nothing tells whether an address has an account', () => {
  it('the same answer, the same statements, and no e-mail for an unknown address', async () => {
    await register('ulla');
    await queueIdle(app);
    // Statements with their values taken out (a null user is a value too): what the request did, not what it found.
    const shape = (queries: string[]) => queries.map((q) => q.replace(/'[^']*'/g, '?').replace(/\bnull\b/g, '?').replace(/\b\d+\b/g, '?'));
    let known: Response | undefined;
    let unknown: Response | undefined;
    // The queue's worker waits meanwhile, so that only the requests' own statements are counted.
    await app.services.deliveries.stop();
    const knownQueries = await recordQueries(app, async () => {
      known = await ask('ulla@example.com');
    });
    const unknownQueries = await recordQueries(app, async () => {
      unknown = await ask('nobody-here@example.com');
    });
    app.services.deliveries.start(app.orm, app.config.deliveryPollSeconds);
    expect(known!.status).toBe(202);
    expect(unknown!.status).toBe(202);
    expect(await unknown!.json()).toEqual(await known!.json());
    expect(shape(unknownQueries)).toEqual(shape(knownQueries));
    expect(knownQueries.some((q) => /insert into "account_token"/.test(q))).toBe(true);
    expect(knownQueries.some((q) => /insert into mail_job/.test(q))).toBe(true);

    // The known address gets its e-mail; the unknown one gets nothing, and keeps no job.
    await waitForMail(app, 'ulla@example.com', SUBJECT);
    await queueIdle(app);
    expect(mailsTo(app, 'nobody-here@example.com', SUBJECT)).toEqual([]);
    expect(await app.sql(`select id from mail_job where recipient = 'nobody-here@example.com'`)).toEqual([]);
    // Its link row can never be used (no account): nothing to take.
    expect(await app.sql(`select user_id from account_token where email = 'nobody-here@example.com'`)).toEqual([{ user_id: null }]);
    // A malformed address is refused the same way whether or not it could exist.
    const malformed = await ask('not-an-address');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email' });
  });

  it('a reset proves the address: it confirms it and its guest orders join the account', async () => {
    const shop = await seedShop(app, await app.login());
    const guest = (await placeOrder(app, orderInput(shop, { purchaserEmail: 'vera@example.com' }))).body.data.placeOrder;
    await register('vera');
    const session = await app.login('vera', PASSWORD);
    expect((await app.graphql(`{ myOrders { totalCount } }`, {}, session)).body.data.myOrders.totalCount).toBe(0);
    await ask('vera@example.com');
    const token = linkIn(await waitForMail(app, 'vera@example.com', SUBJECT), '/reset-password').searchParams.get('token')!;
    expect((await confirm(token, 'vera-new-password')).status).toBe(200);
    const fresh = await app.login('vera', 'vera-new-password');
    const account = await (await app.request('/api/account', { token: fresh })).json();
    expect(account.email_confirmed).toBe(true);
    const orders = (await app.graphql(`{ myOrders { edges { node { id } } } }`, {}, fresh)).body.data.myOrders.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(orders).toEqual([guest.id]);
  });
});

describe('limits', () => {
  it('3 requests per e-mail address and 5 per client address an hour, known address or not (429 RATE_LIMITED)', async () => {
    const one = from();
    for (let i = 0; i < 3; i++) expect((await ask('limited@example.com', one)).status).toBe(202);
    const fourth = await ask('limited@example.com', from());
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await fourth.json()).toMatchObject({ code: 'RATE_LIMITED' });

    const address = from();
    for (let i = 0; i < 5; i++) expect((await ask(`someone${i}@example.com`, address)).status).toBe(202);
    const sixth = await ask('someone-else@example.com', address);
    expect(sixth.status).toBe(429);
    const gql = await app.request('/graphql', { method: 'POST', headers: { ...address, 'content-type': 'application/json' }, body: JSON.stringify({ query: `mutation { requestPasswordReset(input: { email: "x@example.com" }) { message } }` }) });
    expect((await gql.json()).errors[0].extensions.code).toBe('RATE_LIMITED');
    // Kept in PostgreSQL, so that every process counts alike.
    expect((await app.sql(`select key from rate_limit where key like 'reset-%'`)).length).toBeGreaterThan(0);
  });
});

describe('the e-mail', () => {
  it('is the shop’s: from MAIL_FROM, with a plain-text part', async () => {
    const mail = mailsTo(app, 'rosa@example.com', SUBJECT)[0]!;
    expect(mailHeader(mail, 'From')).toContain('Art & Song Cards');
    expect(mail).toContain('Content-Type: text/plain');
    expect(mail).toContain('Content-Type: text/html');
  });
});
