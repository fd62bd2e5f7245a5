import type { AuditEntry } from '../../../server/src/modules/audit/audit.types.js';
import type { Services } from '../../../server/src/services.js';
import { listPage, nextPageFields, queryText, type RouteDef } from '../route.js';

const entryJson = (e: AuditEntry) => ({
  id: Number(e.id),
  at: e.at.toISOString(),
  actor_id: e.actorId,
  actor: e.actorName,
  actor_role: e.actorRole,
  entity: e.entity,
  entity_id: e.entityId,
  action: e.action,
  summary: e.summary,
});

/** The audit log row of the REST contract (section 13): admins only. */
export function auditRoutes({ audit }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/audit',
      access: 'admin',
      async handler(ctx, req, res) {
        // `actor` is a user id or a username (a removed account is found by its name).
        const actor = queryText(req.query.actor).trim();
        const asked = listPage(req.query);
        const page = await audit.list(ctx, { actor: /^[1-9]\d{0,9}$/.test(actor) ? Number(actor) : actor, entity: queryText(req.query.entity) || null, ...asked });
        res.json({ entries: page.edges.map(({ node }) => entryJson(node)), total: page.totalCount, ...nextPageFields(asked, page) });
      },
    },
  ];
}
