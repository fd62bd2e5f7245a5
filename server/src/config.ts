import crypto from 'node:crypto';
import path from 'node:path';

/** Everything the process reads from its environment, read once. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  production: boolean;
  logLevel: string;
  jwtSecret?: string;
  tokenTtlSeconds: number;
  admin: { username: string; email: string; password?: string };
  graphqlIntrospection: boolean;
  maxUploadMb: number;
  /** Login throttling: failures allowed per username and per client address in the window. */
  loginLimits: { perUsername: number; perAddress: number; windowSeconds: number };
  /** How many reverse proxies stand in front: the client address is taken that many hops in from the right of X-Forwarded-For (0: the socket address). */
  trustProxy: number;
  /** The provider that charges orders; null: payments are not set up and checkout answers PAYMENTS_UNAVAILABLE. */
  paymentProvider: PaymentProviderName | null;
  /** Limits of abuse, kept in PostgreSQL (see server/src/modules/limits). */
  limits: AbuseLimits;
  /** Uploads received at the same time by this process; more answer 429. */
  maxConcurrentUploads: number;
  /** The shop's address as recipients reach it, for links in e-mails. */
  publicUrl: string;
  /** SMTP server for e-mail; without it, e-mails are written to `DATA_DIR/outbox` as .eml files. */
  smtpUrl?: string;
  mailFrom: string;
  /** DKIM: every e-mail is signed for this domain with this selector's key (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY). */
  dkim?: DkimConfig;
  /** How often the e-mail worker looks for due mail besides being woken (a safety net). */
  deliveryPollSeconds: number;
  /** SMTP_POOL_SIZE: SMTP connections per process, each carrying one e-mail at a time (default 5). */
  smtpPoolSize: number;
  /** MAIL_MAX_PER_SECOND: the shop-wide send rate across all processes (a provider's quota); null: no cap. */
  mailMaxPerSecond: number | null;
  /** SMTP_TIMEOUT_SECONDS: how long a silent SMTP server is waited for at any step of a send (default 30). */
  smtpTimeoutSeconds: number;
  /** MAIL_LEASE_SECONDS: how long a worker's claim on an e-mail lasts unless renewed (default 30, at most 60). */
  mailLeaseSeconds: number;
  /** Hours after its delivery that an unopened card gets one reminder to its recipient (fractions allowed; 0: none). */
  reminderAfterHours: number;
  /** The demo catalogue on first start: 'auto' seeds it into the embedded database only. */
  seedDemo: 'auto' | boolean;
  /** What this process does: HTTP and background jobs (`all`), HTTP only (`web`), jobs only (`worker`). */
  appRole: AppRole;
  /** Media in an S3-compatible bucket instead of `DATA_DIR/uploads`, when a bucket is named. */
  s3?: S3Config;
  /** Stripe's keys, when STRIPE_SECRET_KEY is set (required with PAYMENT_PROVIDER=stripe). */
  stripe?: StripeConfig;
  /** The memory bound of the storefront read cache (answers, pages, their keys), in MiB. */
  readCacheMb: number;
  /** How often the process gives memory freed by glibc back to the system, in seconds (core/memory-trim.ts). */
  memoryTrimSeconds: number;
  /** The bearer token `/metrics` answers to; without it there is no `/metrics` (404). */
  metricsToken?: string;
}

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** STRIPE_API_BASE: another host for the server's Stripe client (tests use a local fake). */
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
}

export interface DkimConfig {
  domainName: string;
  keySelector: string;
  /** The private key, PEM. */
  privateKey: string;
}

export type PaymentProviderName = 'test' | 'stripe';

