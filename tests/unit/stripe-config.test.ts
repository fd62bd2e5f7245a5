import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { loadConfig, parseStripe } from '../../server/src/config.js';
import { selectPaymentProvider } from '../../server/src/services.js';
import { StripePaymentProvider } from '../../server/src/modules/payments/stripe-payment-provider.js';
import { TestPaymentProvider } from '../../server/src/modules/payments/test-payment-provider.js';

const KEYS = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };

describe('Stripe configuration', () => {
  it('needs all three keys, and STRIPE_API_BASE only redirects the client', () => {
    expect(parseStripe({})).toBeUndefined();
    expect(parseStripe({ STRIPE_SECRET_KEY: 'sk_test_1' })).toBeUndefined();
    expect(parseStripe(KEYS)).toEqual({ secretKey: 'sk_test_1', publishableKey: 'pk_test_1', webhookSecret: 'whsec_1', apiBase: undefined });
    expect(parseStripe({ ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:12111' })!.apiBase).toEqual({ protocol: 'http', host: '127.0.0.1', port: 12111 });
    expect(parseStripe({ ...KEYS, STRIPE_API_BASE: 'https://stripe.internal' })!.apiBase).toEqual({ protocol: 'https', host: 'stripe.internal', port: 443 });
    expect(() => parseStripe({ ...KEYS, STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
    expect(() => parseStripe({ ...KEYS, STRIPE_API_BASE: 'ftp://x' })).toThrow(/http/);
  });

  it('is the one provider selection: PAYMENT_PROVIDER=stripe picks Stripe, and without its keys payments are unavailable', () => {
    const log = pino({ level: 'silent' });
    const config = loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe', ...KEYS });
    const stripe = new StripePaymentProvider(config.stripe!);
    expect(selectPaymentProvider(config, [new TestPaymentProvider(), stripe], log)).toBe(stripe);
    expect(stripe.collectsCardInBrowser).toBe(true);
    expect(stripe.publishableKey).toBe('pk_test_1');
    const noKeys = loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe' });
    expect(noKeys.stripe).toBeUndefined();
    expect(selectPaymentProvider(noKeys, [new TestPaymentProvider()], log)).toBeNull();
  });

  it('refuses STRIPE_API_BASE in production unless it names this machine, and says at start that it is set', () => {
    for (const base of ['http://stripe.evil.example', 'https://api.stripe.com.evil.example', 'http://10.0.0.8:12111', 'http://localhost.evil.example']) {
      expect(() => parseStripe({ ...KEYS, NODE_ENV: 'production', STRIPE_API_BASE: base }), base).toThrow(/STRIPE_API_BASE must not be set in production/);
      expect(() => loadConfig({ ...KEYS, NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe', STRIPE_API_BASE: base }), base).toThrow(/STRIPE_API_BASE/);
      // Outside production another host is a developer's choice.
      expect(parseStripe({ ...KEYS, STRIPE_API_BASE: base })!.apiBase).toBeDefined();
    }
    for (const base of ['http://127.0.0.1:12111', 'http://localhost:12111', 'http://[::1]:12111', 'http://stripe-mock.localhost:12111']) {
      expect(parseStripe({ ...KEYS, NODE_ENV: 'production', STRIPE_API_BASE: base })!.apiBase, base).toMatchObject({ protocol: 'http', port: 12111 });
    }
    const lines: { level: number; msg: string; stripeApiBase?: string }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const config = loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe', ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    selectPaymentProvider(config, [new StripePaymentProvider(config.stripe!)], log);
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, stripeApiBase: 'http://127.0.0.1:12111', msg: expect.stringMatching(/STRIPE_API_BASE/) }));
    lines.length = 0;
    const plain = loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe', ...KEYS });
    selectPaymentProvider(plain, [new StripePaymentProvider(plain.stripe!)], log);
    expect(lines.filter((line) => line.msg.includes('STRIPE_API_BASE'))).toEqual([]);
  });
});
