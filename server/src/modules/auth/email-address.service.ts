import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { conflictOnUnique } from '../../core/db-errors.js';
import { badInput, conflict } from '../../core/errors.js';
import { AccountLinks, AccountTokenPurpose, tokenInvalid } from './account-links.js';
import type { AccountMailQueue } from './account-mail.js';
import { AccountToken } from './account-token.entity.js';
import { AuthSession } from './auth-session.entity.js';
import type { AuthService } from './auth.service.js';
import { normaliseEmail } from './auth.validation.js';
import { User } from './user.entity.js';
import type { RateLimits } from '../limits/index.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  taken: { id: 'error.account.addressTaken', defaultMessage: 'Another account already uses this address.' },
  same: { id: 'error.account.sameAddress', defaultMessage: 'That is already your address.' },
});

export interface EmailAddressOptions {
  auth: AuthService;
  links: AccountLinks;
  mail: AccountMailQueue;
  limits: RateLimits;
  clock: () => Date;
  /** Told, in the transaction, that the account proved it holds the address: its guest orders join it. */
  addressProven?: (em: EntityManager, userId: number, email: string) => Promise<void>;
}

export interface AddressConfirmed {
  message: string;
  /** The account's address now. */
  email: string;
  /** A fresh session token when the link was opened by the account's own signed-in session (its claims name the new address). */
  token: string | null;
}

const TAKEN = refusals.taken;

/**
 * An account's e-mail address: its confirmation (a link sent on registering, valid 7 days, and sent
 * again on request), and changing it (the password, then a link to the new address; the address
 * changes once that link is opened, and the old address is told). A confirmed address takes in the
 * guest orders placed with it, and only then: an order joins an account only when whoever opened a
 * link at that address holds the account.
 */
export class EmailAddressService {
  constructor(private readonly options: EmailAddressOptions) {}

  /** Queues the confirmation e-mail of a new account, in the transaction that writes it. */
  async sendConfirmation(em: EntityManager, user: User): Promise<void> {
    const link = await this.options.links.issue(em, AccountTokenPurpose.EMAIL_CONFIRM, user.email, user.id, this.options.clock());
    await this.options.mail.queue(em, { kind: 'email-confirm', to: user.email, tokenId: link.tokenId, seed: link.seed, locale: user.locale });
  }

  /** "Send the link again": a new confirmation e-mail (at most 5 e-mails about an account's address an hour). */
  async resendConfirmation(ctx: RequestContext): Promise<{ message: string }> {
    const user = await this.options.auth.requireUser(ctx);
    if (user.emailConfirmedAt) return { message: 'Your e-mail address is already confirmed.' };
    await this.options.limits.take([this.options.limits.rules.addressEmails, String(user.id)]);
    await ctx.em.fork().transactional(async (em) => this.sendConfirmation(em, await em.findOneOrFail(User, user.id)));
    ctx.log.info({ userId: user.id }, 'address confirmation sent again');
    return { message: `We have sent a new link to ${user.email}.` };
  }

  /**
   * Asks to change the account's address: the password first, then a link to the new address. The
   * answer and the work are the same whether or not another account uses that address (this is only
   * found out when the link is opened, by whoever holds the address). A newer request replaces an
   * earlier one.
   */
  async requestChange(ctx: RequestContext, input: { newEmail?: unknown; password?: unknown }): Promise<{ message: string }> {
    const newEmail = normaliseEmail(input.newEmail, 'newEmail');
    const user = await this.options.auth.requireUser(ctx);
    await this.options.auth.confirmPassword(ctx, user, input.password);
    if (newEmail === user.email) throw badInput(refusals.same, 'newEmail');
    await this.options.limits.take([this.options.limits.rules.addressEmails, String(user.id)]);
    const now = this.options.clock();
    await ctx.em.fork().transactional(async (em) => {
      await this.options.links.retire(em, user.id, [AccountTokenPurpose.EMAIL_CHANGE], now);
      const link = await this.options.links.issue(em, AccountTokenPurpose.EMAIL_CHANGE, newEmail, user.id, now);
      await this.options.mail.queue(em, { kind: 'email-change', to: newEmail, tokenId: link.tokenId, seed: link.seed, locale: ctx.locale });
    });
    ctx.log.info({ userId: user.id }, 'change of address asked');
    return { message: `We have sent a link to ${newEmail}. Your address changes once you open it.` };
  }

