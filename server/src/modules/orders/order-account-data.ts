import type { EntityManager } from '@mikro-orm/postgresql';
import { groupBy } from '../../core/loaders.js';
import type { MailQueue } from '../mail/index.js';
import { orderRef } from './order-email.types.js';

interface OrderRow {
  id: string;
  created_at: Date;
  status: string;
  purchaser_email: string;
  total: string;
  discount_code: string | null;
  discount_amount: string;
  refunded_amount: string;
  card_brand: string | null;
  card_last4: string | null;
  notify_opened: boolean;
}

interface ItemRow {
  id: number;
  order_id: string;
  name: string;
  price: string;
  quantity: number;
  item_url_uuid: string | null;
  recipient_name: string | null;
  recipient_email: string | null;
  sender_name: string | null;
  message: string | null;
  deliver_at: Date | null;
  time_zone: string | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  reminded_at: Date | null;
  refunded_at: Date | null;
}

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** Why an e-mail to a purchaser who deleted their account was not sent (admins see it). */
export const NOT_DELIVERED_ACCOUNT_DELETED = 'Not delivered: the purchaser deleted their account';

export interface OrderAccountDataOptions {
  /** Stops the orders' e-mails to the purchaser. */
  mail: Pick<MailQueue, 'forgetAddress'>;
  /** The shop's public address (card links in the export are absolute). */
  baseUrl: string;
  /** What other features keep about cards, added to each card of the export (the e-card module's `replies`), by card id. */
  cardExtras?: (em: EntityManager, itemIds: readonly number[]) => Promise<Map<number, Record<string, unknown>>>;
}

/**
 * An account's orders as "Download my data" and "Delete my account" see them: the export of its
 * placed orders with their cards, and the erasure of the purchaser from them (the orders stay for the
 * shop's books).
 */
export class OrderAccountData {
  constructor(private readonly options: OrderAccountDataOptions) {}

  /** The account's placed orders, newest first, with their items and cards: three queries whatever their number. */
  async export(em: EntityManager, userId: number): Promise<unknown[]> {
    const orders = await em.execute<OrderRow[]>(
      `select "id", "created_at", "status", "purchaser_email", "total"::text as total, "discount_code", "discount_amount"::text as discount_amount,
              "refunded_amount"::text as refunded_amount, "card_brand", "card_last4", "notify_opened"
         from "order" where "user_id" = ? and "status" <> 'pending' order by "created_at" desc, "id" desc`,
      [userId],
    );
    const ids = orders.map((o) => o.id);
    const items = ids.length
      ? await em.execute<ItemRow[]>(
          `select "id", "order_id", "name", "price"::text as price, "quantity", "item_url_uuid", "recipient_name", "recipient_email", "sender_name", "message",
                  "deliver_at", "time_zone", "delivered_at", "opened_at", "reminded_at", "refunded_at"
             from "order_item" where "order_id" in (?) order by "order_id", "position"`,
          [ids],
        )
      : [];
    const cardIds = items.filter((i) => i.item_url_uuid).map((i) => i.id);
    const extras = cardIds.length && this.options.cardExtras ? await this.options.cardExtras(em, cardIds) : new Map<number, Record<string, unknown>>();
    const itemsOf = groupBy(items, (item) => item.order_id);
    return orders.map((order) => ({
      id: order.id,
      created_at: iso(order.created_at),
      status: order.status,
      purchaser_email: order.purchaser_email,
      total: order.total,
      discount_code: order.discount_code,
      discount_amount: order.discount_amount,
      refunded_amount: order.refunded_amount,
      card: order.card_last4 ? { brand: order.card_brand, last4: order.card_last4 } : null,
      notify_when_opened: order.notify_opened,
      items: (itemsOf.get(order.id) ?? []).map((item) => this.exportItem(item, extras.get(item.id) ?? {})),
    }));
  }

  /**
   * Erases the purchaser from the account's orders, in the deletion's transaction: no account, no
   * address, no sender name on their cards; their e-mails to the purchaser still waiting are withheld
   * and none keeps the address. Cards still to go out are delivered, without the name. Answers how
   * many orders were kept.
   */
  async erase(em: EntityManager, account: { id: number; email: string }): Promise<number> {
    const orderIds = (await em.execute<{ id: string }[]>(`select "id" from "order" where "user_id" = ? for update`, [account.id])).map((row) => row.id);
    if (!orderIds.length) return 0;
    await this.options.mail.forgetAddress(em, { subjects: orderIds.map(orderRef), to: account.email }, NOT_DELIVERED_ACCOUNT_DELETED);
    await em.execute(`update "order_item" set "sender_name" = null where "order_id" in (?)`, [orderIds]);
    await em.execute(`update "order" set "purchaser_email" = '', "user_id" = null where "id" in (?)`, [orderIds]);
    return orderIds.length;
  }

  /**
   * The guest orders placed with `email` (no account, any state) join the account. Only ever called
   * once the account proved it holds the address.
   */
  async joinGuestOrders(em: EntityManager, userId: number, email: string): Promise<number> {
    const joined = await em.execute<{ id: string }[]>(`update "order" set "user_id" = ? where "user_id" is null and "purchaser_email" = ? returning "id"`, [userId, email]);
    return joined.length;
  }

  private exportItem(item: ItemRow, extras: Record<string, unknown>) {
    const base = { name: item.name, price: item.price, quantity: item.quantity };
    if (!item.item_url_uuid) return base;
    return {
      ...base,
      card: {
        url: `${this.options.baseUrl}/ecards/${item.item_url_uuid}.html`,
        recipient_name: item.recipient_name,
        recipient_email: item.recipient_email,
        sender_name: item.sender_name,
        message: item.message,
        deliver_at: iso(item.deliver_at),
        time_zone: item.time_zone,
        delivered_at: iso(item.delivered_at),
        opened_at: iso(item.opened_at),
        reminded_at: iso(item.reminded_at),
        refunded_at: iso(item.refunded_at),
        ...extras,
      },
    };
  }
}
