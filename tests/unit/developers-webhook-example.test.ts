import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_WEBHOOK_EXAMPLE } from '../../web/src/storefront/developers/verify-webhook-example.js';

/**
 * The webhook verification example that /developers shows, run exactly as a reader copies it (the
 * page's text written to a module and imported): a delivery signed as the contract says passes; a
 * changed byte, another secret, an old or a future timestamp, and a malformed header fail.
 */
type Verify = (rawBody: Buffer | string, signatureHeader: string | undefined, secret: string, now?: number) => boolean;

const SECRET = 'whsec_test_6b1f0c2e9d4a';
const body = JSON.stringify({ id: 'b3f1c2de-5a6b-4c7d-8e9f-0a1b2c3d4e5f', type: 'order.paid', created_at: '2026-12-24T08:00:00.000Z', data: { id: 'a1b2c3d4', total: '24.00' } });
const now = Date.parse('2026-12-24T08:00:03.000Z');
const t = Math.floor(Date.parse('2026-12-24T08:00:00.000Z') / 1000);

/** The header as the shop sends it: t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}" with the endpoint secret}. */
const sign = (payload: string, at = t, secret = SECRET) => `t=${at},v1=${crypto.createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex')}`;

let dir: string;
let verifyWebhook: Verify;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-webhook-'));
  const file = path.join(dir, 'verify-webhook.mjs');
  fs.writeFileSync(file, VERIFY_WEBHOOK_EXAMPLE);
  ({ verifyWebhook } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { verifyWebhook: Verify });
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the webhook verification example of /developers', () => {
  it("is README's, word for word", () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('**Verifying a delivery.**'));
    const block = /```js\n([\s\S]*?)\n\s*```/.exec(section)![1]!.replace(/^ {2}/gm, '');
    expect(`${block}\n`).toBe(VERIFY_WEBHOOK_EXAMPLE);
  });

  it('is a module for Node that uses node:crypto and compares in constant time', () => {
    expect(VERIFY_WEBHOOK_EXAMPLE).toContain("from 'node:crypto'");
    expect(VERIFY_WEBHOOK_EXAMPLE).toContain('timingSafeEqual');
    expect(VERIFY_WEBHOOK_EXAMPLE.split('\n').length).toBeLessThan(20);
  });

  it('accepts a delivery signed with the endpoint secret, as a Buffer or as text', () => {
    expect(verifyWebhook(Buffer.from(body), sign(body), SECRET, now)).toBe(true);
    expect(verifyWebhook(body, sign(body), SECRET, now)).toBe(true);
    // Within the 5 minutes either way (clocks differ a little).
    expect(verifyWebhook(body, sign(body), SECRET, (t + 299) * 1000)).toBe(true);
    expect(verifyWebhook(body, sign(body), SECRET, (t - 299) * 1000)).toBe(true);
  });

  it('refuses the same body with one byte changed', () => {
    const changed = Buffer.from(body);
    changed[changed.indexOf('24.00')] = '3'.charCodeAt(0);
    expect(changed.toString()).toContain('"34.00"');
    expect(verifyWebhook(changed, sign(body), SECRET, now)).toBe(false);
    expect(verifyWebhook(`${body} `, sign(body), SECRET, now)).toBe(false);
  });

  it('refuses an old timestamp, even correctly signed, and one from the future', () => {
    expect(verifyWebhook(body, sign(body, t - 301), SECRET, now)).toBe(false);
    expect(verifyWebhook(body, sign(body, t - 3600), SECRET, now)).toBe(false);
    expect(verifyWebhook(body, sign(body, t + 600), SECRET, now)).toBe(false);
    // A signature of the body made for another moment does not pass under a fresh timestamp.
    const old = sign(body, t - 3600).split(',')[1];
    expect(verifyWebhook(body, `t=${t},${old}`, SECRET, now)).toBe(false);
  });

  it('refuses another secret and malformed headers', () => {
    expect(verifyWebhook(body, sign(body, t, 'whsec_other'), SECRET, now)).toBe(false);
    for (const header of [undefined, '', 't=', `t=${t}`, `v1=${'0'.repeat(64)}`, `t=${t},v1=abc`, `t=abc,${sign(body).split(',')[1]}`, `t=${t},v1=${'z'.repeat(64)}`]) {
      expect(verifyWebhook(body, header, SECRET, now), String(header)).toBe(false);
    }
  });
});
