import type { Services } from '../../../server/src/services.js';
import { body, type RouteDef } from '../route.js';

/** The REST contract speaks of these booleans as the strings "true" and "false". */
const flag = (value: boolean) => (value ? 'true' : 'false');

export function settingsRoutes({ settings }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/settings',
      access: 'public',
      async handler(ctx, _req, res) {
        const current = await settings.get(ctx);
        res.json({ underConstructionMode: flag(current.underConstructionMode), isAdmin: flag(current.isAdmin) });
      },
    },
    {
      method: 'put',
      path: '/settings',
      access: 'admin',
      async handler(ctx, req, res) {
        const updated = await settings.update(ctx, body(req));
        res.json({ underConstructionMode: flag(updated.underConstructionMode) });
      },
    },
  ];
}
