import MimeNode from 'nodemailer/lib/mime-node/index.js';

export interface ComposedMail {
  /** The whole message (RFC 5322), 7-bit, lines ending in CRLF. */
  raw: Buffer;
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
 * second that was about a third of the process's CPU. Here each body is encoded in one pass over its
 * bytes (`quotedPrintable`), straight into the message, which goes to the transport whole (`raw`).
 * The boundary holds `=_`, which quoted-printable never writes (`=` is always `=3D` there), so it
 * cannot occur in either part.
 */
export function composeMail(mail: {
  /** The configured sender, or a display name of the shop's with its address. */
  from: string | { name: string; address: string };
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
  const head = (type: string) => `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n`;
  const text = Buffer.from(mail.text, 'utf8');
  const html = Buffer.from(mail.html, 'utf8');
  const pieces = [`${root.buildHeaders()}\r\n\r\n${head('text/plain')}`, `\r\n${head('text/html')}`, `\r\n--${boundary}--\r\n`];
  const raw = Buffer.allocUnsafe(pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece), 0) + encodedLength(text.length) + encodedLength(html.length));
  let at = raw.write(pieces[0]!, 0);
  at = quotedPrintable(text, raw, at);
  at += raw.write(pieces[1]!, at);
  at = quotedPrintable(html, raw, at);
  at += raw.write(pieces[2]!, at);
  return { raw: raw.subarray(0, at), envelope: { from: envelope.from || '', to: envelope.to } };
}

/** The longest line of a quoted-printable body, the `=` of a soft line break included (RFC 2045, 6.7). */
const MAX_LINE = 76;
const HEX = Buffer.from('0123456789ABCDEF', 'latin1');

/**
 * The most bytes `quotedPrintable` writes for `length` bytes: each as `=XX`, and a soft line break
 * (3 bytes) for every line, which holds at least 64 characters before it breaks.
 */
const encodedLength = (length: number) => 3 * length + 3 * (Math.floor((3 * length) / (MAX_LINE - 12)) + 1);

/**
 * Writes `bytes` (UTF-8) quoted-printable into `out` from `at`; answers where it ended. A line
 * break (LF or CRLF) becomes CRLF; a lone CR, `=`, and every byte outside printable ASCII are
 * written `=XX`, as is a space or tab that would end a line. Lines are broken softly (`=` CRLF) to
 * hold at most 76 characters, never inside an `=XX` and never inside a character's UTF-8 bytes.
 */
export function quotedPrintable(bytes: Uint8Array, out: Buffer, at: number): number {
  const length = bytes.length;
  let o = at;
  let column = 0;
  let i = 0;
  while (i < length) {
    const byte = bytes[i]!;
    // Most bytes: printable ASCII other than `=` and space, written as they are.
    if (byte > 0x20 && byte < 0x7f && byte !== 0x3d) {
      if (column >= MAX_LINE - 1 && !(column === MAX_LINE - 1 && endsLineAt(bytes, i + 1))) {
        o = softBreak(out, o);
        column = 0;
      }
      out[o++] = byte;
      column++;
      i++;
      continue;
    }
    if (byte === 0x0a || (byte === 0x0d && bytes[i + 1] === 0x0a)) {
      out[o++] = 0x0d;
      out[o++] = 0x0a;
      column = 0;
      i += byte === 0x0d ? 2 : 1;
      continue;
    }
    // One character: a byte, or the whole UTF-8 sequence that a lead byte starts.
    const size = Math.min(byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1, length - i);
    const endsLine = endsLineAt(bytes, i + size);
    const literal = (byte === 0x20 || byte === 0x09) && !endsLine;
    const width = literal ? 1 : 3 * size;
    // Room for it, and for a soft break's `=` after it unless the line ends right there.
    if (column + width > (endsLine ? MAX_LINE : MAX_LINE - 1)) {
      o = softBreak(out, o);
      column = 0;
    }
    if (literal) out[o++] = byte;
    else
      for (let k = i; k < i + size; k++) {
        out[o++] = 0x3d;
        out[o++] = HEX[bytes[k]! >> 4]!;
        out[o++] = HEX[bytes[k]! & 15]!;
      }
    column += width;
    i += size;
  }
  return o;
}

/** Whether a line of the body ends at `k`: the end, or a line break (LF or CRLF; a lone CR is data). */
const endsLineAt = (bytes: Uint8Array, k: number) => k === bytes.length || bytes[k] === 0x0a || (bytes[k] === 0x0d && bytes[k + 1] === 0x0a);

function softBreak(out: Buffer, o: number): number {
  out[o] = 0x3d;
  out[o + 1] = 0x0d;
  out[o + 2] = 0x0a;
  return o + 3;
}
