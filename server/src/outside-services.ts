import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from './config.js';
import type { PasswordHashCost } from './modules/auth/passwords.js';
import type { Mailer } from './modules/mail/mailer.js';
import { LocalDiskStorage, type MediaStorage } from './modules/media/media-storage.js';
import type { PaymentProvider } from './modules/payments/payment-provider.js';
import { TestPaymentProvider } from './modules/payments/test-payment-provider.js';
import type { HostLookup } from './modules/webhooks/webhook-address.js';

/*
 * The parts of a running shop that stand outside it: its payment providers and media storage (made
 * from the configuration, or given by tests), its mailer, clock and resolver. The composition root
 * (services.ts) wires them into the services.
 */

/** What a running shop is given rather than configured: its clock and payment providers (tests swap them). */
export interface ServiceDeps {
  log: Logger;
  clock?: () => Date;
  /** The providers the shop can charge with; PAYMENT_PROVIDER picks one of them (default: the test provider; a running shop passes createPaymentProviders's). */
  paymentProviders?: PaymentProvider[];
  /** Sends the shop's e-mail; by default SMTP_URL or the outbox directory. */
  mailer?: Mailer;
  /** Where media bytes go; by default the configured bucket (`S3_BUCKET`) or `DATA_DIR/uploads`. */
  storage?: MediaStorage;
  /** The cost passwords are hashed at; by default PASSWORD_HASH_COST (tests hash their throwaway passwords cheaply). */
  passwordHashCost?: PasswordHashCost;
  /** How webhook hosts are resolved (the system's resolver by default; tests point names where they like). */
  webhookLookup?: HostLookup;
}

/** The provider PAYMENT_PROVIDER names, or null (payments not set up) with the reason logged once. */
export function selectPaymentProvider(config: AppConfig, available: PaymentProvider[], log: Logger): PaymentProvider | null {
  const apiBase = config.stripe?.apiBase;
  if (apiBase) log.warn({ stripeApiBase: `${apiBase.protocol}://${apiBase.host}:${apiBase.port}` }, 'STRIPE_API_BASE is set: the Stripe client talks to this host instead of Stripe');
  if (!config.paymentProvider) {
    log.warn('payments are not set up (PAYMENT_PROVIDER is not set in production): checkout answers PAYMENTS_UNAVAILABLE');
    return null;
  }
  const provider = available.find((p) => p.name === config.paymentProvider) ?? null;
  if (!provider) {
    const hint = config.paymentProvider === 'stripe' ? ' (Stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET)' : '';
    log.error({ provider: config.paymentProvider }, `the payment provider named by PAYMENT_PROVIDER is not available${hint}: checkout answers PAYMENTS_UNAVAILABLE`);
  }
  else if (config.production && provider.name === 'test') log.warn('PAYMENT_PROVIDER=test in production: orders are "paid" with test cards and nothing is charged');
  return provider;
}

/**
 * The providers the configuration sets up: the test provider, and Stripe when its keys are given
 * (its client is loaded only then: a shop that charges no card through Stripe never holds it).
 */
export async function createPaymentProviders(config: Pick<AppConfig, 'stripe'>): Promise<PaymentProvider[]> {
  if (!config.stripe) return [new TestPaymentProvider()];
  const { StripePaymentProvider } = await import('./modules/payments/stripe-payment-provider.js');
  return [new TestPaymentProvider(), new StripePaymentProvider(config.stripe)];
}

/**
 * The media storage the configuration names: the S3-compatible bucket when `S3_BUCKET` is set (the
 * AWS SDK is loaded only then), else the local disk under `DATA_DIR/uploads`.
 */
export async function createMediaStorage(config: Pick<AppConfig, 's3' | 'dataDir'>): Promise<MediaStorage> {
  if (!config.s3) return new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
  const { S3Storage } = await import('./modules/media/s3-storage.js');
  return new S3Storage(config.s3);
}

/**
 * Where uploads are received and checked before they are stored: beside the uploads on the local
 * disk (storing is then a rename), or in the system's temporary directory when the media live in a
 * bucket (no media byte goes into DATA_DIR then).
 */
export function stagingRoot(config: Pick<AppConfig, 's3' | 'dataDir'>): string {
  return config.s3 ? path.join(os.tmpdir(), 'art-and-song-cards', 'uploads') : path.join(config.dataDir, 'tmp', 'uploads');
}

/** The local disk storage under DATA_DIR/uploads (a bucket's storage must be made by createMediaStorage, which is asynchronous). */
export function defaultStorage(config: Pick<AppConfig, 's3' | 'dataDir'>): MediaStorage {
  if (config.s3) throw new Error('With S3_BUCKET set, pass the storage made by createMediaStorage()');
  return new LocalDiskStorage(path.join(config.dataDir, 'uploads'));
}
