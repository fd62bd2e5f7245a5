import path from 'node:path';
import { parseTrustProxy, parseTtl, type AbuseLimits } from './config/access.js';
import { intEnv } from './config/env.js';
import { parseDkim, parseReminderHours, type DkimConfig } from './config/mail.js';
import { parsePaymentProvider, parseStripe, type PaymentProviderName, type StripeConfig } from './config/payments.js';
import { parseAppRole, parseSeedDemo, type AppRole } from './config/process.js';
import { parseS3, type S3Config } from './config/storage.js';

// The variables that take more than a default are read in ./config/, by concern; everything is imported from here.
export { parseTrustProxy, parseTtl, type AbuseLimits } from './config/access.js';
export { parseDkim, parseReminderHours, type DkimConfig } from './config/mail.js';
export { isLocalHost, parsePaymentProvider, parseStripe, type PaymentProviderName, type StripeConfig } from './config/payments.js';
export { parseAppRole, parseSeedDemo, runsJobs, servesHttp, type AppRole } from './config/process.js';
export { parseS3, type S3Config } from './config/storage.js';

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
  /**
   * API requests (REST /api, /graphql) allowed per key, or per client address without one, in each window
   * (API_KEY_RATE_PER_MINUTE a minute); null (`off`) counts nothing and sends no RateLimit headers, for a
   * shop whose own gateway limits its API.
   */
  apiRequestLimit: { requests: number; windowSeconds: number } | null;
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
  /** MEMBERSHIP_TEST_PERIOD_SECONDS: every membership period this long instead of a month or a year (tests); null: calendar periods. */
  membershipTestPeriodSeconds?: number | null;
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
  /** BACKGROUND_PAGES=0: the processes that run the jobs do not draw product pages in the background (they are drawn on request). */
  backgroundPages: boolean;
  /** The bearer token `/metrics` answers to; without it there is no `/metrics` (404). */
  metricsToken?: string;
  /** WEBHOOK_ALLOW_PRIVATE=1: webhook URLs may point at loopback, private and link-local addresses (tests, a shop's own network). */
  webhookAllowPrivate: boolean;
  /** WEBHOOK_LEASE_SECONDS: how long a worker's claim on a webhook delivery lasts unless renewed (default 30, at most 60). */
  webhookLeaseSeconds: number;
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
      // Registering answers whether an address has an account (409), so by default one client address
      // may try no more addresses an hour this way than it may ask password resets for.
      registerPerHour: intEnv(env, 'REGISTER_MAX_PER_HOUR', intEnv(env, 'PASSWORD_RESET_MAX_PER_HOUR', 5)),
      checkoutPer10Minutes: intEnv(env, 'CHECKOUT_MAX_PER_10_MINUTES', 20),
      thankYouPerHour: intEnv(env, 'THANK_YOU_MAX_PER_HOUR', 20),
      discountCodesPerHour: intEnv(env, 'DISCOUNT_CODE_MAX_FAILURES_PER_HOUR', 20),
      giftCardLookupsPerHour: intEnv(env, 'GIFT_CARD_MAX_LOOKUPS_PER_HOUR', 10),
      passwordResetsPerAddressPerHour: intEnv(env, 'PASSWORD_RESET_MAX_PER_HOUR', 5),
      passwordResetsPerEmailPerHour: intEnv(env, 'PASSWORD_RESET_MAX_PER_EMAIL_PER_HOUR', 3),
      signaturesPerHour: intEnv(env, 'SIGNATURES_MAX_PER_HOUR', 20),
    },
    apiRequestLimit: env.API_KEY_RATE_PER_MINUTE === 'off' ? null : { requests: intEnv(env, 'API_KEY_RATE_PER_MINUTE', 600), windowSeconds: 60 },
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
    membershipTestPeriodSeconds: env.MEMBERSHIP_TEST_PERIOD_SECONDS ? intEnv(env, 'MEMBERSHIP_TEST_PERIOD_SECONDS', 0) || null : null,
    seedDemo: parseSeedDemo(env.SEED_DEMO),
    appRole: parseAppRole(env.APP_ROLE),
    s3: parseS3(env),
    stripe: parseStripe(env),
    readCacheMb: intEnv(env, 'READ_CACHE_MB', 64),
    memoryTrimSeconds: intEnv(env, 'MEMORY_TRIM_SECONDS', 10),
    backgroundPages: env.BACKGROUND_PAGES !== '0',
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1',
    webhookLeaseSeconds: Math.min(60, intEnv(env, 'WEBHOOK_LEASE_SECONDS', 30)),
  };
}

/** `auto` seeds the embedded database only: an external one is somebody's real shop unless SEED_DEMO=1. */
export function demoSeedEnabled(config: Pick<AppConfig, 'seedDemo' | 'databaseUrl'>): boolean {
  return config.seedDemo === 'auto' ? !config.databaseUrl : config.seedDemo;
}
