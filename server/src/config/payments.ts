/** Who charges orders: PAYMENT_PROVIDER and Stripe's keys. */

export type PaymentProviderName = 'test' | 'stripe';

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** STRIPE_API_BASE: another host for the server's Stripe client (tests use a local fake). */
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
}

/**
 * PAYMENT_PROVIDER: `test` or `stripe`. Unset, it is `test` outside production and none in
 * production, where nothing is charged until a provider is named.
 */
export function parsePaymentProvider(raw: string | undefined, production: boolean): PaymentProviderName | null {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return production ? null : 'test';
  if (value === 'test' || value === 'stripe') return value;
  throw new Error(`PAYMENT_PROVIDER must be test or stripe, got "${raw}"`);
}

/**
 * The STRIPE_ variables: Stripe is available when all three keys are set (PAYMENT_PROVIDER=stripe
 * without them leaves payments unavailable, logged at start); STRIPE_API_BASE only redirects the client.
 */
export function parseStripe(env: NodeJS.ProcessEnv): StripeConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secretKey || !publishableKey || !webhookSecret) return undefined;
  let apiBase: StripeConfig['apiBase'];
  if (env.STRIPE_API_BASE?.trim()) {
    let url: URL;
    try {
      url = new URL(env.STRIPE_API_BASE.trim());
    } catch {
      throw new Error(`STRIPE_API_BASE must be a URL, got "${env.STRIPE_API_BASE}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('STRIPE_API_BASE must be an http or https URL');
    // In production the secret key must go to Stripe: another host is only taken on this machine (a local stand-in).
    if (env.NODE_ENV === 'production' && !isLocalHost(url.hostname)) {
      throw new Error(`STRIPE_API_BASE must not be set in production unless it names this machine (localhost, 127.0.0.1 or ::1), got "${env.STRIPE_API_BASE}": the secret key would go to ${url.host}`);
    }
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    apiBase = { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 };
  }
  return { secretKey, publishableKey, webhookSecret, apiBase };
}

/** Whether a host name is this machine's loopback. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}
