import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import type { RateLimits } from '../limits/index.js';
import { AccountLinks, AccountTokenPurpose } from './account-links.js';
import type { AccountMailQueue } from './account-mail.js';
import { endAllSessions } from './remembered-sessions.js';
import type { Passwords } from './passwords.js';
import { checkPassword, normaliseEmail } from './auth.validation.js';
import { User } from './user.entity.js';

/** The one answer to every reset request, whether or not an account uses the address. */
export const RESET_REQUESTED = 'If an account uses that address, we have sent it a link.';
export const PASSWORD_SET = 'Your password has been set. Sign in with it.';

export interface PasswordResetOptions {
  links: AccountLinks;
  mail: AccountMailQueue;
  limits: RateLimits;
  passwords: Passwords;
  clock: () => Date;
  /** Told, in the transaction, when a link proved that its reader holds the account's address (it confirms it). */
  addressProven: (em: EntityManager, userId: number, email: string, now: Date) => Promise<void>;
}

/**
 * "Forgot password?": a link by e-mail (1 hour, once) that sets a new password and ends every session
 * of the account. Asking tells nothing about the address: the answer, the work done (one look-up,
 * one link recorded, one e-mail queued; an address without an account gets a link that can never be
 * used and an e-mail the queue drops unsent) and its timing are the same either way.
 */
export class PasswordResetService {
  constructor(private readonly options: PasswordResetOptions) {}

  async request(ctx: RequestContext, input: { email?: unknown }): Promise<{ message: string }> {
    const email = normaliseEmail(input.email);
    const { limits } = this.options;
    await limits.take([limits.rules.passwordResetPerAddress, ctx.ip], [limits.rules.passwordResetPerEmail, email]);
    const now = this.options.clock();
    await ctx.em.fork().transactional(async (em) => {
      const [user] = await em.execute<{ id: number }[]>('select "id" from "app_user" where "email" = ?', [email]);
      const link = await this.options.links.issue(em, AccountTokenPurpose.PASSWORD_RESET, email, user?.id ?? null, now);
      await this.options.mail.queue(em, { kind: 'password-reset', to: email, tokenId: link.tokenId, seed: link.seed, locale: ctx.locale });
    });
    ctx.log.info('password reset requested');
    return { message: RESET_REQUESTED };
  }

  /**
   * Sets the new password from a reset link: the link is used up, every other link of the account
   * ends (resets, confirmations, a change of address asked), and so does every session (every token
   * issued before is refused). A password that is too short is refused first, and leaves the link as
   * it was. The link went to the account's address as it is now (AccountLinks.take sees to it).
   */
  async confirm(ctx: RequestContext, input: { token?: unknown; password?: unknown }): Promise<{ message: string }> {
    const password = checkPassword(input.password);
    const passwordHash = await this.options.passwords.hash(password);
    const now = this.options.clock();
    const userId = await ctx.em.fork().transactional(async (em) => {
      const link = await this.options.links.take(em, [AccountTokenPurpose.PASSWORD_RESET], input.token, now);
      const user = link.user as User;
      await em.nativeUpdate(User, { id: user.id }, { passwordHash });
      await endAllSessions(em, user.id);
      await this.options.links.retireAll(em, user.id, now);
      // The link reached the account's own address: whoever opened it holds that address.
      await this.options.addressProven(em, user.id, user.email, now);
      return user.id;
    });
    ctx.log.info({ userId }, 'password reset');
    return { message: PASSWORD_SET };
  }
}
