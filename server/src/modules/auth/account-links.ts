import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../core/errors.js';
import { AccountToken, AccountTokenPurpose } from './account-token.entity.js';
import { User } from './user.entity.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  invalid: { id: 'error.account.linkInvalid', defaultMessage: 'This link is not valid: it was used already, it has expired or it was replaced by a newer one. Ask for a new one.' },
});

export { AccountTokenPurpose };

/** How long each kind of link works. */
export const LINK_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  [AccountTokenPurpose.PASSWORD_RESET]: 60 * 60_000,
  [AccountTokenPurpose.EMAIL_CONFIRM]: 7 * 86_400_000,
  [AccountTokenPurpose.EMAIL_CHANGE]: 7 * 86_400_000,
};

/** What a used, expired, replaced, tampered or unknown link answers (400 TOKEN_INVALID): nothing changed. */
export const tokenInvalid = () =>
  new AppError('TOKEN_INVALID', refusals.invalid);

/** A link's token as the shop writes it: 43 characters of base64url (256 bits). Anything else is no token. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const digest = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * The links the shop e-mails about accounts. A link's token is an HMAC of a random seed under a key
 * derived from the session signing secret; the database keeps only the token's SHA-256 digest, and
 * the e-mail waiting in the queue only the seed. Reading the database therefore never gives a
 * working link: that needs the signing secret too, which signs sessions anyway.
 */
export class AccountLinks {
  private readonly key: Buffer;

  constructor(signingSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', signingSecret, 'art-and-song-cards', 'account links', 32));
  }

  /** The token of a seed (as the e-mail's renderer makes it again from the queued seed). */
  tokenOf(seed: string): string {
    return crypto.createHmac('sha256', this.key).update(seed).digest('base64url');
  }

  /**
   * Records a new link for `email` (and the account, when there is one) in the caller's transaction;
   * answers the seed the e-mail makes the link from. Every call does the same work, with or without
   * an account.
   */
  async issue(em: EntityManager, purpose: AccountTokenPurpose, email: string, userId: number | null, now: Date): Promise<{ seed: string; tokenId: number; expiresAt: Date }> {
    const seed = crypto.randomBytes(24).toString('base64url');
    const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS[purpose]);
    const row = em.create(AccountToken, { purpose, email, user: userId === null ? null : em.getReference(User, userId), tokenHash: digest(this.tokenOf(seed)), expiresAt, createdAt: now });
    await em.flush();
    return { seed, tokenId: row.id, expiresAt };
  }

  /**
   * Takes a link's token for good (single use) in the caller's transaction: one conditional UPDATE,
   * so that a link opened twice at the same moment works once. Unknown, used, expired, tampered
   * tokens, a token of another purpose and one recorded without an account are TOKEN_INVALID; so is
   * a link that went to another address than the account's own now (a change of address's link goes
   * to the new address: it is the one exception).
   */
  async take(em: EntityManager, purposes: AccountTokenPurpose[], rawToken: unknown, now: Date): Promise<AccountToken> {
    const token = typeof rawToken === 'string' ? rawToken.trim() : '';
    if (!TOKEN_SHAPE.test(token)) throw tokenInvalid();
    const [row] = await em.execute<{ id: number }[]>(
      `update "account_token" as t set "used_at" = ?
        where t."token_hash" = ? and t."purpose" in (${purposes.map(() => '?').join(', ')}) and t."used_at" is null and t."expires_at" > ? and t."user_id" is not null
          and (t."purpose" = ? or t."email" = (select u."email" from "app_user" as u where u."id" = t."user_id"))
        returning t."id"`,
      [now, digest(token), ...purposes, now, AccountTokenPurpose.EMAIL_CHANGE],
    );
    if (!row) throw tokenInvalid();
    return em.findOneOrFail(AccountToken, row.id, { populate: ['user'], refresh: true });
  }

  /** Ends the account's other open links of these kinds (a newer change of address replaces the earlier one). */
  async retire(em: EntityManager, userId: number, purposes: AccountTokenPurpose[], now: Date): Promise<void> {
    await em.nativeUpdate(AccountToken, { user: userId, purpose: { $in: purposes }, usedAt: null }, { usedAt: now });
  }

  /**
   * Ends every open link of the account, of every kind: its address or its password changed, so a
   * link sent before (to an address it may no longer hold, or asked by someone who no longer may)
   * must not change either again.
   */
  async retireAll(em: EntityManager, userId: number, now: Date): Promise<void> {
    await this.retire(em, userId, Object.values(AccountTokenPurpose), now);
  }

  /** Removes links that expired more than a day ago (run daily where the background jobs run). */
  async sweep(em: EntityManager, now: Date): Promise<number> {
    return em.nativeDelete(AccountToken, { expiresAt: { $lt: new Date(now.getTime() - 86_400_000) } });
  }
}
