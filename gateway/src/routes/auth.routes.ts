import type { Services } from '../../../server/src/services.js';
import type { User } from '../../../server/src/modules/auth/user.entity.js';
import { forbidden } from '../../../server/src/core/errors.js';
import { body, type RouteDef } from '../route.js';

const publicUser = (user: User) => ({ id: user.id, username: user.username, email: user.email });

export function authRoutes({ auth }: Services): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/register',
      access: 'public',
      async handler(ctx, req, res) {
        const { message, user } = await auth.register(ctx, body(req));
        res.status(201).json({ message, user: publicUser(user) });
      },
    },
    {
      method: 'post',
      path: '/login',
      access: 'public',
      async handler(ctx, req, res) {
        const { token } = await auth.login(ctx, body(req));
        // The contract: the body is the raw token text.
        res.status(200).type('text/plain').send(token);
      },
    },
    {
      // A new tab signs in again from the `session` cookie ("Keep me signed in"). The header is one a
      // page of another site cannot send without the shop's consent (CORS), so no other site can
      // make a visitor's browser ask.
      method: 'post',
      path: '/session',
      access: 'public',
      async handler(ctx, req, res) {
        if (req.get('x-requested-with') !== 'fetch') throw forbidden('Ask for the session from the shop\'s own pages (X-Requested-With: fetch).');
        const { token } = await auth.resumeSession(ctx);
        res.status(200).type('text/plain').send(token);
      },
    },
    {
      method: 'post',
      path: '/session/revoke-all',
      access: 'user',
      async handler(ctx, _req, res) {
        await auth.signOutEverywhere(ctx);
        res.status(204).end();
      },
    },
    {
      method: 'post',
      path: '/logout',
      access: 'user',
      async handler(ctx, _req, res) {
        await auth.logout(ctx);
        res.status(204).end();
      },
    },
    {
      method: 'post',
      path: '/change-password',
      access: 'user',
      async handler(ctx, req, res) {
        res.json(await auth.changePassword(ctx, body(req)));
      },
    },
    {
      method: 'get',
      path: '/me',
      access: 'user',
      async handler(ctx, _req, res) {
        const user = await auth.requireUser(ctx);
        res.json({ ...publicUser(user), role: user.role, created_at: user.createdAt.toISOString() });
      },
    },
  ];
}
