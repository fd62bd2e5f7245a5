import type { EntityManager } from '@mikro-orm/postgresql';
import type { CardDesign } from './card-design.js';

/** An order line as checkout writes it. */
export interface NewOrderItem {
  position: number;
  productId: number | null;
  name: string;
  price: string;
  quantity: number;
  itemUrlUuid?: string | null;
  recipientName?: string | null;
  recipientEmail?: string | null;
  senderName?: string | null;
  message?: string | null;
  deliverAt?: Date | null;
  timeZone?: string | null;
  card?: CardDesign | null;
}

/**
 * Writes an order's lines with one INSERT and answers their ids by position. A checkout of many cards
 * would otherwise have the ORM's unit of work create, snapshot and compare every line (and its card
 * design) only to insert them.
 */
export async function insertOrderItems(em: EntityManager, orderId: string, items: readonly NewOrderItem[]): Promise<number[]> {
  if (!items.length) return [];
  const rows = items.map((item) => ({
    position: item.position,
    product_id: item.productId,
    name: item.name,
    price: item.price,
    quantity: item.quantity,
    item_url_uuid: item.itemUrlUuid ?? null,
    recipient_name: item.recipientName ?? null,
    recipient_email: item.recipientEmail ?? null,
    sender_name: item.senderName ?? null,
    message: item.message ?? null,
    deliver_at: item.deliverAt?.toISOString() ?? null,
    time_zone: item.timeZone ?? null,
    card: item.card ?? null,
  }));
  const written = await em.execute<{ id: number; position: number }[]>(
    `insert into order_item (order_id, position, product_id, name, price, quantity, item_url_uuid, recipient_name, recipient_email, sender_name, message, deliver_at, time_zone, card)
     select ?::uuid, r.position, r.product_id, r.name, r.price, r.quantity, r.item_url_uuid, r.recipient_name, r.recipient_email, r.sender_name, r.message, r.deliver_at, r.time_zone, r.card
       from jsonb_to_recordset(?::jsonb) as r(position smallint, product_id int, name text, price numeric(12,2), quantity smallint, item_url_uuid uuid, recipient_name text,
                                              recipient_email text, sender_name text, message text, deliver_at timestamptz, time_zone text, card jsonb)
     returning id, position`,
    [orderId, JSON.stringify(rows)],
  );
  const ids: number[] = [];
  for (const row of written) ids[row.position] = Number(row.id);
  return ids;
}

/** An order's cards as its e-mails need them: a plain read, nothing hydrated. */
export interface OrderCard {
  id: number;
  recipientEmail: string;
  deliverAt: Date | null;
}

export async function cardsOfOrder(em: EntityManager, orderId: string): Promise<{ lines: number; cards: OrderCard[] }> {
  const rows = await em.execute<{ id: number; recipient_email: string | null; deliver_at: Date | null; item_url_uuid: string | null }[]>(
    `select id, recipient_email, deliver_at, item_url_uuid from order_item where order_id = ? order by position`,
    [orderId],
  );
  return {
    lines: rows.length,
    cards: rows.filter((row) => row.item_url_uuid).map((row) => ({ id: Number(row.id), recipientEmail: row.recipient_email!, deliverAt: row.deliver_at ? new Date(row.deliver_at) : null })),
  };
}