  /** The address an account asked to change to and has not confirmed yet (null: none). */
  async pendingChange(em: EntityManager, userId: number): Promise<{ email: string; sentAt: Date } | null> {
    const link = await em.findOne(
      AccountToken,
      { user: userId, purpose: AccountTokenPurpose.EMAIL_CHANGE, usedAt: null, expiresAt: { $gt: this.options.clock() } },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
    return link ? { email: link.email, sentAt: link.createdAt } : null;
  }

  /**
   * `/verify-email?token=…`: confirms the account's address, or makes a new address the account's.
   * Either way the address's guest orders join the account. A link for an address the account no
   * longer has (it changed since) is TOKEN_INVALID; a new address another account took meanwhile is
   * CONFLICT, and nothing changes.
   */
  async verify(ctx: RequestContext, input: { token?: unknown }): Promise<AddressConfirmed> {
    const now = this.options.clock();
    const done = await ctx.em.fork().transactional(async (em) => {
      const link = await this.options.links.take(em, [AccountTokenPurpose.EMAIL_CONFIRM, AccountTokenPurpose.EMAIL_CHANGE], input.token, now);
      const user = await em.findOneOrFail(User, link.user!.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const before = user.email;
      if (link.purpose === AccountTokenPurpose.EMAIL_CONFIRM) {
        if (link.email !== user.email) throw tokenInvalid();
        await this.addressProven(em, user.id, user.email, now);
        return { user, changedFrom: null };
      }
      if (await em.count(User, { email: link.email, id: { $ne: user.id } })) throw conflict(TAKEN, 'email');
      user.email = link.email;
      user.emailConfirmedAt = now;
      await conflictOnUnique(() => em.flush(), () => conflict(TAKEN, 'email'));
      // Links sent to the old address (a reset, a confirmation) and any other change asked no longer do anything.
      await this.options.links.retireAll(em, user.id, now);
      await this.options.addressProven?.(em, user.id, user.email);
      await this.options.mail.queue(em, { kind: 'email-changed', to: before, userId: user.id, newEmail: user.email, locale: ctx.locale });
      return { user, changedFrom: before };
    });
    const { user } = done;
    ctx.log.info({ userId: user.id, changed: done.changedFrom !== null }, done.changedFrom ? 'address changed' : 'address confirmed');
    const token = await this.freshSession(ctx, user);
    return {
      message: done.changedFrom ? `Your address is now ${user.email}.` : 'Your e-mail address is confirmed.',
      email: user.email,
      token,
    };
  }

  /**
   * Whoever opened a link at the account's address holds it: the address is confirmed (if it was not)
   * and its guest orders join the account. Runs in the caller's transaction.
   */
  async addressProven(em: EntityManager, userId: number, email: string, now: Date): Promise<void> {
    await em.nativeUpdate(User, { id: userId, email, emailConfirmedAt: null }, { emailConfirmedAt: now });
    await this.options.addressProven?.(em, userId, email);
  }

  /**
   * When the link was opened by a signed-in session of the same account, that session is replaced by
   * a fresh one whose claims carry the account's address as it is now.
   */
  private async freshSession(ctx: RequestContext, user: User): Promise<string | null> {
    const viewer = await ctx.viewer();
    if (!viewer || viewer.user.id !== user.id) return null;
    return ctx.em.fork().transactional(async (em) => {
      await em.nativeDelete(AuthSession, { jti: viewer.jti });
      return this.options.auth.startSession(em, await em.findOneOrFail(User, user.id));
    });
  }
}
