import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountLinks } from './account-links.js';
import type { AccountEmail, AccountMailQueue } from './account-mail.js';
import { AccountToken, AccountTokenPurpose } from './account-token.entity.js';
import { User } from './user.entity.js';
import { DEFAULT_SHOP_IDENTITY, drop, button, heading, mjml, paragraph, renderEmail, type MailQueue, type MailRef, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity } from '../mail/index.js';

/** The kinds of e-mail about accounts. */
export const AccountMailKind = {
  PASSWORD_RESET: 'password-reset',
  EMAIL_CONFIRM: 'email-confirm',
  EMAIL_CHANGE: 'email-change',
  EMAIL_CHANGED: 'email-changed',
} as const;

/** The reference of an account's e-mails in the queue (to find them again when the account goes). */
export const accountRef = (userId: number): MailRef => ({ kind: 'account', id: userId });
/** The reference of a link's e-mail (the link names its token, not the account: a reset of any address is queued alike). */
export const accountLinkRef = (tokenId: number): MailRef => ({ kind: 'account-link', id: tokenId });

/** A link's e-mail carries the seed of its token (erased once sent), never the token. */
interface LinkPayload {
  tokenId: number;
  seed?: string;
}

interface ChangedPayload {
  userId: number;
  newEmail: string;
}

