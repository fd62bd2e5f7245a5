import type { WebhookDelivery, WebhookEndpoint } from '../../../server/src/modules/webhooks/webhook.entity.js';
import type { Services } from '../../../server/src/services.js';
import { body, pathId, queryParam, type RouteDef } from '../route.js';

const endpointJson = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  enabled: endpoint.enabled,
  disabled_at: endpoint.disabledAt?.toISOString() ?? null,
  disabled_reason: endpoint.disabledReason,
  created_by: endpoint.createdBy,
  created_at: endpoint.createdAt.toISOString(),
});

const deliveryJson = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  event_id: delivery.eventId,
  type: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  last_status_code: delivery.lastStatusCode,
  last_error: delivery.lastError,
  last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
  next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
  created_at: delivery.createdAt.toISOString(),
});

/** The webhooks of the REST contract (section 19, admins): endpoints listed, created (the secret shown once) and deleted; deliveries listed and redelivered. */
export function webhookRoutes({ webhooks }: Services): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/admin/webhooks',
      access: 'admin',
      async handler(ctx, _req, res) {
        res.json((await webhooks.list(ctx)).map(endpointJson));
      },
    },
    {
      method: 'post',
      path: '/admin/webhooks',
      access: 'admin',
      async handler(ctx, req, res) {
        const json = body(req);
        const created = await webhooks.create(ctx, { url: json.url, events: json.events });
        res.status(201).json({ ...endpointJson(created.endpoint), secret: created.secret });
      },
    },
    {
      method: 'delete',
      path: '/admin/webhooks/:id',
      access: 'admin',
      async handler(ctx, req, res) {
        await webhooks.delete(ctx, pathId(req.params.id, 'Webhook endpoint'));
        res.status(204).end();
      },
    },
    {
      method: 'get',
      path: '/admin/webhooks/:id/deliveries',
      access: 'admin',
      async handler(ctx, req, res) {
        const page = await webhooks.deliveries(ctx, pathId(req.params.id, 'Webhook endpoint'), { after: queryParam(req.query.after) });
        res.json({ deliveries: page.edges.map(({ node }) => deliveryJson(node)), total: page.totalCount, next_after: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null });
      },
    },
    {
      method: 'post',
      path: '/admin/webhooks/deliveries/:id/redeliver',
      access: 'admin',
      async handler(ctx, req, res) {
        const delivery = await webhooks.redeliver(ctx, pathId(req.params.id, 'Webhook delivery'));
        res.status(202).json(deliveryJson(delivery));
      },
    },
  ];
}
