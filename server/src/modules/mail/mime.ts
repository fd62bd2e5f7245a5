import MimeNode from 'nodemailer/lib/mime-node/index.js';
import { encode, wrap } from 'nodemailer/lib/qp/index.js';

export interface ComposedMail {
  /** The whole message (RFC 5322), lines ending in CRLF. */
  raw: string;
  /** Who the mail server is told it is from and for (the From and To addresses). */
  envelope: { from: string; to: string[] };
}

/**
 * One e-mail as the mail server receives it: a `multipart/alternative` of its text and its HTML,
 * both quoted-printable, under nodemailer's own header block (its encoding of names, subjects and
 * addresses, its folding, its Date and MIME-Version, and its refusal of line breaks in a value).
 *
 * nodemailer's composer builds every message as a pipeline of streams (a node per part, an encoder
 * per part, a scan of every body for its best encoding): in a worker sending hundreds of e-mails a
 * second that was about a third of the process's CPU. Here the bodies are encoded in one pass each,
 * by nodemailer's own quoted-printable functions, and the message goes to the transport whole (`raw`).
 * The boundary holds `=_`, which quoted-printable never writes (`=` is always `=3D` there), so it
 * cannot occur in either part.
 */
export function composeMail(mail: {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The Message-ID, with its angle brackets. */
  messageId: string;
  headers?: Record<string, string>;
  /** The boundary's own part (the job's id): any token of letters, digits and `-`. */
  boundaryId: string;
}): ComposedMail {
  const boundary = `=_AS-${mail.boundaryId.replace(/[^A-Za-z0-9-]/g, '')}`;
  // (Its own boundary is never used: given, so that it is not drawn from the random source for every e-mail.)
  const root = new MimeNode(`multipart/alternative; boundary="${boundary}"`, { baseBoundary: boundary });
  root.setHeader({ ...mail.headers, From: mail.from, To: mail.to, Subject: mail.subject, 'Message-ID': mail.messageId });
  const envelope = root.getEnvelope();
  const part = (type: string, body: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${wrap(encode(body.replace(/\r?\n/g, '\r\n')), 76)}\r\n`;
  return {
    raw: `${root.buildHeaders()}\r\n\r\n${part('text/plain', mail.text)}${part('text/html', mail.html)}--${boundary}--\r\n`,
    envelope: { from: envelope.from || '', to: envelope.to },
  };
}