/** A link's expiry, in the shop's zone (named). */
const until = (at: Date, shop: ShopIdentity) => new Intl.DateTimeFormat('en-GB', { timeZone: shop.timeZone, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(at);

/** "Reset your {shop} password": the link (1 hour, once). */
export function passwordResetEmail(to: string, username: string, link: string, expiresAt: Date, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const why = `You receive this e-mail because someone asked, on the ${shop.name} sign-in page, for a link to reset the password of the account that uses this address. If it was not you, ignore it: your password stays as it is.`;
  return renderEmail({
    to,
    subject: `Reset your ${shop.name} password`,
    preview: 'A link to choose a new password; it works for an hour.',
    body: mjml`${heading('Reset your password')}
${paragraph(mjml`Choose a new password for your account <strong>${username}</strong>. Once it is set, every device signed in to your account is signed out.`)}
${button('Choose a new password', link)}
${paragraph(`The link works once, until ${until(expiresAt, shop)}. Or paste this address into your browser: ${link}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Reset your password\n\nChoose a new password for your account "${username}" (the link works once, until ${until(expiresAt, shop)}):\n${link}\n\nOnce it is set, every device signed in to your account is signed out.\n\n${why}`,
    shop,
  });
}

/** "Confirm your e-mail address", on registering (and "Send the link again"). */
export function confirmEmail(to: string, username: string, link: string, expiresAt: Date, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const why = `You receive this e-mail because ${/^[aeiou]/i.test(shop.name) ? 'an' : 'a'} ${shop.name} account (${username}) was created with this address. If it was not you, ignore it: the address is not confirmed, and nothing placed with it joins that account.`;
  return renderEmail({
    to,
    subject: 'Confirm your e-mail address',
    preview: 'One click, and orders you placed with this address appear in your account.',
    body: mjml`${heading('Confirm your e-mail address')}
${paragraph(mjml`Welcome to ${shop.name}, <strong>${username}</strong>. Confirm that this address is yours: orders you placed as a guest with it then appear in My orders.`)}
${button('Confirm my address', link)}
${paragraph(`The link works until ${until(expiresAt, shop)}. Or paste this address into your browser: ${link}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Confirm your e-mail address\n\nWelcome to ${shop.name}, ${username}. Confirm that this address is yours (the link works until ${until(expiresAt, shop)}):\n${link}\n\nOrders you placed as a guest with it then appear in My orders.\n\n${why}`,
    shop,
  });
}

/** To a new address: it becomes the account's once the link is opened. */
export function changeEmail(to: string, username: string, link: string, expiresAt: Date, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const why = `You receive this e-mail because the ${shop.name} account ${username} asked to use this address from now on. If it was not you, ignore it: nothing changes unless the link is opened.`;
  return renderEmail({
    to,
    subject: 'Confirm your new e-mail address',
    preview: `Open the link and this becomes the address of your ${shop.name} account.`,
    body: mjml`${heading('Confirm your new e-mail address')}
${paragraph(mjml`Open the link, and this address becomes the one of your account <strong>${username}</strong>. Until then, the account keeps its old address.`)}
${button('Use this address', link)}
${paragraph(`The link works once, until ${until(expiresAt, shop)}. Or paste this address into your browser: ${link}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `Confirm your new e-mail address\n\nOpen the link, and this address becomes the one of your account "${username}" (the link works once, until ${until(expiresAt, shop)}):\n${link}\n\nUntil then, the account keeps its old address.\n\n${why}`,
    shop,
  });
}

/** To the old address, once a new one took effect. */
export function emailChangedEmail(to: string, username: string, newEmail: string, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY): Promise<MailContent> {
  const reset = `${baseUrl}/forgot-password`;
  const why = `You receive this e-mail because this address was the one of the ${shop.name} account ${username} until now.`;
  return renderEmail({
    to,
    subject: `Your ${shop.name} address was changed`,
    preview: `Your account now uses ${newEmail}.`,
    body: mjml`${heading('Your address was changed')}
${paragraph(mjml`The account <strong>${username}</strong> now uses <strong>${newEmail}</strong>; e-mails about it and its orders go there from now on.`)}
${paragraph(mjml`If you did not change it, someone else may be signed in to your account: <a href="${reset}">reset your password</a> with the new address, or write to us by replying to this e-mail.`)}
${paragraph(why, { quiet: true })}`,
    text: `Your address was changed\n\nThe account "${username}" now uses ${newEmail}; e-mails about it and its orders go there from now on.\n\nIf you did not change it, someone else may be signed in to your account: reset your password (${reset}) or write to us by replying to this e-mail.\n\n${why}`,
    shop,
  });
}

/**
 * The e-mails about accounts, through the shop's mail queue: each queued in the transaction that
 * records what it is about. A link's renderer loads the batch's links (with their accounts) in one
 * query and makes each token again from its seed; a link used, replaced or expired before its e-mail
 * went out, and a reset asked for an address no account uses, are dropped without a trace.
 */
export class AccountEmails implements AccountMailQueue {
  constructor(
    private readonly mail: MailQueue,
    private readonly links: AccountLinks,
    private readonly baseUrl: string,
    private readonly clock: () => Date,
  ) {
    const linkMail = { eraseWhenSent: ['seed'] as const, render: (jobs: readonly QueuedMail<LinkPayload>[], env: RenderEnv) => this.renderLinks(jobs, env) };
    mail.register<LinkPayload>({ kind: AccountMailKind.PASSWORD_RESET, ...linkMail });
    mail.register<LinkPayload>({ kind: AccountMailKind.EMAIL_CONFIRM, ...linkMail });
    mail.register<LinkPayload>({ kind: AccountMailKind.EMAIL_CHANGE, ...linkMail });
    mail.register<ChangedPayload>({ kind: AccountMailKind.EMAIL_CHANGED, render: (jobs, env) => this.renderChanged(jobs, env) });
  }

  async queue(em: EntityManager, email: AccountEmail): Promise<void> {
    const now = this.clock();
    if (email.kind === 'email-changed') {
      await this.mail.enqueue(em, { kind: AccountMailKind.EMAIL_CHANGED, to: email.to, dueAt: now, ref: accountRef(email.userId), payload: { userId: email.userId, newEmail: email.newEmail } });
      return;
    }
    // The reference names the link, not the account: a reset asked for any address is queued alike.
    await this.mail.enqueue(em, { kind: email.kind, to: email.to, dueAt: now, ref: accountLinkRef(email.tokenId), payload: { tokenId: email.tokenId, seed: email.seed } });
  }

  private async renderLinks(jobs: readonly QueuedMail<LinkPayload>[], { em, now, shop }: RenderEnv): Promise<RenderOutcome[]> {
    const ids = jobs.map((job) => Number(job.payload.tokenId)).filter(Number.isInteger);
    const tokens = new Map((ids.length ? await em.find(AccountToken, { id: { $in: ids } }, { populate: ['user'] }) : []).map((token) => [token.id, token]));
    return Promise.all(
      jobs.map(async (job) => {
        const token = tokens.get(Number(job.payload.tokenId));
        const user = token?.user as User | null | undefined;
        // No account (a reset asked for an unknown address), or a link no longer good: nothing goes out.
        if (!token || !user || !job.payload.seed || token.usedAt || token.expiresAt <= now || token.email !== job.to) return drop();
        const link = (path: string) => `${this.baseUrl}${path}?token=${this.links.tokenOf(job.payload.seed!)}`;
        switch (token.purpose) {
          case AccountTokenPurpose.PASSWORD_RESET:
            return user.email === token.email ? passwordResetEmail(token.email, user.username, link('/reset-password'), token.expiresAt, shop) : drop();
          case AccountTokenPurpose.EMAIL_CONFIRM:
            return user.email === token.email && !user.emailConfirmedAt ? confirmEmail(token.email, user.username, link('/verify-email'), token.expiresAt, shop) : drop();
          default:
            return changeEmail(token.email, user.username, link('/verify-email'), token.expiresAt, shop);
        }
      }),
    );
  }

  private async renderChanged(jobs: readonly QueuedMail<ChangedPayload>[], { em, shop }: RenderEnv): Promise<RenderOutcome[]> {
    const ids = jobs.map((job) => Number(job.payload.userId)).filter(Number.isInteger);
    const users = new Map((ids.length ? await em.find(User, { id: { $in: ids } }) : []).map((user) => [user.id, user]));
    return Promise.all(
      jobs.map(async (job) => {
        const user = users.get(Number(job.payload.userId));
        return user && job.to ? emailChangedEmail(job.to, user.username, job.payload.newEmail, this.baseUrl, shop) : drop();
      }),
    );
  }
}
