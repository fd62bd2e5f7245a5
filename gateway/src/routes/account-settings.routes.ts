import type { Services } from '../../../server/src/services.js';
import type { AccountView } from '../../../server/src/modules/auth/account-settings.service.js';
import { body, withRestFields, type RouteDef } from '../route.js';

const accountJson = ({ user, pendingEmail }: AccountView) => ({
  id: user.id,
  username: user.username,
  email: user.email,
  email_confirmed: user.emailConfirmedAt !== null,
  email_confirmed_at: user.emailConfirmedAt?.toISOString() ?? null,
  pending_email: pendingEmail?.email ?? null,
  notify_opened: user.notifyOpened,
  created_at: user.createdAt.toISOString(),
});

/** The download's file name: the account's name and the day (the name is letters, digits, `_.-` only). */
const exportFileName = (username: string, at: string) => `art-and-song-cards-${username}-${at.slice(0, 10)}.json`;

/** Password reset, address confirmation and Account settings (contract section 11). */
export function accountSettingsRoutes({ passwordReset, addresses, accountSettings }: Services): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/password-reset',
      access: 'public',
      async handler(ctx, req, res) {
        res.status(202).json(await passwordReset.request(ctx, body(req)));
      },
    },
    {
      method: 'post',
      path: '/password-reset/confirm',
      access: 'public',
      async handler(ctx, req, res) {
        res.json(await passwordReset.confirm(ctx, body(req)));
      },
    },
    {
      method: 'post',
      path: '/verify-email',
      access: 'public',
      async handler(ctx, req, res) {
        res.json(await addresses.verify(ctx, body(req)));
      },
    },
    {
      method: 'post',
      path: '/verify-email/resend',
      access: 'user',
      async handler(ctx, _req, res) {
        res.status(202).json(await addresses.resendConfirmation(ctx));
      },
    },
    {
      method: 'get',
      path: '/account',
      access: 'user',
      async handler(ctx, _req, res) {
        res.json(accountJson(await accountSettings.view(ctx)));
      },
    },
    {
      method: 'put',
      path: '/account',
      access: 'user',
      async handler(ctx, req, res) {
        const { notify_opened: notifyOpened } = body(req);
        res.json(accountJson(await accountSettings.update(ctx, { notifyOpened: typeof notifyOpened === 'boolean' ? notifyOpened : null })));
      },
    },
    {
      method: 'post',
      path: '/account/email',
      access: 'user',
      async handler(ctx, req, res) {
        const input = body(req);
        res.status(202).json(await withRestFields(addresses.requestChange(ctx, { newEmail: input.new_email, password: input.password }), { newEmail: 'new_email' }));
      },
    },
    {
      method: 'get',
      path: '/account/export',
      access: 'user',
      async handler(ctx, _req, res) {
        const data = await accountSettings.export(ctx);
        const account = data.account as { username: string };
        res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(account.username, String(data.exported_at))}"`);
        res.type('application/json').send(JSON.stringify(data, null, 2));
      },
    },
    {
      method: 'delete',
      path: '/account',
      access: 'user',
      async handler(ctx, req, res) {
        await accountSettings.delete(ctx, body(req));
        res.status(204).end();
      },
    },
  ];
}
