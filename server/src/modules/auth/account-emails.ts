import type { EntityManager } from '@mikro-orm/postgresql';
import { defineMessages } from '@formatjs/intl';
import { html, SafeHtml } from '../../core/html.js';
import { DEFAULT_LOCALE, INTL_LOCALES, localizedPath, type Locale } from '../../rules/locales.js';
import type { AccountLinks } from './account-links.js';
import type { AccountEmail, AccountMailQueue } from './account-mail.js';
import { AccountToken, AccountTokenPurpose } from './account-token.entity.js';
import { User } from './user.entity.js';
import { DEFAULT_SHOP_IDENTITY, drop, button, heading, mjml, paragraph, renderEmail, type MailQueue, type MailRef, type QueuedMail, type RenderEnv, type RenderOutcome, type MailContent, type ShopIdentity, inLanguage, wordsFor } from '../mail/index.js';

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
  locale?: Locale;
}

interface ChangedPayload {
  userId: number;
  newEmail: string;
  locale?: Locale;
}

const messages = defineMessages({
  paste: { id: 'mail.account.paste', defaultMessage: 'Or paste this address into your browser: {link}' },
  resetWhy: { id: 'mail.reset.why', defaultMessage: 'You receive this e-mail because someone asked, on the {shop} sign-in page, for a link to reset the password of the account that uses this address. If it was not you, ignore it: your password stays as it is.' },
  resetSubject: { id: 'mail.reset.subject', defaultMessage: 'Reset your {shop} password' },
  resetPreview: { id: 'mail.reset.preview', defaultMessage: 'A link to choose a new password; it works for an hour.' },
  resetHeading: { id: 'mail.reset.heading', defaultMessage: 'Reset your password' },
  resetBody: { id: 'mail.reset.body', defaultMessage: 'Choose a new password for your account <b>{username}</b>. Once it is set, every device signed in to your account is signed out.' },
  resetButton: { id: 'mail.reset.button', defaultMessage: 'Choose a new password' },
  resetUntil: { id: 'mail.reset.until', defaultMessage: 'The link works once, until {until}.' },
  resetText: { id: 'mail.reset.text', defaultMessage: 'Choose a new password for your account {username} (the link works once, until {until}):' },
  signedOut: { id: 'mail.reset.signedOut', defaultMessage: 'Once it is set, every device signed in to your account is signed out.' },
  confirmWhy: { id: 'mail.confirm.why', defaultMessage: 'You receive this e-mail because {article, select, an {an} other {a}} {shop} account ({username}) was created with this address. If it was not you, ignore it: the address is not confirmed, and nothing placed with it joins that account.' },
  confirmSubject: { id: 'mail.confirm.subject', defaultMessage: 'Confirm your e-mail address' },
  confirmPreview: { id: 'mail.confirm.preview', defaultMessage: 'One click, and orders you placed with this address appear in your account.' },
  confirmBody: { id: 'mail.confirm.body', defaultMessage: 'Welcome to {shop}, <b>{username}</b>. Confirm that this address is yours: orders you placed as a guest with it then appear in My orders.' },
  confirmButton: { id: 'mail.confirm.button', defaultMessage: 'Confirm my address' },
  confirmUntil: { id: 'mail.confirm.until', defaultMessage: 'The link works until {until}.' },
  confirmText: { id: 'mail.confirm.text', defaultMessage: 'Welcome to {shop}, {username}. Confirm that this address is yours (the link works until {until}):' },
  confirmOrders: { id: 'mail.confirm.orders', defaultMessage: 'Orders you placed as a guest with it then appear in My orders.' },
  changeWhy: { id: 'mail.change.why', defaultMessage: 'You receive this e-mail because the {shop} account {username} asked to use this address from now on. If it was not you, ignore it: nothing changes unless the link is opened.' },
  changeSubject: { id: 'mail.change.subject', defaultMessage: 'Confirm your new e-mail address' },
  changePreview: { id: 'mail.change.preview', defaultMessage: 'Open the link and this becomes the address of your {shop} account.' },
  changeBody: { id: 'mail.change.body', defaultMessage: 'Open the link, and this address becomes the one of your account <b>{username}</b>. Until then, the account keeps its old address.' },
  changeButton: { id: 'mail.change.button', defaultMessage: 'Use this address' },
  changeText: { id: 'mail.change.text', defaultMessage: 'Open the link, and this address becomes the one of your account {username} (the link works once, until {until}):' },
  changeKeeps: { id: 'mail.change.keeps', defaultMessage: 'Until then, the account keeps its old address.' },
  changedWhy: { id: 'mail.changed.why', defaultMessage: 'You receive this e-mail because this address was the one of the {shop} account {username} until now.' },
  changedSubject: { id: 'mail.changed.subject', defaultMessage: 'Your {shop} address was changed' },
  changedPreview: { id: 'mail.changed.preview', defaultMessage: 'Your account now uses {email}.' },
  changedHeading: { id: 'mail.changed.heading', defaultMessage: 'Your address was changed' },
  changedBody: { id: 'mail.changed.body', defaultMessage: 'The account <b>{username}</b> now uses <b>{email}</b>; e-mails about it and its orders go there from now on.' },
  changedNotYou: { id: 'mail.changed.notYou', defaultMessage: 'If you did not change it, someone else may be signed in to your account: <reset>reset your password</reset> with the new address, or write to us by replying to this e-mail.' },
  changedNotYouText: { id: 'mail.changed.notYouText', defaultMessage: 'If you did not change it, someone else may be signed in to your account: reset your password ({link}) or write to us by replying to this e-mail.' },
});

