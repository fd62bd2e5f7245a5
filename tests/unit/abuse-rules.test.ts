import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey, plainAddress } from '../../server/src/core/client-address.js';
import { limitKey } from '../../server/src/modules/limits/rate-limits.js';
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

describe('the client an address limit counts against', () => {
  const group = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16));
  const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });

  it('is one IPv6 /64, however the address inside it is written', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), fc.boolean(), (prefix, a, b, upper) => {
        const key = addressKey(`${prefix.join(':')}:${a.join(':')}`);
        expect(key).toBe(`${prefix.map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`);
        // Another interface of the same subscriber, compressed or in capitals: the same client.
        const other = `${prefix.join(':')}:${b.join(':')}`;
        expect(addressKey(upper ? other.toUpperCase() : other)).toBe(key);
        expect(addressKey(`${prefix.join(':')}::1`)).toBe(key);
      }),
      { numRuns: 300, seed: 2408 },
    );
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('is the IPv4 address itself, also when it reached an IPv6 socket (::ffff:)', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(addressKey(ip)).toBe(ip);
        expect(addressKey(`::ffff:${ip}`)).toBe(ip);
        expect(addressKey(`::FFFF:${ip}`)).toBe(ip);
        const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
        expect(addressKey(`::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`)).toBe(ip);
        expect(plainAddress(`::ffff:${ip}`)).toBe(ip);
      }),
      { numRuns: 300, seed: 2409 },
    );
    // What is no address (a task of the process itself) is kept as it is.
    expect(addressKey('system')).toBe('system');
  });

  it('counts a key too long for the table under its digest', () => {
    const rule = { name: 'login-user', points: 10, windowSeconds: 900, message: 'x' };
    expect(limitKey(rule, 'ada')).toBe('ada');
    const long = limitKey(rule, 'u'.repeat(3000));
    expect(long).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(limitKey(rule, 'u'.repeat(3000))).toBe(long);
    expect(limitKey({ ...rule, perAddress: true }, '2001:db8::7')).toBe('2001:db8:0:0::/64');
  });
});
