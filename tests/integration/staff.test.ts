import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../helpers/order-fixtures.js';
import { invite, STAFF_PASSWORD, staffMember } from '../helpers/staff-fixtures.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await startTestApp({ publicUrl: 'https://cards.example' });
  admin = await app.login();
});
afterAll(async () => {
  await app?.stop();
});

const accept = (json: Record<string, unknown>) => app.request('/api/staff/accept', { method: 'POST', json });
const me = (token: string) => app.request('/api/me', { token });

describe('inviting staff', () => {
  it('e-mails a single-use link; accepting makes a signed-in account with the invited role', async () => {
    const res = await app.request('/api/admin/staff', { method: 'POST', token: admin, json: { email: ' Dora@Example.com ', role: 'staff' } });
    expect(res.status).toBe(201);
    const invitation = await res.json();
    expect(invitation).toMatchObject({ email: 'dora@example.com', role: 'staff', email_error: null, accept_url: expect.stringMatching(/^https:\/\/cards\.example\/staff\/accept\?token=[\w-]{40,}$/) });
    const days = (Date.parse(invitation.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // The e-mail (queued with the invitation, sent by the queue at once) carries the same link; only a hash of its token is stored.
    const sent = () => [...outbox(app).values()].find((eml) => eml.includes('To: dora@example.com'));
    await expect.poll(sent, { timeout: 20_000 }).toBeTruthy();
    const mail = sent()!;
    expect(mail).toContain('Subject: You are invited to help run Art & Song Cards');
    expect(mail).toContain(invitation.accept_url);
    const token = new URL(invitation.accept_url).searchParams.get('token')!;
    const [row] = await app.sql<{ token_hash: string }>('select token_hash from staff_invitation where id = $1', [invitation.id]);
    expect(row!.token_hash).not.toContain(token);

    const listed = await (await app.request('/api/admin/staff', { token: admin })).json();
    expect(listed.invitations.map((i: { email: string }) => i.email)).toContain('dora@example.com');

    const accepted = await accept({ token, username: 'dora', password: STAFF_PASSWORD });
    expect(accepted.status).toBe(201);
    const body = await accepted.json();
    expect(body.user).toMatchObject({ username: 'dora', email: 'dora@example.com', role: 'staff' });
    expect((await (await me(body.token)).json()).role).toBe('staff');
    expect((await app.login('dora', STAFF_PASSWORD)).length).toBeGreaterThan(20);

    // Used once: a second use (even with another name) is TOKEN_INVALID, and makes no account.
    const again = await accept({ token, username: 'dora2', password: STAFF_PASSWORD });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect(await app.sql('select id from app_user where username = $1', ['dora2'])).toEqual([]);
    const after = await (await app.request('/api/admin/staff', { token: admin })).json();
    expect(after.invitations.map((i: { email: string }) => i.email)).not.toContain('dora@example.com');
    expect(after.members.map((m: { username: string }) => m.username)).toEqual(expect.arrayContaining(['admin', 'dora']));
  });

  it('refuses unknown, expired and withdrawn links (400 TOKEN_INVALID) and bad input (400), nothing made', async () => {
    expect(await (await accept({ token: 'no-such-token', username: 'zed', password: STAFF_PASSWORD })).json()).toMatchObject({ code: 'TOKEN_INVALID' });
    expect((await accept({ username: 'zed', password: STAFF_PASSWORD })).status).toBe(400);

    const expired = await invite(app, admin, 'late@example.com');
    await app.sql(`update staff_invitation set expires_at = now() - interval '1 second' where email = 'late@example.com'`);
    const late = await accept({ token: expired, username: 'late', password: STAFF_PASSWORD });
    expect(late.status).toBe(400);
    expect((await late.json()).code).toBe('TOKEN_INVALID');

    const withdrawn = await invite(app, admin, 'gone@example.com');
    const [{ id }] = await app.sql<{ id: number }>(`select id from staff_invitation where email = 'gone@example.com'`);
    expect((await app.request(`/api/admin/staff/invitations/${id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await accept({ token: withdrawn, username: 'gone', password: STAFF_PASSWORD })).status).toBe(400);

    // A short password or a bad username is a field error, and the link still works afterwards.
    const fine = await invite(app, admin, 'fine@example.com');
    const short = await accept({ token: fine, username: 'fine', password: 'short' });
    expect(short.status).toBe(400);
    expect((await short.json()).field).toBe('password');
    expect((await accept({ token: fine, username: 'fine', password: STAFF_PASSWORD })).status).toBe(201);
    expect(await app.sql(`select username from app_user where username in ('zed', 'late', 'gone')`)).toEqual([]);
  });

  it('refuses an address with an account (409), a role that is not admin or staff (400), and non-admins (401/403)', async () => {
    const taken = await app.request('/api/admin/staff', { method: 'POST', token: admin, json: { email: 'admin@example.com', role: 'staff' } });
    expect(taken.status).toBe(409);
    expect((await app.request('/api/admin/staff', { method: 'POST', token: admin, json: { email: 'x@example.com', role: 'customer' } })).status).toBe(400);
    expect((await app.request('/api/admin/staff', { method: 'POST', token: admin, json: { email: 'not an address', role: 'staff' } })).status).toBe(400);
    expect((await app.request('/api/admin/staff')).status).toBe(401);
    expect((await app.request('/api/admin/staff', { token: await app.customer() })).status).toBe(403);
    const staff = await staffMember(app, admin);
    expect((await app.request('/api/admin/staff', { token: staff.token })).status).toBe(403);
    expect((await app.request('/api/admin/staff', { method: 'POST', token: staff.token, json: { email: 'y@example.com', role: 'admin' } })).status).toBe(403);
  });
});

describe('staff while the shop is under construction', () => {
  it('see the shop as admins do (the pages of its orders in the console), while customers get 503', async () => {
    const staff = await staffMember(app, admin);
    expect((await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: 'true' } })).status).toBe(200);
    try {
      expect((await app.request('/api/product_types', { token: staff.token })).status).toBe(200);
      expect((await app.request('/api/product_types', { token: await app.customer() })).status).toBe(503);
    } finally {
      await app.request('/api/settings', { method: 'PUT', token: admin, json: { underConstructionMode: 'false' } });
    }
  });
});

describe('changing roles and removing people', () => {
  it('a role change ends the person’s sessions; a removal kills their tokens at once', async () => {
    const member = await staffMember(app, admin);
    const promoted = await app.request(`/api/admin/staff/${member.id}`, { method: 'PUT', token: admin, json: { role: 'admin' } });
    expect(promoted.status).toBe(200);
    expect((await promoted.json()).role).toBe('admin');
    expect((await me(member.token)).status).toBe(401);
    const fresh = await app.login(member.username, STAFF_PASSWORD);
    expect((await app.request('/api/admin/staff', { token: fresh })).status).toBe(200);

    expect((await app.request(`/api/admin/staff/${member.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await me(fresh)).status).toBe(401);
    expect((await app.request('/api/login', { method: 'POST', json: { username: member.username, password: STAFF_PASSWORD } })).status).toBe(401);
    expect((await app.request(`/api/admin/staff/${member.id}`, { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('never removes or demotes the last admin (409), also when two admins demote each other at once', async () => {
    const [{ id: adminId }] = await app.sql<{ id: number }>(`select id from app_user where username = 'admin'`);
    await app.sql(`update app_user set role = 'staff' where role = 'admin' and id <> $1`, [adminId]);
    const demote = await app.request(`/api/admin/staff/${adminId}`, { method: 'PUT', token: admin, json: { role: 'staff' } });
    expect(demote.status).toBe(409);
    expect((await demote.json()).message).toMatch(/at least one admin/);
    expect((await app.request(`/api/admin/staff/${adminId}`, { method: 'DELETE', token: admin })).status).toBe(409);
    expect(await app.sql(`select role from app_user where id = $1`, [adminId])).toEqual([{ role: 'admin' }]);
    // Two admins, each demoting the other at the same moment: one succeeds, one is refused.
    const second = await staffMember(app, admin, 'admin');
    const [a, b] = await Promise.all([
      app.request(`/api/admin/staff/${second.id}`, { method: 'PUT', token: admin, json: { role: 'staff' } }),
      app.request(`/api/admin/staff/${adminId}`, { method: 'PUT', token: second.token, json: { role: 'staff' } }),
    ]);
    // One succeeds; the other is refused: 409 when it found no other admin left, or 401 when its
    // caller was the one demoted (their sessions ended before its request was read).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    expect(await app.sql(`select count(*)::int as admins from app_user where role = 'admin'`)).toEqual([{ admins: 1 }]);
    // Whoever was demoted signs in again; the first admin is made admin again for what follows.
    await app.sql(`update app_user set role = 'admin' where id = $1`, [adminId]);
    admin = await app.login();
    // A customer is not staff: 404.
    const [{ id: customerId }] = await app.sql<{ id: number }>(`select id from app_user where role = 'customer' limit 1`);
    expect((await app.request(`/api/admin/staff/${customerId}`, { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('works the same over GraphQL', async () => {
    const invited = await app.graphql(`mutation { inviteStaff(input: { email: "gql@example.com", role: STAFF }) { acceptUrl invitation { id email role } } }`, {}, admin);
    expect(invited.body.data.inviteStaff.invitation).toMatchObject({ email: 'gql@example.com', role: 'staff' });
    const token = new URL(invited.body.data.inviteStaff.acceptUrl).searchParams.get('token');
    const accepted = await app.graphql(`mutation($t: String!) { acceptStaffInvitation(input: { token: $t, username: "gqlstaff", password: "${STAFF_PASSWORD}" }) { token user { id role } } }`, { t: token });
    expect(accepted.body.data.acceptStaffInvitation.user.role).toBe('STAFF');
    const again = await app.graphql(`mutation($t: String!) { acceptStaffInvitation(input: { token: $t, username: "gqlstaff2", password: "${STAFF_PASSWORD}" }) { token } }`, { t: token });
    expect(again.body.errors?.[0]?.extensions?.code).toBe('TOKEN_INVALID');
    const id = accepted.body.data.acceptStaffInvitation.user.id;
    const changed = await app.graphql(`mutation($id: Int!) { changeStaffRole(id: $id, role: ADMIN) { role } }`, { id }, admin);
    expect(changed.body.data.changeStaffRole.role).toBe('ADMIN');
    const list = await app.graphql(`{ staff { members { username role } invitations { email } } }`, {}, admin);
    expect(list.body.data.staff.members).toEqual(expect.arrayContaining([{ username: 'gqlstaff', role: 'ADMIN' }]));
    expect((await app.graphql(`mutation($id: Int!) { removeStaff(id: $id) }`, { id }, admin)).body.data.removeStaff).toBe(id);
    const forbidden = await app.graphql(`{ staff { members { id } } }`, {}, accepted.body.data.acceptStaffInvitation.token);
    expect(forbidden.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