/** A link's expiry, in the shop's zone (named), in a language (English writes it the British way, as it always has). */
const until = (at: Date, shop: ShopIdentity, locale?: Locale) =>
  new Intl.DateTimeFormat(!locale || locale === DEFAULT_LOCALE ? 'en-GB' : INTL_LOCALES[locale], { timeZone: shop.timeZone, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(at);

/** "Reset your {shop} password": the link (1 hour, once), in the language of the page it was asked from. */
export function passwordResetEmail(to: string, username: string, link: string, expiresAt: Date, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY, locale?: Locale): Promise<MailContent> {
  const words = wordsFor(locale);
  const why = words.text(messages.resetWhy, { shop: shop.name });
  const heading_ = words.text(messages.resetHeading);
  const expiry = until(expiresAt, shop, locale);
  return renderEmail({
    to,
    subject: words.text(messages.resetSubject, { shop: shop.name }),
    preview: words.text(messages.resetPreview),
    body: mjml`${heading(heading_)}
${paragraph(words.html(messages.resetBody, { username }))}
${button(words.text(messages.resetButton), link)}
${paragraph(`${words.text(messages.resetUntil, { until: expiry })} ${words.text(messages.paste, { link })}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `${heading_}\n\n${words.text(messages.resetText, { username: words.quoted(username), until: expiry })}\n${link}\n\n${words.text(messages.signedOut)}\n\n${why}`,
    shop,
    locale,
  });
}

/** "Confirm your e-mail address", on registering (and "Send the link again"), in the account's language. */
export function confirmEmail(to: string, username: string, link: string, expiresAt: Date, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY, locale?: Locale): Promise<MailContent> {
  const words = wordsFor(locale);
  const why = words.text(messages.confirmWhy, { article: /^[aeiou]/i.test(shop.name) ? 'an' : 'a', shop: shop.name, username });
  const subject = words.text(messages.confirmSubject);
  const expiry = until(expiresAt, shop, locale);
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.confirmPreview),
    body: mjml`${heading(subject)}
${paragraph(words.html(messages.confirmBody, { shop: shop.name, username }))}
${button(words.text(messages.confirmButton), link)}
${paragraph(`${words.text(messages.confirmUntil, { until: expiry })} ${words.text(messages.paste, { link })}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${words.text(messages.confirmText, { shop: shop.name, username, until: expiry })}\n${link}\n\n${words.text(messages.confirmOrders)}\n\n${why}`,
    shop,
    locale,
  });
}

/** To a new address: it becomes the account's once the link is opened. In the language of the page it was asked from. */
export function changeEmail(to: string, username: string, link: string, expiresAt: Date, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY, locale?: Locale): Promise<MailContent> {
  const words = wordsFor(locale);
  const why = words.text(messages.changeWhy, { shop: shop.name, username });
  const subject = words.text(messages.changeSubject);
  const expiry = until(expiresAt, shop, locale);
  return renderEmail({
    to,
    subject,
    preview: words.text(messages.changePreview, { shop: shop.name }),
    body: mjml`${heading(subject)}
${paragraph(words.html(messages.changeBody, { username }))}
${button(words.text(messages.changeButton), link)}
${paragraph(`${words.text(messages.resetUntil, { until: expiry })} ${words.text(messages.paste, { link })}`, { quiet: true })}
${paragraph(why, { quiet: true })}`,
    text: `${subject}\n\n${words.text(messages.changeText, { username: words.quoted(username), until: expiry })}\n${link}\n\n${words.text(messages.changeKeeps)}\n\n${why}`,
    shop,
    locale,
  });
}

/** To the old address, once a new one took effect (in the language of the page the link was opened in). */
export function emailChangedEmail(to: string, username: string, newEmail: string, baseUrl: string, shop: ShopIdentity = DEFAULT_SHOP_IDENTITY, locale?: Locale): Promise<MailContent> {
  const words = wordsFor(locale);
  const reset = `${baseUrl}${localizedPath(locale ?? DEFAULT_LOCALE, '/forgot-password')}`;
  const why = words.text(messages.changedWhy, { shop: shop.name, username });
  const title = words.text(messages.changedHeading);
  return renderEmail({
    to,
    subject: words.text(messages.changedSubject, { shop: shop.name }),
    preview: words.text(messages.changedPreview, { email: newEmail }),
    body: mjml`${heading(title)}
${paragraph(words.html(messages.changedBody, { username, email: newEmail }))}
${paragraph(words.html(messages.changedNotYou, {}, { reset: (inner) => html`<a href="${reset}">${new SafeHtml(inner)}</a>`.value }))}
${paragraph(why, { quiet: true })}`,
    text: `${title}\n\n${words.text(messages.changedBody, { username: words.quoted(username), email: newEmail })}\n\n${words.text(messages.changedNotYouText, { link: reset })}\n\n${why}`,
    shop,
    locale,
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
      await this.mail.enqueue(em, { kind: AccountMailKind.EMAIL_CHANGED, to: email.to, dueAt: now, ref: accountRef(email.userId), payload: { userId: email.userId, newEmail: email.newEmail, ...inLanguage(email.locale) } });
      return;
    }
    // The reference names the link, not the account: a reset asked for any address is queued alike.
    await this.mail.enqueue(em, { kind: email.kind, to: email.to, dueAt: now, ref: accountLinkRef(email.tokenId), payload: { tokenId: email.tokenId, seed: email.seed, ...inLanguage(email.locale) } });
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
        const link = (path: string) => `${this.baseUrl}${localizedPath(job.payload.locale ?? DEFAULT_LOCALE, path)}?token=${this.links.tokenOf(job.payload.seed!)}`;
        switch (token.purpose) {
          case AccountTokenPurpose.PASSWORD_RESET:
            return user.email === token.email ? passwordResetEmail(token.email, user.username, link('/reset-password'), token.expiresAt, shop, job.payload.locale) : drop();
          case AccountTokenPurpose.EMAIL_CONFIRM:
            return user.email === token.email && !user.emailConfirmedAt ? confirmEmail(token.email, user.username, link('/verify-email'), token.expiresAt, shop, job.payload.locale) : drop();
          default:
            return changeEmail(token.email, user.username, link('/verify-email'), token.expiresAt, shop, job.payload.locale);
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
        return user && job.to ? emailChangedEmail(job.to, user.username, job.payload.newEmail, this.baseUrl, shop, job.payload.locale) : drop();
      }),
    );
  }
}
