import { ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonColumn } from '../../db/json-column.js';
import { preparedRead, runPrepared, type PreparedRead } from '../../db/prepared.js';
import { enqueueSql, wakeSql, type JobBatch } from '../mail/index.js';
import { Order } from './order.entity.js';
import type { CardDesign } from './card-design.js';
import type { Locale } from '../../rules/index.js';

/** An order line as checkout writes it. */
export interface NewOrderItem {
  position: number;
  productId: number | null;
  name: string;
  price: string;
  /** The unit price it was compared with (the regular price a sale lowered, or the compare-at price). */
  compareAtPrice?: string | null;
  /** The sale that priced it, and its name then. */
  saleId?: number | null;
  saleName?: string | null;
  quantity: number;
  itemUrlUuid?: string | null;
  recipientName?: string | null;
  recipientEmail?: string | null;
  senderName?: string | null;
  message?: string | null;
  deliverAt?: Date | null;
  timeZone?: string | null;
  card?: CardDesign | null;
  /** A gift card bought: issued when the order is paid. */
  giftCard?: boolean;
  /** A gift membership bought: the plan whose period it gives (its code is issued when the order is paid). */
  giftMembershipPlanId?: number | null;
}

/** A new order's row as checkout writes it (pending until its payment is settled). */
export interface NewOrder {
  id: string;
  purchaserEmail: string;
  total: string;
  userId: number | null;
  paymentProvider: string;
  idempotencyKey: string;
  requestHash: string;
  itemNames: string;
  discountCode: string | null;
  discountAmount: string;
  /** The discount that applied: a code as the shop spells it, or an automatic discount's name. */
  discountName: string | null;
  discountKind: 'code' | 'cards' | 'subtotal' | null;
  /** The membership that priced it (its e-cards free, a percentage off the rest). */
  membershipId?: number | null;
  notifyOpened: boolean;
  /** The language it is bought in (its e-mails and pages speak it). */
  locale: Locale;
  createdAt: Date;
}

/**
 * The order's columns as its entity maps them (lazy ones aside), written out instead of `*`: a column
 * added to the table later never changes what these prepared statements answer (PostgreSQL refuses to
 * run a prepared statement whose answer's columns changed, as in a process still running while a newer
 * one migrates the database).
 */
function orderColumns(em: EntityManager, alias: string): string {
  const meta = em.getMetadata().get(Order);
  const persisted = meta.props.filter((prop) => !prop.lazy && prop.persist !== false && (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE));
  return persisted.flatMap((prop) => prop.fieldNames).map((field) => `${alias}."${field}"`).join(', ');
}

/** Marks the order $5 paid (only while pending) with the payment's facts ($1-$3) at $4: both ways of paying use it. */
const PAY_PENDING = `
        update "order" set status = 'paid', payment_reference = $1, card_last4 = $2, card_brand = $3, updated_at = $4::timestamptz
         where id = $5::uuid and status = 'pending'
        returning *`;

let statements: { insert: PreparedRead; pay: PreparedRead; payAndQueue: PreparedRead; byKey: PreparedRead } | null = null;

/** Checkout's statements on orders, made once the entity's columns are known. */
function orderStatements(em: EntityManager) {
  if (statements) return statements;
  const columns = orderColumns(em, 'o');
  statements = {
    insert: preparedRead('checkout_insert_order', `
      with o as (
        insert into "order" (id, purchaser_email, status, total, user_id, payment_provider, idempotency_key, request_hash, item_names, discount_code, discount_amount, discount_name, discount_kind, membership_id, notify_opened, locale, created_at, updated_at)
        values ($1::uuid, $2, 'pending', $3::numeric, $4::int, $5, $6, $7, $8, $9, $10::numeric, $15, $16, $17::int, $11::boolean, $18, $12::timestamptz, $12::timestamptz)
        on conflict (idempotency_key) do nothing
        returning *),
      i as (
        insert into order_item (order_id, position, product_id, name, price, compare_at_price, sale_id, sale_name, quantity, item_url_uuid, recipient_name, recipient_email, sender_name, message, deliver_at, time_zone, gift_card, gift_membership_plan_id, card)
        select o.id, r.position, r.product_id, r.name, r.price, r.compare_at_price, r.sale_id, r.sale_name, r.quantity, r.item_url_uuid, r.recipient_name, r.recipient_email, r.sender_name, r.message, r.deliver_at, r.time_zone, coalesce(r.gift_card, false), r.gift_membership_plan_id, $14::jsonb -> r.design
          from o, jsonb_to_recordset($13::jsonb) as r(position smallint, product_id int, name text, price numeric(12,2), compare_at_price numeric(12,2), sale_id int, sale_name text, quantity smallint, item_url_uuid uuid, recipient_name text,
                                                    recipient_email text, sender_name text, message text, deliver_at timestamptz, time_zone text, gift_card boolean, gift_membership_plan_id int, design int)
        returning id, position)
      select o.id, (select json_agg(json_build_object('id', i.id, 'position', i.position)) from i) as item_ids from o`),
    pay: preparedRead('checkout_pay_order', `
      with o as (${PAY_PENDING})
      select ${columns}, (select json_agg(json_build_object('id', i.id, 'recipient_email', i.recipient_email, 'deliver_at', i.deliver_at, 'card', i.item_url_uuid is not null) order by i.position)
                            from order_item i where i.order_id = o.id) as lines
        from o`),
    // The same, with the order's e-mails queued in the statement (only when it marked the order paid):
    // checkout knows the cards it has just written, so paying needs neither a transaction nor a read.
    payAndQueue: preparedRead('checkout_pay_order_queue_mail', `
      with o as (${PAY_PENDING}),
      queued as (${enqueueSql('$6', 'exists (select 1 from o)')})
      select ${columns}, ${wakeSql('$7::boolean')} as woken from o`),
    byKey: preparedRead('checkout_order_by_key', `select ${columns} from "order" o where o.idempotency_key = $1`),
  };
  return statements;
}

