import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from '../../server/src/config.js';
import { isDatabaseUnavailable } from '../../server/src/core/db-errors.js';
import { EMAIL_PATTERN, cleanEmail, isSingleLine, maskEmail } from '../../server/src/core/input.js';
import * as web from '../../server/src/rules/index.js';

describe('the shared rules for names and e-mail addresses', () => {
  it('are the same in the web client and on the server', () => {
    expect(web.EMAIL_PATTERN.source).toBe(EMAIL_PATTERN.source);
    for (const text of ['Ada', 'Ada\nB', 'A\u2028B', 'tab\there', 'Zoë Ünïcode', 'x\u0085y']) expect(web.isSingleLine(text), JSON.stringify(text)).toBe(isSingleLine(text));
  });

  it('take one address and nothing that could name a second recipient', () => {
    for (const ok of ['ada@example.com', 'Ada.Lovelace+cards@mail.example.co.uk', "o'brien@example.ie"]) expect(cleanEmail(ok)).toBe(ok.toLowerCase());
    for (const bad of ['root,x@y.z', 'a@b.c;d@e.f', 'Bob <bob@example.com>', '"b"@example.com', 'b@example', 'b@-example.com', 'b c@example.com', 'b@example.com\r\nBcc: x@y.z']) {
      expect(() => cleanEmail(bad), bad).toThrow(/valid e-mail/);
      expect(web.isEmail(bad), bad).toBe(false);
    }
    expect(maskEmail('grace@example.com')).toBe('g•••@example.com');
  });
});

describe('configuration of section 8', () => {
  it('reads TRUST_PROXY as a number of hops and PAYMENT_PROVIDER by environment', () => {
    expect(parseTrustProxy(undefined)).toBe(0);
    expect(parseTrustProxy('2')).toBe(2);
    expect(() => parseTrustProxy('true')).toThrow(/TRUST_PROXY/);
    expect(loadConfig({}).paymentProvider).toBe('test');
    expect(loadConfig({ NODE_ENV: 'production' }).paymentProvider).toBeNull();
    expect(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe' }).paymentProvider).toBe('stripe');
  });
});

describe('database outages', () => {
  it('are told apart from other errors', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '08006' }) }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});
