import type { Services } from '../../../server/src/services.js';
import type { User } from '../../../server/src/modules/auth/user.entity.js';
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
