import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  /** Stable per job: the Message-ID and the outbox file name, so a retried send replaces, never doubles. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, ...). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  /** The domain of Message-IDs. */
  domain: string;
}

/** Sends through SMTP when `SMTP_URL` is set; otherwise writes each e-mail as `<id>.eml` into the outbox. */
export function createMailer(options: MailerOptions): Mailer {
  const smtp = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const message = (mail: OutgoingMail) => ({
    from: options.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@${options.domain}>`,
    ...(mail.headers && Object.keys(mail.headers).length ? { headers: mail.headers } : {}),
  });
  return {
    async send(mail) {
      if (smtp) {
        await smtp.sendMail(message(mail));
        return;
      }
      const info = await stream.sendMail(message(mail));
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${mail.id}.eml`);
      // Written whole, then renamed: a reader never sees half an e-mail.
      await fs.writeFile(`${file}.tmp`, info.message as Buffer);
      await fs.rename(`${file}.tmp`, file);
    },
    close() {
      smtp?.close();
    },
  };
}
