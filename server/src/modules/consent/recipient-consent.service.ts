import crypto from 'node:crypto';
import { readSecret } from '../settings/index.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context.js';
import { AppError, inEnglish, said } from '../../core/errors.js';
import { preparedRead, runPrepared } from '../../db/prepared.js';
import { maskEmail } from '../../core/input.js';
import type { MailQueue } from '../mail/index.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  badLink: { id: 'error.unsubscribe.badLink', defaultMessage: 'This unsubscribe link is not valid. Open the link from the e-mail again, whole.' },
  refuses: { id: 'error.unsubscribe.refuses', defaultMessage: '{email} does not accept cards from this shop.' },
});

/** What My orders and Order Details say of a card kept back because its recipient said no. */
export const NOT_DELIVERED_UNSUBSCRIBED = 'Not delivered: the recipient unsubscribed';

/** The setting that holds the key of unsubscribe links (made once, the first time one is needed). */
const SECRET_SETTING = 'unsubscribeSecret';
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ADDITIONAL_DATA = Buffer.from('art-and-song-cards unsubscribe');
/** Longer than any link the shop writes (a 254-character address sealed): anything longer is no token. */
const MAX_TOKEN_LENGTH = 400;

/** How an address is compared: trimmed and lower-cased, as checkout keeps it. */
export const normaliseAddress = (email: string) => email.trim().toLowerCase();
const UNSUBSCRIBED_AMONG = preparedRead('consent_unsubscribed_among', 'select address_hash from unsubscribed_address where address_hash = any($1::char(64)[])');

const addressHash = (email: string) => crypto.hash('sha256', normaliseAddress(email));

const invalidLink = () => new AppError('TOKEN_INVALID', refusals.badLink);

/** "{email} does not accept cards from this shop.", for each address refused. */
export function recipientUnsubscribed(emails: readonly string[], field?: string): AppError {
  // One address is said in the shopper's language; several are listed in English, one sentence each.
  const text = emails.length === 1 ? said(refusals.refuses, { email: emails[0]! }) : emails.map((email) => inEnglish(said(refusals.refuses, { email }))).join(' ');
  return new AppError('RECIPIENT_UNSUBSCRIBED', text, { field });
}

/** The headers of an e-mail to a recipient (RFC 2369 and RFC 8058's one-click unsubscribe). */
export interface ListUnsubscribeHeaders {
  'List-Unsubscribe': string;
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click';
}

