import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, mailsTo, queueIdle, waitForMail } from '../helpers/account-mail.js';
import { orderInput, placeOrder, seedShop, type Shop } from '../helpers/order-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The account's address (contract section 11): confirmation on registering (7 days), "Send the link
 * again", the guest orders that join once confirmed (and only then), and changing the address
 * (password, then a link to the new address; the old address is told). REST and GraphQL, with the
 * links read from the outbox and followed.
 */

const CONFIRM = 'Confirm your e-mail address';
const NEW_ADDRESS = 'Confirm your new e-mail address';
const CHANGED = 'Your Art & Song Cards address was changed';
const PASSWORD = 'customer-pass-1';

let app: TestApp;
let shop: Shop;

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' });
  shop = await seedShop(app, await app.login());
});
afterAll(async () => {
  await app?.stop();
});

async function register(username: string, email = `${username}@example.com`): Promise<{ id: number; token: string }> {
  const res = await app.request('/api/register', { method: 'POST', json: { username, email, password: PASSWORD } });
  expect(res.status).toBe(201);
  return { id: (await res.json()).user.id, token: await app.login(username, PASSWORD) };
}

const guestOrder = async (email: string) => (await placeOrder(app, orderInput(shop, { purchaserEmail: email }))).body.data.placeOrder.id as string;
const myOrderIds = async (token: string) => (await app.graphql(`{ myOrders(first: 50) { edges { node { id } } } }`, {}, token)).body.data.myOrders.edges.map((e: { node: { id: string } }) => e.node.id).sort();
const account = async (token: string) => (await app.request('/api/account', { token })).json();
const verify = (token: string) => app.request('/api/verify-email', { method: 'POST', json: { token } });
const tokenOf = (eml: string) => linkIn(eml, '/verify-email').searchParams.get('token')!;