/** The order placed with this idempotency key, if any. */
export async function orderByKey(em: EntityManager, key: string): Promise<Order | null> {
  const [row] = await runPrepared<Record<string, unknown>>(em, orderStatements(em).byKey, [key]);
  return row ? em.map(Order, row) : null;
}

/**
 * Writes a pending order and its lines in one statement and answers its id and its lines' ids by
 * position; null, writing nothing, when an order with its idempotency key exists (the key's
 * unique index; a checkout of the same key still under way is waited for). A checkout of many cards
 * would otherwise have the ORM's unit of work create, snapshot and compare every line (and its card
 * design) only to insert them, and pay a round trip for the order and another for its lines.
 */
export async function insertOrder(em: EntityManager, order: NewOrder, items: readonly NewOrderItem[]): Promise<{ id: string; itemIds: number[] } | null> {
  // Each card design once (the cards of a line, or of lines of one product, share theirs), by position.
  const designs: CardDesign[] = [];
  const designAt = new Map<CardDesign, number>();
  const design = (card: CardDesign | null | undefined) => {
    if (!card) return null;
    let at = designAt.get(card);
    if (at === undefined) designAt.set(card, (at = designs.push(card) - 1));
    return at;
  };
  const rows = items.map((item) => ({
    position: item.position,
    product_id: item.productId,
    name: item.name,
    price: item.price,
    compare_at_price: item.compareAtPrice ?? null,
    sale_id: item.saleId ?? null,
    sale_name: item.saleName ?? null,
    quantity: item.quantity,
    item_url_uuid: item.itemUrlUuid ?? null,
    recipient_name: item.recipientName ?? null,
    recipient_email: item.recipientEmail ?? null,
    sender_name: item.senderName ?? null,
    message: item.message ?? null,
    deliver_at: item.deliverAt?.toISOString() ?? null,
    time_zone: item.timeZone ?? null,
    gift_card: item.giftCard === true,
    gift_membership_plan_id: item.giftMembershipPlanId ?? null,
    design: design(item.card),
  }));
  const at = order.createdAt.toISOString();
  const [written] = await runPrepared<{ id: string; item_ids: { id: number; position: number }[] | string | null }>(em, orderStatements(em).insert, [
    order.id, order.purchaserEmail, order.total, order.userId, order.paymentProvider, order.idempotencyKey, order.requestHash, order.itemNames, order.discountCode, order.discountAmount, order.notifyOpened, at, JSON.stringify(rows), JSON.stringify(designs), order.discountName, order.discountKind, order.membershipId ?? null, order.locale,
  ]);
  if (!written) return null;
  const itemIds: number[] = [];
  for (const item of jsonColumn(written.item_ids) ?? []) itemIds[item.position] = Number(item.id);
  return { id: written.id, itemIds };
}

/** An order's cards as its e-mails need them: a plain read, nothing hydrated. */
export interface OrderCard {
  id: number;
  recipientEmail: string;
  deliverAt: Date | null;
}

/** What a payment settles: the card's reference and what may be shown of it. */
export interface PaymentFacts {
  reference: string | null;
  last4: string | null;
  brand: string | null;
}

