import type { EntityManager } from '@mikro-orm/postgresql';
import type { Locale } from '../../rules/locales.js';

/**
 * The e-mails about an account. Each is queued in the transaction that records what it is about
 * (the link, the change), so that nothing is sent for work that rolled back, and no request waits on
 * the mail server. A link's e-mail carries the seed of its token, never the token (see AccountLinks).
 */
export type AccountEmail = (

  /** "Reset your Art & Song Cards password"; dropped unsent when no account uses the address. */
  | { kind: 'password-reset'; to: string; tokenId: number; seed: string }
  /** "Confirm your e-mail address", on registering and on "Send the link again". */
  | { kind: 'email-confirm'; to: string; tokenId: number; seed: string }
  /** To a new address: it becomes the account's once its link is opened. */
  | { kind: 'email-change'; to: string; tokenId: number; seed: string }
  /** To the old address, once the new one took effect. */
  | { kind: 'email-changed'; to: string; userId: number; newEmail: string }
) & {
  /** The language it is written in: the page the request came from (English when left out). */
  locale?: Locale;
};

export interface AccountMailQueue {
  /** Queues one account e-mail in the caller's transaction (`em`), due now. */
  queue(em: EntityManager, email: AccountEmail): Promise<void>;
}