describe('confirming the address of a new account', () => {
  it('registering e-mails a 7-day link; once it is opened, the guest orders of the address join the account', async () => {
    const earlier = [await guestOrder('wren@example.com'), await guestOrder('WREN@example.com')];
    const other = await guestOrder('not-wren@example.com');
    const wren = await register('wren');
    const mail = await waitForMail(app, 'wren@example.com', CONFIRM);
    expect(linkIn(mail, '/verify-email').origin).toBe('https://cards.example');
    expect(mail).toContain('You receive this e-mail because an Art & Song Cards account (wren) was created with this address.');
    const [row] = await app.sql<{ expires_at: Date }>(`select expires_at from account_token where purpose = 'email-confirm' and user_id = $1`, [wren.id]);
    expect((row!.expires_at.getTime() - Date.now()) / 86_400_000).toBeCloseTo(7, 1);

    // Not confirmed: /account's reminder, and no guest order joined.
    expect(await account(wren.token)).toMatchObject({ email_confirmed: false });
    expect((await app.graphql(`{ myAccount { emailConfirmed } }`, {}, wren.token)).body.data.myAccount.emailConfirmed).toBe(false);
    expect(await myOrderIds(wren.token)).toEqual([]);

    const res = await verify(tokenOf(mail));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Your e-mail address is confirmed.', email: 'wren@example.com', token: null });
    expect(await account(wren.token)).toMatchObject({ email_confirmed: true, email_confirmed_at: expect.any(String) });
    expect(await myOrderIds(wren.token)).toEqual([...earlier].sort());
    expect(await myOrderIds(wren.token)).not.toContain(other);

    // Once only.
    const again = await verify(tokenOf(mail));
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('never by typing someone else’s address: an unconfirmed account takes no one’s orders, and forged links do nothing', async () => {
    const victims = [await guestOrder('xena@example.com')];
    const thief = await register('xena_thief', 'xena@example.com');
    await waitForMail(app, 'xena@example.com', CONFIRM);
    for (const forged of ['A'.repeat(43), 'not-a-token', '']) {
      const res = await verify(forged);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    }
    const gql = await app.graphql(`mutation { verifyEmail(token: "${'B'.repeat(43)}") { message } }`, {}, thief.token);
    expect(gql.body.errors![0]!.extensions!.code).toBe('TOKEN_INVALID');
    expect(await myOrderIds(thief.token)).toEqual([]);
    expect(await app.sql('select user_id from "order" where id = $1', [victims[0]])).toEqual([{ user_id: null }]);
    // Asking for the link again sends it to the address, never to the one asking.
    const resent = await app.request('/api/verify-email/resend', { method: 'POST', token: thief.token });
    expect(resent.status).toBe(202);
    expect(await resent.json()).toEqual({ message: 'We have sent a new link to xena@example.com.' });
    await waitForMail(app, 'xena@example.com', CONFIRM, 2);
    expect(await myOrderIds(thief.token)).toEqual([]);
  });

  it('"Send the link again" over GraphQL: a new link, at most 5 e-mails an hour; nothing once confirmed', async () => {
    const yara = await register('yara');
    await waitForMail(app, 'yara@example.com', CONFIRM);
    const resend = () => app.graphql(`mutation { resendEmailConfirmation { message } }`, {}, yara.token);
    expect((await resend()).body.data.resendEmailConfirmation.message).toBe('We have sent a new link to yara@example.com.');
    const second = await waitForMail(app, 'yara@example.com', CONFIRM, 2);
    for (let i = 0; i < 4; i++) await resend();
    const limited = await resend();
    expect(limited.body.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
    // Six e-mails went out (a link still queued once the address is confirmed would be dropped unsent).
    await waitForMail(app, 'yara@example.com', CONFIRM, 6);
    // Either link confirms (the newer one here); the account then needs no more links.
    expect((await verify(tokenOf(second))).status).toBe(200);
    await queueIdle(app);
    const confirmed = await app.request('/api/verify-email/resend', { method: 'POST', token: yara.token });
    expect(await confirmed.json()).toEqual({ message: 'Your e-mail address is already confirmed.' });
    expect(mailsTo(app, 'yara@example.com', CONFIRM)).toHaveLength(6);
    expect((await app.request('/api/verify-email/resend', { method: 'POST' })).status).toBe(401);
  });
});

describe('changing the address', () => {
  it('needs the password; the new address takes effect once its link is opened; the old one is told', async () => {
    const zoe = await register('zoe');
    await verify(tokenOf(await waitForMail(app, 'zoe@example.com', CONFIRM)));
    const guest = await guestOrder('zoe.new@example.com');
    const ask = (json: Record<string, unknown>) => app.request('/api/account/email', { method: 'POST', token: zoe.token, json });

    const wrong = await ask({ new_email: 'zoe.new@example.com', password: 'wrong-password' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'password' });
    const same = await ask({ new_email: 'ZOE@example.com', password: PASSWORD });
    expect(await same.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'new_email' });
    const bad = await ask({ new_email: 'not an address', password: PASSWORD });
    expect(await bad.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'new_email' });

    const res = await ask({ new_email: 'Zoe.New@example.com', password: PASSWORD });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ message: 'We have sent a link to zoe.new@example.com. Your address changes once you open it.' });
    expect(await account(zoe.token)).toMatchObject({ email: 'zoe@example.com', pending_email: 'zoe.new@example.com' });
    expect(await myOrderIds(zoe.token)).not.toContain(guest);

    const link = await waitForMail(app, 'zoe.new@example.com', NEW_ADDRESS);
    const done = await verify(tokenOf(link));
    expect(await done.json()).toEqual({ message: 'Your address is now zoe.new@example.com.', email: 'zoe.new@example.com', token: null });
    expect(await account(zoe.token)).toMatchObject({ email: 'zoe.new@example.com', email_confirmed: true, pending_email: null });
    expect(await myOrderIds(zoe.token)).toContain(guest);
    // The old address is told, with the new one.
    const notice = await waitForMail(app, 'zoe@example.com', CHANGED);
    expect(notice).toContain('zoe.new@example.com');
    expect(notice).toContain('https://cards.example/forgot-password');
    // Signing in with the new address works; the old one names no account any more.
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'zoe.new@example.com', password: PASSWORD } })).status).toBe(200);
    expect((await app.request('/api/login', { method: 'POST', json: { username: 'zoe@example.com', password: PASSWORD } })).status).toBe(401);
    expect(await (await verify(tokenOf(link))).json()).toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('to an address another account uses: the same answer; its link is refused (409) and nothing changes', async () => {
    await register('abe');
    const bo = await register('boz');
    const asked = await app.graphql(`mutation($p: String!) { changeEmail(input: { newEmail: "abe@example.com", password: $p }) { message } }`, { p: PASSWORD }, bo.token);
    expect(asked.body.data.changeEmail.message).toBe('We have sent a link to abe@example.com. Your address changes once you open it.');
    const link = await waitForMail(app, 'abe@example.com', NEW_ADDRESS);
    const res = await verify(tokenOf(link));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'CONFLICT', message: 'Another account already uses this address.' });
    expect(await account(bo.token)).toMatchObject({ email: 'boz@example.com' });
    expect(await app.sql(`select username from app_user where email = 'abe@example.com'`)).toEqual([{ username: 'abe' }]);
  });

  it('over GraphQL with the account’s own session: the session continues under the new address', async () => {
    const cy = await register('cyan');
    await app.graphql(`mutation($p: String!) { changeEmail(input: { newEmail: "cyan2@example.com", password: $p }) { message } }`, { p: PASSWORD }, cy.token);
    expect((await app.graphql(`{ myAccount { email pendingEmail pendingEmailSentAt } }`, {}, cy.token)).body.data.myAccount).toMatchObject({ email: 'cyan@example.com', pendingEmail: 'cyan2@example.com', pendingEmailSentAt: expect.any(String) });
    const link = await waitForMail(app, 'cyan2@example.com', NEW_ADDRESS);
    // A newer request replaces the earlier link.
    await app.graphql(`mutation($p: String!) { changeEmail(input: { newEmail: "cyan3@example.com", password: $p }) { message } }`, { p: PASSWORD }, cy.token);
    expect(await (await verify(tokenOf(link))).json()).toMatchObject({ code: 'TOKEN_INVALID' });
    const newer = await waitForMail(app, 'cyan3@example.com', NEW_ADDRESS);
    const done = await app.graphql(`mutation($t: String!) { verifyEmail(token: $t) { message email token } }`, { t: tokenOf(newer) }, cy.token);
    const fresh = done.body.data.verifyEmail;
    expect(fresh).toMatchObject({ email: 'cyan3@example.com', token: expect.any(String) });
    expect(JSON.parse(Buffer.from(fresh.token.split('.')[1], 'base64url').toString()).email).toBe('cyan3@example.com');
    expect((await app.request('/api/me', { token: fresh.token })).status).toBe(200);
    expect((await app.request('/api/me', { token: cy.token })).status).toBe(401);
    await waitForMail(app, 'cyan@example.com', CHANGED);
  });

  it('only for a signed-in caller', async () => {
    expect((await app.request('/api/account/email', { method: 'POST', json: { new_email: 'x@example.com', password: PASSWORD } })).status).toBe(401);
    expect((await app.graphql(`mutation { changeEmail(input: { newEmail: "x@example.com", password: "x" }) { message } }`)).body.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });
});