export interface AbuseLimits {
  /** Register attempts per client address per hour. */
  registerPerHour: number;
  /** Checkout attempts per client address per 10 minutes. */
  checkoutPer10Minutes: number;
  /** Thank-you replies from e-card pages per client address per hour (default 20). */
  thankYouPerHour?: number;
  /** Discount codes tried that cannot be used, per client address per hour (default 20). */
  discountCodesPerHour?: number;
  /** Password reset requests per client address per hour (default 5). */
  passwordResetsPerAddressPerHour?: number;
  /** Password reset requests per e-mail address per hour (default 3). */
  passwordResetsPerEmailPerHour?: number;
  /** Signatures written on group cards per client address per hour (default 20). */
  signaturesPerHour?: number;
}

export type AppRole = 'all' | 'web' | 'worker';

export interface S3Config {
  bucket: string;
  /** A MinIO (or other S3-compatible) URL; AWS itself when unset. */
  endpoint?: string;
  region: string;
  /** Static credentials; without them the AWS SDK's default credential chain applies. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}

/** Whether this process serves HTTP and whether it runs the background jobs (the e-mail queue). */
export const servesHttp = (role: AppRole) => role !== 'worker';
export const runsJobs = (role: AppRole) => role !== 'web';

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: intEnv(env, 'PORT', 4000),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    production: env.NODE_ENV === 'production',
    logLevel: env.LOG_LEVEL || 'info',
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlSeconds: parseTtl(env.TOKEN_TTL),
    admin: {
      username: env.ADMIN_USERNAME || 'admin',
      email: env.ADMIN_EMAIL || 'admin@example.com',
      password: env.ADMIN_PASSWORD || undefined,
    },
    graphqlIntrospection: env.GRAPHQL_INTROSPECTION !== '0',
    maxUploadMb: intEnv(env, 'MAX_UPLOAD_MB', 25),
    loginLimits: {
      perUsername: intEnv(env, 'LOGIN_MAX_FAILURES_PER_USER', 10),
      perAddress: intEnv(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 50),
      windowSeconds: 15 * 60,
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    paymentProvider: parsePaymentProvider(env.PAYMENT_PROVIDER, env.NODE_ENV === 'production'),
    limits: {
      registerPerHour: intEnv(env, 'REGISTER_MAX_PER_HOUR', 10),
      checkoutPer10Minutes: intEnv(env, 'CHECKOUT_MAX_PER_10_MINUTES', 20),
      thankYouPerHour: intEnv(env, 'THANK_YOU_MAX_PER_HOUR', 20),
      discountCodesPerHour: intEnv(env, 'DISCOUNT_CODE_MAX_FAILURES_PER_HOUR', 20),
      passwordResetsPerAddressPerHour: intEnv(env, 'PASSWORD_RESET_MAX_PER_HOUR', 5),
      passwordResetsPerEmailPerHour: intEnv(env, 'PASSWORD_RESET_MAX_PER_EMAIL_PER_HOUR', 3),
      signaturesPerHour: intEnv(env, 'SIGNATURES_MAX_PER_HOUR', 20),
    },
    maxConcurrentUploads: intEnv(env, 'MAX_CONCURRENT_UPLOADS', 4),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${intEnv(env, 'PORT', 4000)}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Art & Song Cards <cards@artsongcards.example>',
    dkim: parseDkim(env),
    deliveryPollSeconds: intEnv(env, 'DELIVERY_POLL_SECONDS', 15),
    smtpPoolSize: Math.floor(intEnv(env, 'SMTP_POOL_SIZE', 5)),
    mailMaxPerSecond: env.MAIL_MAX_PER_SECOND ? intEnv(env, 'MAIL_MAX_PER_SECOND', 1) : null,
    smtpTimeoutSeconds: intEnv(env, 'SMTP_TIMEOUT_SECONDS', 30),
    mailLeaseSeconds: Math.min(60, intEnv(env, 'MAIL_LEASE_SECONDS', 30)),
    reminderAfterHours: parseReminderHours(env.REMINDER_AFTER_HOURS),
    seedDemo: parseSeedDemo(env.SEED_DEMO),
    appRole: parseAppRole(env.APP_ROLE),
    s3: parseS3(env),
    stripe: parseStripe(env),
    readCacheMb: intEnv(env, 'READ_CACHE_MB', 64),
    memoryTrimSeconds: intEnv(env, 'MEMORY_TRIM_SECONDS', 10),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
  };
}

