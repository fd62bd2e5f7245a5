import crypto from 'node:crypto';
import type { TestApp } from './test-app.js';

export const STAFF_PASSWORD = 'staff-password-1';

/** Invites an address as admin or staff over REST and answers the invitation's link token. */
export async function invite(app: TestApp, adminToken: string, email: string, role: 'admin' | 'staff' = 'staff'): Promise<string> {
  const res = await app.request('/api/admin/staff', { method: 'POST', token: adminToken, json: { email, role } });
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${await res.text()}`);
  return new URL((await res.json()).accept_url).searchParams.get('token')!;
}

/** A new member of staff (or admin), signed in: invited by the admin, then accepted. */
export async function staffMember(app: TestApp, adminToken: string, role: 'admin' | 'staff' = 'staff'): Promise<{ id: number; username: string; token: string }> {
  const username = `${role}${crypto.randomBytes(3).toString('hex')}`;
  const token = await invite(app, adminToken, `${username}@example.com`, role);
  const res = await app.request('/api/staff/accept', { method: 'POST', json: { token, username, password: STAFF_PASSWORD } });
  if (res.status !== 201) throw new Error(`accept failed: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { id: body.user.id, username, token: body.token };
}
