import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter, type TransportOptions } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { composeMail } from './mime.js';

export interface OutgoingMail {
  /** Stable per job: the Message-ID and the outbox file name, so a retried send replaces, never doubles. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, ...). */
  headers?: Record<string, string>;
  /** The display name of From, in place of the configured one (the address stays the configured one). */
  fromName?: string;
}

export interface Mailer {
  /**
   * Sends one e-mail. `ready`, when given, is awaited once the message is composed, just before it is
   * handed over: a send rate is kept by the moment a message starts at the server, not by when its
   * composing began.
   */
  send(mail: OutgoingMail, ready?: () => Promise<void>): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  /** The domain of Message-IDs. */
  domain: string;
  /** SMTP connections kept open and used at once (SMTP_POOL_SIZE, default 5). */
  poolSize?: number;
  /** How long a silent SMTP server is waited for (connecting, greeting, and any step of a send, DATA included). */
  timeoutMs?: number;
  /** Signs every e-mail (nodemailer's DKIM signer) when given. */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

/**
 * Sends through SMTP when `SMTP_URL` is set, over a pool of `poolSize` connections that stay open
 * from e-mail to e-mail; otherwise writes each e-mail as `<id>.eml` into the outbox. The pool is made
 * on the first send (again after `close`).
 */
export function createMailer(options: MailerOptions): Mailer {
  const dkim = options.dkim ? { dkim: options.dkim } : {};
  const timeout = options.timeoutMs ?? 30_000;
  let smtp: Transporter | null = null;
  const pooled = {
    url: options.smtpUrl,
    pool: true,
    maxConnections: options.poolSize ?? 5,
    maxMessages: Infinity,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    ...dkim,
  };
  const transport = () => (smtp ??= nodemailer.createTransport(pooled as TransportOptions));
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix', ...dkim });
  // Composed here (mime.ts) and handed to nodemailer whole: it sends, pools, times out and signs.
  const messageIdOf = (mail: OutgoingMail) => `<${mail.id}@${options.domain}>`;
  const fromAddress = addressOf(options.from);
  // nodemailer quotes and encodes a name given apart from its address: a name with "&" or accents stays one display name.
  const fromOf = (mail: OutgoingMail) => (mail.fromName && fromAddress ? { name: mail.fromName, address: fromAddress } : options.from);
  const message = (mail: OutgoingMail) =>
    composeMail({ from: fromOf(mail), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, messageId: messageIdOf(mail), boundaryId: mail.id });
  return {
    async send(mail, ready) {
      const { raw, envelope } = message(mail);
      // The Message-ID is in the raw message; told to nodemailer too, which otherwise draws a random one for its report.
      const messageId = messageIdOf(mail);
      await ready?.();
      if (options.smtpUrl) {
        await transport().sendMail({ envelope, raw, messageId });
        return;
      }
      // The outbox keeps Unix line ends, as a mail program writes .eml files.
      const info = await stream.sendMail({ envelope, raw: raw.toString().replace(/\r\n/g, '\n'), messageId });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${mail.id}.eml`);
      // Written whole, then renamed: a reader never sees half an e-mail.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
    },
    close() {
      smtp?.close();
      smtp = null;
    },
  };
}

/** The address of a configured sender (`Name <address>` or a bare address). */
function addressOf(from: string): string | null {
  const [first] = addressparser(from);
  return first && 'address' in first && first.address ? first.address : null;
}
