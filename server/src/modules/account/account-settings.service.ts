import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { conflict } from '../../core/errors.js';
import { groupBy } from '../../core/loaders.js';
import { Role } from '../../core/viewer.js';
import type { AuthService } from '../auth/auth.service.js';
import { User } from '../auth/user.entity.js';
import type { EmailAddressService } from './email-address.service.js';
import { MailJob, MailJobStatus } from '../mail/mail-job.entity.js';
import { accountRef, NOT_DELIVERED_ACCOUNT_DELETED } from './account-emails.js';

/** A signed-in user's account as its settings page shows it. */
export interface AccountView {
  user: User;
  /** The new address waiting for its link to be opened, if any. */
  pendingEmail: { email: string; sentAt: Date } | null;
}

/** A part of "Download my data" that another feature keeps (the address book adds `contacts`). */
export type ExportSection = (em: EntityManager, userId: number) => Promise<unknown>;

export interface AccountSettingsOptions {
  auth: AuthService;
  addresses: EmailAddressService;
  clock: () => Date;
  /** The shop's public address (card links in the export are absolute). */
  baseUrl: string;
}

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

interface ReplyRow {
  item_id: number;
  name: string;
  message: string;
  created_at: Date;
}

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/**
 * "Account settings": the account's own switches ("opened" notices), "Download my data" (the
 * account, its orders with their cards and thank-you replies, and what other features keep for it,
 * in one JSON document) and "Delete my account" (the password again; the account and what hangs on
 * it go, its orders stay for the shop's books without the purchaser's name or address).
 */
export class AccountSettingsService {
  private readonly sections = new Map<string, ExportSection>();

  constructor(private readonly options: AccountSettingsOptions) {}

  /** Adds a part to "Download my data" (e.g. the address book's `contacts`). */
  registerExportSection(name: string, section: ExportSection): void {
    this.sections.set(name, section);
  }

  async view(ctx: RequestContext): Promise<AccountView> {
    const user = await this.options.auth.requireUser(ctx);
    return { user, pendingEmail: await this.options.addresses.pendingChange(ctx.em, user.id) };
  }

  async update(ctx: RequestContext, input: { notifyOpened?: boolean | null }): Promise<AccountView> {
    const viewer = await this.options.auth.requireUser(ctx);
    if (typeof input.notifyOpened === 'boolean') {
      await ctx.em.nativeUpdate(User, { id: viewer.id }, { notifyOpened: input.notifyOpened });
      viewer.notifyOpened = input.notifyOpened;
      ctx.log.info({ userId: viewer.id, notifyOpened: input.notifyOpened }, 'account settings changed');
    }
    return this.view(ctx);
  }

  /**
   * Everything the shop keeps about the caller, as one JSON document: a handful of queries whatever
   * the number of orders (the orders, their items, their replies, then each registered section).
   */
  async export(ctx: RequestContext): Promise<Record<string, unknown>> {
    const user = await this.options.auth.requireUser(ctx);
    const { em } = ctx;
    const fresh = await em.findOneOrFail(User, user.id, { refresh: true });
    const orders = await em.execute<OrderRow[]>(
      `select "id", "created_at", "status", "purchaser_email", "total"::text as total, "discount_code", "discount_amount"::text as discount_amount,
              "refunded_amount"::text as refunded_amount, "card_brand", "card_last4", "notify_opened"
         from "order" where "user_id" = ? and "status" <> 'pending' order by "created_at" desc, "id" desc`,
      [user.id],
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
    const replies = cardIds.length
      ? await em.execute<ReplyRow[]>(`select "item_id", "name", "message", "created_at" from "ecard_reply" where "item_id" in (?) order by "created_at", "id"`, [cardIds])
      : [];
    const itemsOf = groupBy(items, (item) => item.order_id);
    const repliesOf = groupBy(replies, (reply) => reply.item_id);
    const extra: Record<string, unknown> = {};
    for (const [name, section] of this.sections) extra[name] = await section(em, user.id);
    return {
      exported_at: this.options.clock().toISOString(),
      account: {
        id: fresh.id,
        username: fresh.username,
        email: fresh.email,
        email_confirmed_at: iso(fresh.emailConfirmedAt),
        pending_email: (await this.options.addresses.pendingChange(em, user.id))?.email ?? null,
        role: fresh.role,
        created_at: iso(fresh.createdAt),
        notify_opened: fresh.notifyOpened,
      },
      orders: orders.map((order) => ({
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
        items: (itemsOf.get(order.id) ?? []).map((item) => this.exportItem(item, repliesOf.get(item.id) ?? [])),
      })),
      contacts: [],
      ...extra,
    };
  }

  /**
   * Deletes the caller's account after checking the password again. The account goes with what hangs
   * on it (sessions, so every token it had is refused at once; its links and the e-mails about them;
   * what other features keep for it by their foreign keys, such as contacts). Its orders stay for the
   * shop's books, with the purchaser's address and name (the name given on its cards) erased and no
   * account; their e-mails to the purchaser still waiting are withheld, and no e-mail of theirs keeps
   * the address. Cards still to go out are delivered, without the name. Another account's data is
   * never touched: every statement is bound to this account's id or its orders' ids.
   * An account of the shop's staff is removed by an admin (Staff), not here.
   */
  async delete(ctx: RequestContext, input: { password?: unknown }): Promise<void> {
    const user = await this.options.auth.requireUser(ctx);
    if (user.role !== Role.CUSTOMER) throw conflict('An account of the shop’s staff is removed by an admin, under Staff.');
    await this.options.auth.confirmPassword(ctx, user, input.password);
    const erased = await ctx.em.fork().transactional(async (em) => {
      const account = await em.findOneOrFail(User, user.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const orderIds = (await em.execute<{ id: string }[]>(`select "id" from "order" where "user_id" = ?`, [user.id])).map((row) => row.id);
      if (orderIds.length) {
        // Its orders' e-mails to the purchaser that have not gone out never will; none keeps the address.
        await em.nativeUpdate(
          MailJob,
          { orderId: { $in: orderIds }, recipient: account.email, status: { $in: [MailJobStatus.QUEUED, MailJobStatus.FAILED] } },
          { status: MailJobStatus.WITHHELD, lastError: NOT_DELIVERED_ACCOUNT_DELETED, claimedUntil: null, claimToken: null },
        );
        await em.nativeUpdate(MailJob, { orderId: { $in: orderIds }, recipient: account.email }, { recipient: '' });
        await em.execute(`update "order_item" set "sender_name" = null where "order_id" in (?)`, [orderIds]);
        await em.execute(`update "order" set "purchaser_email" = '', "user_id" = null where "id" in (?)`, [orderIds]);
      }
      // The e-mails about the account itself (its links, a change of address) go with it.
      const links = (await em.execute<{ id: number }[]>(`select "id" from "account_token" where "user_id" = ?`, [user.id])).map((row) => `account-link:${row.id}`);
      await em.nativeDelete(MailJob, { ref: { $in: [accountRef(user.id), ...links] } });
      await em.nativeDelete(User, { id: user.id });
      return orderIds.length;
    });
    ctx.log.info({ userId: user.id, ordersKept: erased }, 'account deleted by its owner');
  }

  private exportItem(item: ItemRow, replies: readonly ReplyRow[]) {
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
        replies: replies.map((r) => ({ name: r.name, message: r.message, created_at: iso(r.created_at) })),
      },
    };
  }
}
