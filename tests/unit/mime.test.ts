import fc from 'fast-check';
import { simpleParser, type ParsedMail, type AddressObject } from 'mailparser';
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { composeMail, quotedPrintable } from '../../server/src/modules/mail/mime.js';

/**
 * The shop composes its e-mails itself (mail/mime.ts) and hands them to nodemailer whole. Whatever
 * goes in, a mail program reading the result (mailparser) finds what nodemailer's own composer
 * would have given it for the same e-mail: the same subject, text, HTML, addresses, Message-ID and
 * extra headers.
 */

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });

interface Mail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

async function viaNodemailer(mail: Mail, messageId: string): Promise<ParsedMail> {
  const info = await composer.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, messageId });
  return simpleParser(info.message as Buffer);
}

async function viaShop(mail: Mail, messageId: string, boundaryId = 'card-1'): Promise<ParsedMail> {
  return simpleParser(composeMail({ ...mail, messageId, boundaryId }).raw);
}

const addresses = (value: AddressObject | AddressObject[] | undefined) => (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map(({ address, name }) => ({ address, name })));

/** What a reader sees of a message. */
function seen(parsed: ParsedMail, headerNames: string[]) {
  return {
    subject: parsed.subject,
    text: parsed.text,
    html: parsed.html,
    from: addresses(parsed.from),
    to: addresses(parsed.to),
    messageId: parsed.messageId,
    headers: Object.fromEntries(headerNames.map((name) => [name, JSON.stringify(parsed.headers.get(name.toLowerCase()))])),
  };
}

const card: Mail = {
  from: 'Art & Song Cards <cards@cards.example>',
  to: 'friend@example.com',
  subject: 'José sent you a card — “Merry Christmas”, and a subject long enough to be folded over more than one line',
  text: 'Dear Zoë,\n\nMerry Christmas!  \n.\n.a line that starts with a dot\n' + 'x'.repeat(200) + '\n— José',
  html: `<!doctype html><html><body style="margin:0;padding:0"><p style="font-family:Georgia, serif">Dear Zoë,</p>\n<p>${'Merry Christmas! '.repeat(30)}</p>\n.\n<p>— José</p></body></html>`,
  headers: { 'List-Unsubscribe': `<https://cards.example/unsubscribe?token=${'t'.repeat(120)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
};

describe('composeMail', () => {
  it('reads as nodemailer’s composition of the same e-mail does: subject, text, HTML, addresses, Message-ID, headers', async () => {
    const names = Object.keys(card.headers);
    expect(seen(await viaShop(card, '<card-1@cards.example>'), names)).toEqual(seen(await viaNodemailer(card, '<card-1@cards.example>'), names));
    const parsed = await viaShop(card, '<card-1@cards.example>');
    expect(parsed.subject).toBe(card.subject);
    expect(parsed.html).toBe(card.html);
    expect(parsed.text).toBe(card.text);
  });

  it('writes CRLF lines, 7-bit, body lines of at most 76 characters, with one Date and MIME-Version and the envelope of its addresses', () => {
    const composed = composeMail({ ...card, to: 'Zoë <zoe@bücher.example>', messageId: '<card-7@cards.example>', boundaryId: 'card-7' });
    const envelope = composed.envelope;
    // Read byte for byte: a byte above 0x7e would show as itself.
    const raw = composed.raw.toString('latin1');
    expect(envelope).toEqual({ from: 'cards@cards.example', to: ['zoe@xn--bcher-kva.example'] });
    expect(raw.endsWith('\r\n')).toBe(true);
    const [head, ...body] = raw.split('\r\n\r\n');
    // A header folds where it has a space; a long link without one stays whole (RFC 5322 allows 998).
    expect(head!.split('\r\n').every((line) => line.length <= 998 && !/[\r\n]/.test(line))).toBe(true);
    expect(body.join('\r\n\r\n').split('\r\n').every((line) => line.length <= 76 && !/[\r\n]/.test(line))).toBe(true);
    expect(/^[\x09\x0d\x0a\x20-\x7e]*$/.test(raw)).toBe(true);
    expect(raw.match(/^Date: /gm)).toHaveLength(1);
    expect(raw.match(/^MIME-Version: 1\.0\r$/gm)).toHaveLength(1);
    expect(raw).toMatch(/^Message-ID: <card-7@cards\.example>\r$/m);
  });

  it('keeps a line break in a value out of the headers (no header can be added through a name or a subject)', async () => {
    const parsed = await viaShop({ ...card, subject: 'Hello\r\nBcc: someone@evil.example', to: 'friend@example.com' }, '<card-2@cards.example>');
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.headers.has('bcc')).toBe(false);
  });

  it('any subject, text, HTML and names read back as nodemailer’s do', async () => {
    // Unicode of every plane, spaces at line ends, dots at line starts, long words, "=_" and "--" (a boundary's look).
    const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom(' ', '  \n', '\n.', '=_AS-card-1', '--=_AS-card-1--', 'é', '😀', '\t', 'x'.repeat(90), '\r\n', ' \r\n', '\r', '=41', '😀'.repeat(30), `${'y'.repeat(74)}é`));
    const body = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
    const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((value) => value.trim().length > 0);
    await fc.assert(
      fc.asyncProperty(body, body, body, name, async (subject, text, html, toName) => {
        // Texts end with a line break as the shop's templates do (a reader drops a last one it cannot tell from the format's own).
        const mail: Mail = { ...card, subject: subject.trim() || 'Card', text: `${text}\n`, html: `${html}\n`, to: `${JSON.stringify(toName)} <friend@example.com>` };
        const ours = seen(await viaShop(mail, '<card-3@cards.example>'), []);
        const theirs = seen(await viaNodemailer(mail, '<card-3@cards.example>'), []);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 150 },
    );
  });

  it('writes quoted-printable of 7-bit lines of at most 76 characters, none ending in a space, no character split across lines, that reads back byte for byte', () => {
    const piece = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom(' ', '\t', ' \n', '\t\r\n', '\r', '\n', '=', '😀'.repeat(40), 'é'.repeat(60), 'x'.repeat(200), `${'y'.repeat(73)}😀`));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
        const body = parts.join('');
        const out = Buffer.alloc(Buffer.byteLength(body) * 4 + 16, 0xff);
        const end = quotedPrintable(Buffer.from(body), out, 5);
        // Written where it was told, within the room it was given.
        expect(out.subarray(0, 5).every((byte) => byte === 0xff)).toBe(true);
        const lines = out.subarray(5, end).toString('latin1').split('\r\n');
        const bytesOf = (line: string) => Buffer.from(line.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
        for (const line of lines) {
          expect(line.length).toBeLessThanOrEqual(76);
          expect(line).toMatch(/^(?:[\x21-\x3c\x3e-\x7e \t]|=[0-9A-F]{2})*=?$/);
          expect(line).not.toMatch(/[ \t]$/);
          // Each line's bytes are whole UTF-8 characters.
          expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytesOf(line.replace(/=$/, '')))).not.toThrow();
        }
        // Soft breaks removed and =XX decoded, it is the body with its line breaks as CRLF.
        const decoded = Buffer.concat(lines.map((line, k) => (line.endsWith('=') ? bytesOf(line.slice(0, -1)) : Buffer.concat([bytesOf(line), Buffer.from(k < lines.length - 1 ? '\r\n' : '')]))));
        expect(decoded.toString()).toBe(body.replace(/\r?\n/g, '\r\n'));
      }),
      { numRuns: 500 },
    );
  });
});
