import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDkim } from '../../server/src/config.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * DKIM (contract section 11): with DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY every e-mail is
 * signed. The shop sends through a real SMTP server (smtp-server) and the signature of what arrives is
 * verified by a DKIM verifier (mailauth) against the public key as the README says to publish it.
 */

const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** The TXT record of `shop2026._domainkey.cards.example`, as the README's command prints it. */
const TXT_RECORD = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

let app: TestApp;
let smtp: SMTPServer;
const received: { to: string[]; raw: Buffer }[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  app = await startTestApp({
    publicUrl: 'https://cards.example',
    smtpUrl: `smtp://127.0.0.1:${port}`,
    // As the environment gives it: one line, the key's line breaks written as \n.
    dkim: parseDkim({ DKIM_DOMAIN: 'cards.example', DKIM_SELECTOR: 'shop2026', DKIM_PRIVATE_KEY: PRIVATE_PEM.replace(/\n/g, '\\n') }),
    mailFrom: 'Art & Song Cards <cards@cards.example>',
  });
});
afterAll(async () => {
  await app?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** A DNS resolver that knows only the shop's DKIM key. */
const resolver = async (name: string, type: string) => {
  if (type === 'TXT' && name === 'shop2026._domainkey.cards.example') return [[TXT_RECORD]];
  const error = new Error(`queryTxt ENOTFOUND ${name}`) as Error & { code: string };
  error.code = 'ENOTFOUND';
  throw error;
};

describe('DKIM', () => {
  it('signs every e-mail; the signature of what the SMTP server received verifies against the published key', async () => {
    const res = await app.request('/api/password-reset', { method: 'POST', json: { email: 'admin@example.com' } });
    expect(res.status).toBe(202);
    await expect.poll(() => received.find((m) => m.to.includes('admin@example.com')), { timeout: 30_000 }).toBeTruthy();
    const mail = received.find((m) => m.to.includes('admin@example.com'))!;
    expect(mail.raw.toString()).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=cards\.example;/m);

    const verified = await dkimVerify(mail.raw, { resolver });
    expect(verified.results).toHaveLength(1);
    expect(verified.results[0]).toMatchObject({ signingDomain: 'cards.example', selector: 'shop2026', status: { result: 'pass' } });

    // The same message altered in transit no longer verifies.
    const altered = Buffer.from(mail.raw.toString().replace('Reset your Art & Song Cards password', 'Reset your password now'));
    const tampered = await dkimVerify(altered, { resolver });
    expect(tampered.results[0]!.status.result).not.toBe('pass');
  });

  it('reads the three variables together, and refuses a partial or unreadable setting', () => {
    expect(parseDkim({})).toBeUndefined();
    expect(parseDkim({ DKIM_DOMAIN: 'Cards.Example', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: PRIVATE_PEM })).toEqual({ domainName: 'cards.example', keySelector: 's1', privateKey: PRIVATE_PEM });
    expect(() => parseDkim({ DKIM_DOMAIN: 'cards.example' })).toThrow(/go together/);
    expect(() => parseDkim({ DKIM_DOMAIN: 'cards.example', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: 'not a key' })).toThrow(/DKIM_PRIVATE_KEY must be a private key/);
    expect(() => parseDkim({ DKIM_DOMAIN: 'cards example', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY: PRIVATE_PEM })).toThrow(/DKIM_DOMAIN/);
  });
});
