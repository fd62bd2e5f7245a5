import type { EntityManager } from '@mikro-orm/postgresql';
import { isoTimeSql } from '../../db/iso-time.js';
import type { WebhookData, WebhookEvents } from '../webhooks/index.js';

/**
 * An order as the shop's webhook events show it (`{order: {...}}`: order.paid, order.refunded,
 * order.delivered), built in PostgreSQL with its lines in one read: the purchaser's address and the
 * lines' products, prices and card recipients by name; never a card's message or its private link.
 */
const ORDER_JSON = `json_build_object(
    'id', o.id, 'status', o.status, 'currency', 'USD', 'total', o.total::text,
    'discount_code', o.discount_code, 'discount_amount', o.discount_amount::text, 'gift_card_amount', o.gift_card_amount::text,
    'refunded_amount', o.refunded_amount::text, 'purchaser_email', o.purchaser_email, 'customer_id', o.user_id,
    'created_at', ${isoTimeSql('o.created_at')},
    'lines', coalesce((
      select json_agg(json_build_object(
               'id', i.id, 'product_id', i.product_id, 'name', i.name, 'quantity', i.quantity,
               'unit_price', i.price::text, 'line_total', (i.price * i.quantity)::numeric(12,2)::text,
               'e_card', i.item_url_uuid is not null, 'recipient_name', i.recipient_name,
               'deliver_at', ${isoTimeSql('i.deliver_at')}, 'delivered_at', ${isoTimeSql('i.delivered_at')},
               'refunded', i.refunded_at is not null) order by i.position)
        from order_item i where i.order_id = o.id), '[]'::json))`;

/** The orders named, as their events show them, in the order of `ids`. */
export async function orderEventData(em: EntityManager, ids: readonly string[]): Promise<WebhookData[]> {
  if (!ids.length) return [];
  const rows = await em.execute<{ id: string; order: WebhookData }[]>(`select o.id, ${ORDER_JSON} as order from "order" o where o.id = any(?::uuid[])`, [`{${ids.join(',')}}`]);
  const byId = new Map(rows.map((row) => [row.id, row.order]));
  return ids.flatMap((id) => (byId.has(id) ? [{ order: byId.get(id)! }] : []));
}

/** Tells the endpoints of orders paid or delivered in the caller's transaction (read only when some endpoint takes the event). */
export function emitOrders(webhooks: WebhookEvents, em: EntityManager, type: 'order.paid' | 'order.delivered', ids: readonly string[]): Promise<void> {
  return webhooks.emit(em, type, () => orderEventData(em, ids));
}
