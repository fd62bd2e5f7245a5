import type { ApiKey } from '../../../server/src/modules/api-keys/api-key.entity.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, type RouteDef } from '../route.js';

const apiKeyJson = (key: ApiKey) => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  last4: key.last4,
  created_by: key.createdBy,
  created_at: key.createdAt.toISOString(),
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

/** The API keys of the REST contract (section 19, A): list, create (the key shown once), revoke. */
export function apiKeyRoutes({ apiKeys }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/api-keys',
      access: 'admin',
      async handler(ctx, _req, res) {
        res.json((await apiKeys.list(ctx)).map(apiKeyJson));
      },
    },
    {
      method: 'post',
      path: '/admin/api-keys',
      access: 'admin',
      async handler(ctx, req, res) {
        const json = body(req);
        const created = await apiKeys.create(ctx, { name: json.name, scopes: json.scopes });
        res.status(201).json({ ...apiKeyJson(created.apiKey), key: created.key });
      },
    },
    {
      method: 'delete',
      path: '/admin/api-keys/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await apiKeys.revoke(ctx, pathId(req.params.id, 'API key'));
        res.status(204).end();
      },
    },
  ];
}
