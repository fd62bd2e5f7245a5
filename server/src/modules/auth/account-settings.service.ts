import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { conflict } from '../../core/errors.js';
import { Role } from '../../core/viewer.js';
import type { AuthService } from './auth.service.js';
import { User } from './user.entity.js';
import type { EmailAddressService } from './email-address.service.js';
import type { MailQueue } from '../mail/index.js';
import { accountLinkRef, accountRef } from './account-emails.js';

/** A signed-in user's account as its settings page shows it. */
export interface AccountView {
  user: User;
  /** The new address waiting for its link to be opened, if any. */
  pendingEmail: { email: string; sentAt: Date } | null;
}

/** A part of "Download my data" that another feature keeps (the orders add `orders`, the address book `contacts`). */
export type ExportSection = (em: EntityManager, userId: number) => Promise<unknown>;

/**
 * What another feature erases of an account being deleted, in the deletion's transaction (the orders
 * keep the shop's books without the purchaser). What hangs on the account by a foreign key goes with it.
 */
export type Erasure = (em: EntityManager, account: { id: number; email: string }) => Promise<void>;

export interface AccountSettingsOptions {
  auth: AuthService;
  addresses: EmailAddressService;
  clock: () => Date;
  /** The account's own e-mails (its links, a change of address) go with it. */
  mail: Pick<MailQueue, 'forget'>;
}

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

/**
 * "Account settings": the account's own switches ("opened" notices), "Download my data" (the
 * account, its orders with their cards and thank-you replies, and what other features keep for it,
 * in one JSON document) and "Delete my account" (the password again; the account and what hangs on
 * it go, its orders stay for the shop's books without the purchaser's name or address).
 */
export class AccountSettingsService {
  private readonly sections = new Map<string, ExportSection>();
  private readonly erasures: Erasure[] = [];

  constructor(private readonly options: AccountSettingsOptions) {}

  /** Adds a part to "Download my data" (e.g. the address book's `contacts`). */
  registerExportSection(name: string, section: ExportSection): void {
    this.sections.set(name, section);
  }

  /** Adds what a feature erases when an account is deleted. */
  registerErasure(erasure: Erasure): void {
    this.erasures.push(erasure);
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
   * Everything the shop keeps about the caller, as one JSON document: the account, then each
   * registered section (the orders with their cards and replies, the address book), each a handful of
   * queries whatever its size.
   */
  async export(ctx: RequestContext): Promise<Record<string, unknown>> {
    const user = await this.options.auth.requireUser(ctx);
    const { em } = ctx;
    const fresh = await em.findOneOrFail(User, user.id, { refresh: true });
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
    await ctx.em.fork().transactional(async (em) => {
      const account = await em.findOneOrFail(User, user.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      for (const erase of this.erasures) await erase(em, { id: account.id, email: account.email });
      const links = (await em.execute<{ id: number }[]>(`select "id" from "account_token" where "user_id" = ?`, [user.id])).map((row) => accountLinkRef(row.id));
      await this.options.mail.forget(em, { refs: [accountRef(user.id), ...links] });
      await em.nativeDelete(User, { id: user.id });
    });
    ctx.log.info({ userId: user.id }, 'account deleted by its owner');
  }
}