/**
 * DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY go together (all three or none). The key is the PEM
 * text (its line breaks may be written as `\n`, as one-line environment files need) and must be a
 * private key Node can read; otherwise the process does not start.
 */
export function parseDkim(env: NodeJS.ProcessEnv): DkimConfig | undefined {
  const domainName = env.DKIM_DOMAIN?.trim() ?? '';
  const keySelector = env.DKIM_SELECTOR?.trim() ?? '';
  const privateKey = (env.DKIM_PRIVATE_KEY ?? '').replace(/\\n/g, '\n').trim();
  const given = [domainName, keySelector, privateKey].filter(Boolean).length;
  if (given === 0) return undefined;
  if (given < 3) throw new Error('DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY go together: set all three or none');
  if (!/^[a-z0-9.-]+$/i.test(domainName)) throw new Error(`DKIM_DOMAIN must be a domain name, got "${domainName}"`);
  if (!/^[a-z0-9._-]+$/i.test(keySelector)) throw new Error(`DKIM_SELECTOR must be a DNS label, got "${keySelector}"`);
  try {
    crypto.createPrivateKey(privateKey);
  } catch {
    throw new Error('DKIM_PRIVATE_KEY must be a private key in PEM ("-----BEGIN PRIVATE KEY-----…"; line breaks may be written as \\n)');
  }
  return { domainName: domainName.toLowerCase(), keySelector, privateKey: `${privateKey}\n` };
}

/** REMINDER_AFTER_HOURS: hours (fractions allowed) after delivery; 0 turns reminders off; default 72. */
export function parseReminderHours(raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return 72;
  const hours = Number(value);
  if (!Number.isFinite(hours) || hours < 0) throw new Error(`REMINDER_AFTER_HOURS must be a number of hours (0 turns reminders off), got "${raw}"`);
  return hours;
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

export function parseAppRole(raw: string | undefined): AppRole {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return 'all';
  if (value === 'all' || value === 'web' || value === 'worker') return value;
  throw new Error(`APP_ROLE must be all, web or worker, got "${raw}"`);
}

/** S3_BUCKET selects the bucket storage; the other S3_ variables only refine it. */
export function parseS3(env: NodeJS.ProcessEnv): S3Config | undefined {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  return {
    bucket,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: ['1', 'true', 'yes', 'on'].includes((env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase()),
  };
}

/** TRUST_PROXY: unset/0 for none, or the number of proxies in front (N hops from the right of X-Forwarded-For). */
export function parseTrustProxy(raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '' || value === '0') return 0;
  if (!/^\d{1,2}$/.test(value)) throw new Error(`TRUST_PROXY must be the number of proxies in front of the shop (0, 1, 2...), got "${raw}"`);
  return Number(value);
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

/** SEED_DEMO: unset or "auto", "1" (also true/yes/on) or "0" (also false/no/off). */
export function parseSeedDemo(raw: string | undefined): 'auto' | boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return 'auto';
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new Error(`SEED_DEMO must be 0, 1 or auto, got "${raw}"`);
}

/** TOKEN_TTL accepts seconds ("28800") or a number with a unit ("8h", "30m", "45s", "2d"). */
export function parseTtl(raw: string | undefined): number {
  if (!raw) return 8 * 3600;
  const match = /^(\d+)\s*([smhd]?)$/.exec(raw.trim());
  if (!match) throw new Error(`TOKEN_TTL must look like 28800, 8h, 30m or 2d, got "${raw}"`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** `auto` seeds the embedded database only: an external one is somebody's real shop unless SEED_DEMO=1. */
export function demoSeedEnabled(config: Pick<AppConfig, 'seedDemo' | 'databaseUrl'>): boolean {
  return config.seedDemo === 'auto' ? !config.databaseUrl : config.seedDemo;
}
