import crypto from 'node:crypto';
import { withEm, type RequestContext } from '../../core/context.js';
import { badInput, conflict, notFound } from '../../core/errors.js';
import { keysetPage, pageSize, type ConnectionResult } from '../../core/pagination.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../rules/webhooks.js';
import { audited, named, recordAudit } from '../audit/index.js';
import { SIGNAL_CHANNEL } from '../../core/change-feed.js';
import { cleanWebhookUrl, type HostLookup } from './webhook-address.js';
import { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from './webhook.entity.js';
import { WEBHOOK_QUEUED_SIGNAL, type WebhookOutbox } from './webhook-outbox.js';
import type { CreatedWebhookEndpoint } from './webhook.types.js';

export interface WebhookServiceOptions {
  /** Where features write their events; told when the endpoints change. */
  outbox: WebhookOutbox;
  clock: () => Date;
  /** WEBHOOK_ALLOW_PRIVATE: URLs may name loopback, private and link-local addresses. */
  allowPrivate: boolean;
  lookup: HostLookup;
}

/** A new endpoint's signing secret: `whsec_` and 32 characters (192 random bits). */
const newSecret = (): string => `whsec_${crypto.randomBytes(24).toString('base64url')}`;

/**
 * The admins' side of webhooks (contract section 19): endpoints created (the secret shown once),
 * listed, deleted and turned back on, each change audited and told to every process (which event
 * types are taken is remembered per process); an endpoint's recent deliveries, and a delivery sent
 * again now with the same event id.
 */
export class WebhookService {
  constructor(private readonly options: WebhookServiceOptions) {}

  /** Every endpoint, newest first. */
  list(ctx: RequestContext): Promise<WebhookEndpoint[]> {
    return ctx.em.find(WebhookEndpoint, {}, { orderBy: { id: 'desc' } });
  }

  /** Creates an endpoint; the answer carries its secret, which is shown this once. Audited. */
  async create(ctx: RequestContext, input: { url: unknown; events: unknown }): Promise<CreatedWebhookEndpoint> {
    const events = cleanEvents(input.events);
    const url = await cleanWebhookUrl(input.url, this.options);
    const creator = (await ctx.requireViewer()).user.username ?? null;
    const secret = newSecret();
    const endpoint = await audited(
      ctx,
      async (tx) => {
        const row = tx.em.create(WebhookEndpoint, { url, events, secret, createdBy: creator, createdAt: this.options.clock() });
        await tx.em.flush();
        return row;
      },
      (row) => ({ entity: 'webhook', id: row.id, action: 'created', summary: `Webhook endpoint ${named(row.url)} created (${row.events.join(', ')})` }),
    );
    await this.options.outbox.changed();
    return { endpoint, secret };
  }

  /** Deletes an endpoint with its deliveries (NOT_FOUND for an unknown id). Audited. */
  async delete(ctx: RequestContext, id: number): Promise<void> {
    await ctx.em.transactional(async (em) => {
      const endpoint = await em.findOne(WebhookEndpoint, id);
      if (!endpoint) throw notFound('Webhook endpoint');
      await em.nativeDelete(WebhookEndpoint, { id });
      await recordAudit(withEm(ctx, em), { entity: 'webhook', id, action: 'deleted', summary: `Webhook endpoint ${named(endpoint.url)} deleted` });
    });
    ctx.em.clear();
    await this.options.outbox.changed();
  }

  /** Turns a turned-off endpoint back on (one that is on stays as it is). Audited. */
  async enable(ctx: RequestContext, id: number): Promise<WebhookEndpoint> {
    const { endpoint, enabled } = await ctx.em.transactional(async (em) => {
      const endpoint = await em.findOne(WebhookEndpoint, id);
      if (!endpoint) throw notFound('Webhook endpoint');
      if (endpoint.enabled) return { endpoint, enabled: false };
      Object.assign(endpoint, { disabledAt: null, disabledReason: null, failingSince: null });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'webhook', id, action: 'enabled', summary: `Webhook endpoint ${named(endpoint.url)} turned back on` });
      return { endpoint, enabled: true };
    });
    if (enabled) await this.options.outbox.changed();
    return endpoint;
  }

  /** An endpoint's deliveries, newest first (NOT_FOUND for an unknown endpoint). */
  async deliveries(ctx: RequestContext, endpointId: number, args: { first?: number | null; after?: string | null }): Promise<ConnectionResult<WebhookDelivery>> {
    if (!(await ctx.em.count(WebhookEndpoint, { id: endpointId }))) throw notFound('Webhook endpoint');
    return keysetPage(ctx.em, WebhookDelivery, { endpoint: endpointId }, {
      size: pageSize(args.first),
      after: args.after,
      direction: 'desc',
      keys: [{ property: 'id', cursor: 'id', type: 'number', valueOf: (row) => row.id }],
      populate: ['event'],
    });
  }

  /**
   * Sends a delivery again now, with the same event id (NOT_FOUND for an unknown delivery, CONFLICT
   * when its endpoint is turned off). One that fails again is retried until three days after its
   * event, as before. Audited.
   */
  async redeliver(ctx: RequestContext, deliveryId: number): Promise<WebhookDelivery> {
    const delivery = await ctx.em.transactional(async (em) => {
      const delivery = await em.findOne(WebhookDelivery, deliveryId, { populate: ['event', 'endpoint'] });
      if (!delivery) throw notFound('Webhook delivery');
      if (!delivery.endpoint.enabled) throw conflict('This endpoint is turned off: turn it back on first.');
      Object.assign(delivery, { status: WebhookDeliveryStatus.PENDING, nextAttemptAt: this.options.clock(), claimToken: null });
      await em.flush();
      await recordAudit(withEm(ctx, em), { entity: 'webhook', id: delivery.endpoint.id, action: 'redelivered', summary: `Event ${delivery.event.type} ${delivery.event.id} sent again to ${named(delivery.endpoint.url)}` });
      // The workers are woken when this commits.
      await em.execute(`select pg_notify('${SIGNAL_CHANNEL}', '${WEBHOOK_QUEUED_SIGNAL}')`);
      return delivery;
    });
    return delivery;
  }
}

/** The events an endpoint takes: one or more of the shop's, each once, in the shop's order. */
function cleanEvents(value: unknown): WebhookEventType[] {
  const known = WEBHOOK_EVENT_TYPES as readonly string[];
  if (!Array.isArray(value) || !value.length) throw badInput(`events must list one or more of ${WEBHOOK_EVENT_TYPES.join(', ')}.`, 'events');
  const unknown = value.filter((event) => typeof event !== 'string' || !known.includes(event));
  if (unknown.length) throw badInput(`Unknown event ${unknown.map((event) => JSON.stringify(event)).join(', ')}: events are ${WEBHOOK_EVENT_TYPES.join(', ')}.`, 'events');
  return WEBHOOK_EVENT_TYPES.filter((event) => value.includes(event));
}
