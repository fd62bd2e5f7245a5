import type { EntityManager } from '@mikro-orm/postgresql';
import { SIGNAL_CHANNEL } from '../../core/change-feed.js';
import { CacheKeys, type ReadCache } from '../../core/read-cache.js';
import { preparedRead, runPrepared } from '../../db/prepared.js';
import type { WebhookEventType } from '../../rules/webhooks.js';

/** The change-feed signal by which committed events wake the processes that deliver webhooks. */
export const WEBHOOK_QUEUED_SIGNAL = 'webhook-queued';

/** How long after its event a delivery is retried. */
export const RETRY_FOR_MS = 3 * 24 * 3_600_000;

/** What an event's `data` is: a feature's public shape of what changed (no secrets, no password digests). */
export type WebhookData = Record<string, unknown>;

/**
 * How a feature tells the shop's webhook endpoints of a change: in the transaction of the change, so
 * that an event exists exactly when its change commits (a rolled-back change sends nothing).
 */
export interface WebhookEvents {
  /**
   * Writes one `type` event for each of `data`'s items, with a delivery to every enabled endpoint that
   * takes `type`, in the caller's transaction (`em`), and wakes the workers when it commits. `data` is
   * asked only when some endpoint takes `type`: with none, an event costs no query at all.
   */
  emit(em: EntityManager, type: WebhookEventType, data: () => readonly WebhookData[] | Promise<readonly WebhookData[]>): Promise<void>;
  /** Whether some enabled endpoint takes `type` (remembered by the process; no query most of the time). */
  wants(em: EntityManager, type: WebhookEventType): Promise<boolean>;
}

/**
 * The events as one statement: each event (of $2, a JSON array of data) with one delivery per enabled
 * endpoint taking its type ($1), due at once and retried until three days after the event ($3, the
 * shop's clock), and the NOTIFY that wakes the workers at the commit. Nothing is written when no
 * endpoint takes the type (any more: the process's remembered list may be a moment behind).
 */
const EMIT = preparedRead('webhook_emit', `
    with targets as (select id from webhook_endpoint where disabled_at is null and $1::text = any(events)),
    events as (
      insert into webhook_event (type, data, created_at)
      select $1::text, r.data, $3::timestamptz from jsonb_array_elements($2::jsonb) with ordinality as r(data, n)
       where exists (select 1 from targets)
       order by r.n
      returning id),
    queued as (
      insert into webhook_delivery (event_id, endpoint_id, next_attempt_at, retry_until, created_at)
      select events.id, targets.id, $3::timestamptz, $3::timestamptz + interval '${RETRY_FOR_MS / 1000} seconds', $3::timestamptz
        from events cross join targets
      returning 1)
    select count(*)::int as queued, (case when count(*) > 0 then pg_notify('${SIGNAL_CHANNEL}', '${WEBHOOK_QUEUED_SIGNAL}') end) as woken from queued`);

/**
 * The outbox features write their events to (see WebhookEvents). Which event types some endpoint
 * takes is kept in the read cache, which the change feed empties in every process when an endpoint is
 * created, deleted, turned off or on: a change nobody listens for costs nothing.
 */
export class WebhookOutbox implements WebhookEvents {
  constructor(private readonly options: { cache: ReadCache; clock: () => Date }) {}

  async emit(em: EntityManager, type: WebhookEventType, data: () => readonly WebhookData[] | Promise<readonly WebhookData[]>): Promise<void> {
    if (!em.isInTransaction()) throw new Error(`The webhook event "${type}" must be written in the transaction of its change`);
    if (!(await this.wants(em, type))) return;
    const items = await data();
    if (!items.length) return;
    await runPrepared(em, EMIT, [type, JSON.stringify(items), this.options.clock().toISOString()]);
  }

  async wants(em: EntityManager, type: WebhookEventType): Promise<boolean> {
    return (await this.subscribed(em)).includes(type);
  }

  /** The event types some enabled endpoint takes. */
  private subscribed(em: EntityManager): Promise<readonly string[]> {
    return this.options.cache.read(CacheKeys.webhookEvents, async () => {
      const rows = await em.execute<{ type: string }[]>(`select distinct unnest(events) as type from webhook_endpoint where disabled_at is null`);
      return rows.map((row) => row.type);
    });
  }

  /** After a change of the endpoints has committed: every process asks again which types are taken. */
  changed(): Promise<void> {
    return this.options.cache.changed([CacheKeys.webhookEvents]);
  }
}