/** The headers of an e-mail whose unsubscribe link is `url`. */
export const listUnsubscribeHeaders = (url: string): ListUnsubscribeHeaders => ({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

/** What an e-mail to a recipient needs to offer its unsubscribe link in its text (the renderers of cards and reminders). */
export interface RecipientLinks {
  unsubscribeUrl(em: EntityManager, email: string): Promise<string>;
  assertAccepting(em: EntityManager, recipients: readonly { email: string; field?: string }[]): Promise<void>;
}

/**
 * Recipients can say no. Every e-mail to a recipient carries a link (`/unsubscribe?token=…`) whose
 * token is the recipient's address sealed with AES-256-GCM under a key kept in the database: it names
 * the address to the shop alone, and cannot be made or altered by anyone else. Unsubscribing keeps a
 * digest of the address; it is idempotent. Checkout, the mail queue's senders and any feature that
 * writes to a recipient ask `unsubscribedAmong` (one query for any number of addresses).
 */
export class RecipientConsent implements RecipientLinks {
  private key: Promise<crypto.KeyObject> | null = null;
  private readonly protectedKinds = new Set<string>();
  private guarding = false;

  constructor(private readonly options: { baseUrl: string }) {}

  /** The addresses among these whose owners unsubscribed (as given; compared trimmed and lower-cased). */
  async unsubscribedAmong(em: EntityManager, emails: readonly string[]): Promise<Set<string>> {
    const distinct = [...new Set(emails.filter(Boolean))];
    if (!distinct.length) return new Set();
    const hashes = distinct.map(addressHash);
    // Hashes are hex digits: the array literal needs no quoting.
    const rows = await runPrepared<{ address_hash: string }>(em, UNSUBSCRIBED_AMONG, [`{${hashes.join(',')}}`]);
    const refused = new Set(rows.map((row) => row.address_hash));
    return new Set(distinct.filter((_, i) => refused.has(hashes[i]!)));
  }

  /**
   * Refuses (400 RECIPIENT_UNSUBSCRIBED, naming every refused address, on the first one's field)
   * when any of these recipients unsubscribed.
   */
  async assertAccepting(em: EntityManager, recipients: readonly { email: string; field?: string }[]): Promise<void> {
    const refused = await this.unsubscribedAmong(em, recipients.map((r) => r.email));
    if (!refused.size) return;
    const first = recipients.find((r) => refused.has(r.email));
    throw recipientUnsubscribed([...refused], first?.field);
  }

  /** The page (and one-click POST address) that unsubscribes this address. */
  async unsubscribeUrl(em: EntityManager, email: string): Promise<string> {
    return `${this.options.baseUrl}/unsubscribe?token=${await this.seal(em, normaliseAddress(email))}`;
  }

  /** `List-Unsubscribe` (the https link) and `List-Unsubscribe-Post` for an e-mail to `email`. */
  async listUnsubscribeHeaders(em: EntityManager, email: string): Promise<ListUnsubscribeHeaders> {
    return listUnsubscribeHeaders(await this.unsubscribeUrl(em, email));
  }

  /**
   * Marks kinds of e-mail as going to recipients (people who never signed up: cards, reminders,
   * signing invitations). Just before any e-mail of these kinds is sent, the queue's filter withholds
   * it when its address said no ("Not delivered: the recipient unsubscribed", shown to admins and
   * owners), and gives it `List-Unsubscribe` and `List-Unsubscribe-Post` when its renderer did not.
   * One query per batch, whatever its size.
   */
  protect(mail: MailQueue, kinds: readonly string[]): void {
    for (const kind of kinds) this.protectedKinds.add(kind);
    if (this.guarding) return;
    this.guarding = true;
    mail.addFilter(async (entries, { em }) => {
      const toRecipients = entries.filter((entry) => this.protectedKinds.has(entry.job.kind));
      if (!toRecipients.length) return;
      const refused = await this.unsubscribedAmong(em, toRecipients.map((entry) => entry.mail.to));
      for (const entry of toRecipients) {
        if (refused.has(entry.mail.to)) entry.withhold(NOT_DELIVERED_UNSUBSCRIBED);
        else if (!entry.mail.headers['List-Unsubscribe']) Object.assign(entry.mail.headers, await this.listUnsubscribeHeaders(em, entry.mail.to));
      }
    });
  }

  /** What the unsubscribe page shows: the address, masked, and whether it already said no. */
  async describe(ctx: RequestContext, token: unknown): Promise<{ maskedEmail: string; unsubscribed: boolean }> {
    const email = await this.open(ctx.em, token);
    return { maskedEmail: maskEmail(email), unsubscribed: (await this.unsubscribedAmong(ctx.em, [email])).size > 0 };
  }

  /** Unsubscribes the link's address at once; doing it again changes nothing. */
  async unsubscribe(ctx: RequestContext, token: unknown): Promise<{ maskedEmail: string; unsubscribed: true }> {
    const email = await this.open(ctx.em, token);
    const added = await ctx.em.execute<{ address_hash: string }[]>(
      `insert into "unsubscribed_address" ("address_hash") values (?) on conflict do nothing returning "address_hash"`,
      [addressHash(email)],
    );
    if (added.length) ctx.log.info('recipient unsubscribed');
    return { maskedEmail: maskEmail(email), unsubscribed: true };
  }

  private async seal(em: EntityManager, email: string): Promise<string> {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', await this.keyOf(em), iv);
    cipher.setAAD(ADDITIONAL_DATA);
    const sealed = Buffer.concat([Buffer.from([VERSION]), iv, cipher.update(email, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return sealed.toString('base64url');
  }

  /** The address a link's token seals; TOKEN_INVALID for anything the shop did not write. */
  private async open(em: EntityManager, token: unknown): Promise<string> {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalidLink();
    const sealed = Buffer.from(token, 'base64url');
    if (sealed.length <= 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw invalidLink();
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', await this.keyOf(em), sealed.subarray(1, 1 + IV_BYTES));
      decipher.setAAD(ADDITIONAL_DATA);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const email = Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      if (!email.includes('@')) throw invalidLink();
      return email;
    } catch {
      throw invalidLink();
    }
  }

  /**
   * The sealing key, from the random secret the migration put in the `setting` table: the same for
   * every process and every restart, so that a link keeps working for as long as its e-mail is kept.
   * Only read here (never written), so that reading it inside any transaction is safe.
   */
  private keyOf(em: EntityManager): Promise<crypto.KeyObject> {
    this.key ??= (async () => {
      const secret = await readSecret(em, SECRET_SETTING);
      if (!secret) throw new Error(`The setting ${SECRET_SETTING} is missing: the migration accounts_consent has not run.`);
      // A key object, made once: a cipher made from raw bytes makes one for every link.
      return crypto.createSecretKey(Buffer.from(crypto.hkdfSync('sha256', secret, 'art-and-song-cards', 'unsubscribe links', 32)));
    })().catch((error: unknown) => {
      this.key = null;
      throw error;
    });
    return this.key;
  }
}