/**
 * Marks a pending order paid in one statement and answers its row with its lines (how many, and
 * its cards as their e-mails need them); null when the order is not pending (anymore) or gone. A
 * concurrent settling of the same order waits for the row and then finds it paid.
 */
export async function payOrder(em: EntityManager, orderId: string, payment: PaymentFacts): Promise<{ row: Record<string, unknown>; lines: number; cards: OrderCard[] } | null> {
  type Line = { id: number; recipient_email: string | null; deliver_at: string | null; card: boolean };
  const [paid] = await runPrepared<Record<string, unknown> & { lines: Line[] | string | null }>(em, orderStatements(em).pay, [payment.reference, payment.last4, payment.brand, new Date().toISOString(), orderId]);
  if (!paid) return null;
  const { lines: raw, ...row } = paid;
  const lines = jsonColumn(raw) ?? [];
  return {
    row,
    lines: lines.length,
    cards: lines.filter((line) => line.card).map((line) => ({ id: Number(line.id), recipientEmail: line.recipient_email!, deliverAt: line.deliver_at ? new Date(line.deliver_at) : null })),
  };
}

/**
 * Marks a pending order paid and queues its e-mails in one statement (atomic on its own: no
 * transaction); answers the paid order's row, or null when the order is not pending (anymore) or gone,
 * and then nothing was queued.
 */
export async function payOrderQueueing(em: EntityManager, orderId: string, payment: PaymentFacts, emails: JobBatch): Promise<Record<string, unknown> | null> {
  const [paid] = await runPrepared<Record<string, unknown> & { woken?: unknown }>(em, orderStatements(em).payAndQueue, [
    payment.reference, payment.last4, payment.brand, new Date().toISOString(), orderId, emails.json, emails.wake,
  ]);
  if (!paid) return null;
  const { woken: _, ...row } = paid;
  return row;
}

/** Whether a customer (an account, or an address) was ever charged for an order: a first-order-only discount asks. */
export async function hasChargedOrder(em: EntityManager, customer: { userId: number | null; email: string | null }): Promise<boolean> {
  if (customer.userId === null && customer.email === null) return false;
  const [row] = await em.execute<{ found: boolean }[]>(
    `select exists (select 1 from "order" where "status" in ('paid', 'delivered', 'partially_refunded', 'refunded') and ("user_id" = ? or "purchaser_email" = ?)) as "found"`,
    [customer.userId, customer.email],
  );
  return Boolean(row?.found);
}

/** Records what a gift card paid of a pending order (checkout, in the transaction that wrote the order). */
export async function recordGiftCardPayment(em: EntityManager, orderId: string, payment: { amount: string; last4: string }): Promise<void> {
  await em.execute(`update "order" set "gift_card_amount" = ?, "gift_card_last4" = ? where "id" = ? and "status" = 'pending'`, [payment.amount, payment.last4, orderId]);
}

/** The gift card lines of an order (what settling it issues), as plain rows. */
export async function giftCardItems(em: EntityManager, orderId: string): Promise<{ itemId: number; productId: number | null; amount: string; recipientName: string; recipientEmail: string; senderName: string; message: string | null }[]> {
  const rows = await em.execute<{ id: number; product_id: number | null; price: string; recipient_name: string; recipient_email: string; sender_name: string; message: string | null }[]>(
    `select id, product_id, price::text as price, recipient_name, recipient_email, sender_name, message from order_item where order_id = ? and gift_card order by position`,
    [orderId],
  );
  return rows.map((row) => ({ itemId: Number(row.id), productId: row.product_id === null ? null : Number(row.product_id), amount: row.price, recipientName: row.recipient_name, recipientEmail: row.recipient_email, senderName: row.sender_name, message: row.message }));
}

/** The gift memberships an order bought, in its order (what paying it issues). */
export async function giftMembershipItems(em: EntityManager, orderId: string): Promise<{ itemId: number; planId: number; recipientName: string; recipientEmail: string; senderName: string; message: string | null }[]> {
  const rows = await em.execute<{ id: number; gift_membership_plan_id: number; recipient_name: string; recipient_email: string; sender_name: string; message: string | null }[]>(
    `select id, gift_membership_plan_id, recipient_name, recipient_email, sender_name, message from order_item where order_id = ? and gift_membership_plan_id is not null order by position`,
    [orderId],
  );
  return rows.map((row) => ({ itemId: Number(row.id), planId: Number(row.gift_membership_plan_id), recipientName: row.recipient_name, recipientEmail: row.recipient_email, senderName: row.sender_name, message: row.message }));
}
