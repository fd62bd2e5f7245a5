import type { User } from '../../../server/src/modules/auth/user.entity.js';
import type { StaffInvitation } from '../../../server/src/modules/staff/staff-invitation.entity.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, type RouteDef } from '../route.js';

const memberJson = (user: User) => ({ id: user.id, username: user.username, email: user.email, role: user.role, created_at: user.createdAt.toISOString() });

const invitationJson = (invitation: StaffInvitation) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  expires_at: invitation.expiresAt.toISOString(),
  created_at: invitation.createdAt.toISOString(),
  email_error: invitation.emailError,
});

/** The staff rows of the REST contract (section 13). */
export function staffRoutes({ staff }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/staff',
      access: 'admin',
      async handler(ctx, _req, res) {
        const { members, invitations } = await staff.list(ctx);
        res.json({ members: members.map(memberJson), invitations: invitations.map(invitationJson) });
      },
    },
    {
      method: 'post',
      path: '/admin/staff',
      access: 'admin',
      async handler(ctx, req, res) {
        const { invitation, acceptUrl } = await staff.invite(ctx, body(req));
        res.status(201).json({ ...invitationJson(invitation), accept_url: acceptUrl });
      },
    },
    {
      method: 'delete',
      path: '/admin/staff/invitations/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await staff.withdrawInvitation(ctx, pathId(req.params.id, 'Invitation'));
        res.status(204).end();
      },
    },
    {
      method: 'put',
      path: '/admin/staff/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        res.json(memberJson(await staff.changeRole(ctx, pathId(req.params.id, 'Staff member'), body(req).role)));
      },
    },
    {
      method: 'delete',
      path: '/admin/staff/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await staff.remove(ctx, pathId(req.params.id, 'Staff member'));
        res.status(204).end();
      },
    },
    {
      method: 'post',
      path: '/staff/accept',
      access: 'public',
      async handler(ctx, req, res) {
        const { token, user } = await staff.accept(ctx, body(req));
        res.status(201).json({ message: `Welcome, ${user.username}: your ${user.role} account is ready.`, token, user: memberJson(user) });
      },
    },
  ];
}
