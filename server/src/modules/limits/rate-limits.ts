import crypto from 'node:crypto';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { addressKey } from '../../core/client-address.js';
import { AppError, type ErrorText } from '../../core/errors.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  resets: { id: 'error.limit.passwordResets', defaultMessage: 'Too many password reset requests. Please try again later.' },
  login: { id: 'error.limit.login', defaultMessage: 'Too many failed login attempts. Please try again later.' },
  register: { id: 'error.limit.register', defaultMessage: 'Too many sign-ups from your address. Please try again later.' },
  checkout: { id: 'error.limit.checkout', defaultMessage: 'Too many checkout attempts. Please wait a few minutes and try again.' },
  thankYou: { id: 'error.limit.thankYou', defaultMessage: 'Too many thank-yous from your address. Please try again later.' },
  discountCode: { id: 'error.limit.discountCode', defaultMessage: 'Too many discount codes tried from your address. Please try again later.' },
  giftCard: { id: 'error.limit.giftCard', defaultMessage: 'Too many gift card codes looked up from your address. Please try again in an hour.' },
  giftMembership: { id: 'error.limit.giftMembership', defaultMessage: 'Too many gift membership codes tried from your address. Please try again in an hour.' },
  addressEmails: { id: 'error.limit.addressEmails', defaultMessage: 'Too many e-mails asked for this account. Please try again in an hour.' },
  signature: { id: 'error.limit.signature', defaultMessage: 'Too many signatures from your address. Please try again later.' },
  previewTests: { id: 'error.limit.previewTests', defaultMessage: 'You have sent yourself five tests this hour. Please try again in an hour.' },
});

/** The table every limit counts in (migration Migration20261123100000_limits): one row per key and window. */
export const RATE_LIMIT_TABLE = 'rate_limit';

export interface LimitRule {
  /** Names the counter (the key prefix in the table). */
  name: string;
  points: number;
  windowSeconds: number;
  /** The message of the 429 (the catalogue's, for the limits a shopper can meet). */
  message: string | ErrorText;
  /** Counted per client address: its key is an address, counted by addressKey (an IPv6 client by its /64). */
  perAddress?: boolean;
  /**
   * Counted in this process's memory while the database is away (rate-limiter-flexible's insurance
   * limiter) instead of failing: for a limit every request passes, which must not add a failure of its own.
   */
  insured?: boolean;
}

/** The longest key kept as it is; a longer one (whatever a client typed) is counted under its digest. */
const MAX_KEY_LENGTH = 200;

/** The key a rule counts `key` under: a client address by addressKey, anything too long for the table by its digest. */
export function limitKey(rule: LimitRule, key: string): string {
  const counted = rule.perAddress ? addressKey(key) : key;
  return counted.length <= MAX_KEY_LENGTH ? counted : `sha256:${crypto.createHash('sha256').update(counted).digest('hex')}`;
}

export interface RateLimitDefinitions {
  loginPerUsername: LimitRule;
  loginPerAddress: LimitRule;
  register: LimitRule;
  checkout: LimitRule;
  /** Thank-you replies from e-card pages, per client address. */
  thankYou: LimitRule;
  /** Discount codes tried that cannot be used (unknown, not yet valid, expired, used up), per client address. */
  discountCode: LimitRule;
  /** Gift card codes looked up (a balance asked, or a code given at checkout that is not a usable card), per client address. */
  giftCardLookup: LimitRule;
  /** Gift membership codes tried on /membership, per client address (as many as gift card look-ups). */
  giftMembershipCode: LimitRule;
  /** Password reset requests per client address, and per e-mail address asked for. */
  passwordResetPerAddress: LimitRule;
  passwordResetPerEmail: LimitRule;
  /** E-mails an account asks for about its address ("Send the link again", a change of address), per account. */
  addressEmails: LimitRule;
  /** Signatures written on group cards, per client address. */
  signature: LimitRule;
  /** "Send a test to myself" from a card's preview, per account. */
  previewTests: LimitRule;
  /** API requests (REST /api and /graphql) signed with an API key, per key (see api-request-limits.ts). */
  apiPerKey: LimitRule;
  /** API requests without a key, per client address. */
  apiPerAddress: LimitRule;
}

/** A point taken for an attempt, to be given back when the attempt turns out fine (a right password). */
export interface Taken {
  giveBack(): Promise<void>;
}

/**
 * The shop's abuse limits, counted in PostgreSQL so that they hold across processes and restarts
 * (rate-limiter-flexible's PostgreSQL store). Every attempt takes its point before the work it guards,
 * so that parallel attempts cannot overrun a limit; a refusal is RATE_LIMITED with the seconds to wait.
 */
export class RateLimits {
  private limiters: Map<string, RateLimiterAbstract> | null = null;

  constructor(readonly rules: RateLimitDefinitions) {}

  /** Counts in this pool's database from now on (the `rate_limit` table must exist: migrations made it). */
  connect(pool: pg.Pool): void {
    this.limiters = new Map(
      Object.values(this.rules).map((rule) => [
        rule.name,
        new RateLimiterPostgres({
          storeClient: pool,
          storeType: 'pool',
          tableName: RATE_LIMIT_TABLE,
          tableCreated: true,
          keyPrefix: rule.name,
          points: rule.points,
          duration: rule.windowSeconds,
          // Expired rows are deleted by the limiter every five minutes.
          clearExpiredByTimeout: true,
          ...(rule.insured ? { insuranceLimiter: new RateLimiterMemory({ keyPrefix: rule.name, points: rule.points, duration: rule.windowSeconds }) } : {}),
        }),
      ]),
    );
  }

  /** Takes one point of each rule for its key; refuses (and gives back what it took) when any is spent. */
  async take(...attempts: [LimitRule, string][]): Promise<Taken> {
    const limiters = attempts.map(([rule, key]) => ({ rule, key: limitKey(rule, key), limiter: this.limiter(rule) }));
    const results = await Promise.allSettled(limiters.map(({ limiter, key }) => limiter.consume(key)));
    const giveBack = async () => {
      await Promise.all(limiters.map(({ limiter, key }, i) => (results[i]!.status === 'fulfilled' ? limiter.reward(key) : undefined)));
    };
    const refused = results.flatMap((result, i) => (result.status === 'rejected' ? [{ reason: result.reason as unknown, rule: limiters[i]!.rule }] : []));
    if (!refused.length) return { giveBack };
    // A store failure (the database is away) is not a refusal: it goes up as the error it is.
    const failure = refused.find(({ reason }) => !(reason instanceof RateLimiterRes));
    await giveBack().catch(() => undefined);
    if (failure) throw failure.reason;
    const wait = Math.max(...refused.map(({ reason }) => (reason as RateLimiterRes).msBeforeNext));
    throw new AppError('RATE_LIMITED', refused[0]!.rule.message, { retryAfter: Math.max(1, Math.ceil(wait / 1000)) });
  }

  /**
   * Takes `points` of a rule for its key and tells where its count stands, within the limit or past
   * it (a refusal is the answer, not an error). A store failure throws, unless the rule is insured:
   * then the answer is this process's memory's.
   */
  async count(rule: LimitRule, key: string, points = 1): Promise<RateLimiterRes> {
    try {
      return await this.limiter(rule).consume(limitKey(rule, key), points);
    } catch (reason) {
      if (reason instanceof RateLimiterRes) return reason;
      throw reason;
    }
  }

  private limiter(rule: LimitRule): RateLimiterAbstract {
    const limiter = this.limiters?.get(rule.name);
    if (!limiter) throw new Error(`The rate limits are not connected to a database (${rule.name}).`);
    return limiter;
  }
}

/** The limits of contract section 8, from the configuration. */
export function rateLimitRules(config: {
  loginLimits: { perUsername: number; perAddress: number; windowSeconds: number };
  apiRequestLimit?: { requests: number; windowSeconds: number } | null;
  limits: { registerPerHour: number; checkoutPer10Minutes: number; thankYouPerHour?: number; discountCodesPerHour?: number; giftCardLookupsPerHour?: number; passwordResetsPerAddressPerHour?: number; passwordResetsPerEmailPerHour?: number; signaturesPerHour?: number };
}): RateLimitDefinitions {
  const resets = refusals.resets;
  const login = refusals.login;
  const api = { points: config.apiRequestLimit?.requests ?? 600, windowSeconds: config.apiRequestLimit?.windowSeconds ?? 60, message: 'Too many API requests. Please wait for the time Retry-After gives and try again.' };
  return {
    loginPerUsername: { name: 'login-user', points: config.loginLimits.perUsername, windowSeconds: config.loginLimits.windowSeconds, message: login },
    loginPerAddress: { name: 'login-addr', points: config.loginLimits.perAddress, windowSeconds: config.loginLimits.windowSeconds, message: login, perAddress: true },
    register: { name: 'register', points: config.limits.registerPerHour, windowSeconds: 3600, message: refusals.register, perAddress: true },
    checkout: { name: 'checkout', points: config.limits.checkoutPer10Minutes, windowSeconds: 600, message: refusals.checkout, perAddress: true },
    thankYou: { name: 'thank-you', points: config.limits.thankYouPerHour ?? 20, windowSeconds: 3600, message: refusals.thankYou, perAddress: true },
    discountCode: { name: 'discount-code', points: config.limits.discountCodesPerHour ?? 20, windowSeconds: 3600, message: refusals.discountCode, perAddress: true },
    giftCardLookup: { name: 'gift-card', points: config.limits.giftCardLookupsPerHour ?? 10, windowSeconds: 3600, message: refusals.giftCard, perAddress: true },
    giftMembershipCode: { name: 'gift-membership', points: config.limits.giftCardLookupsPerHour ?? 10, windowSeconds: 3600, message: refusals.giftMembership, perAddress: true },
    passwordResetPerAddress: { name: 'reset-addr', points: config.limits.passwordResetsPerAddressPerHour ?? 5, windowSeconds: 3600, message: resets, perAddress: true },
    passwordResetPerEmail: { name: 'reset-email', points: config.limits.passwordResetsPerEmailPerHour ?? 3, windowSeconds: 3600, message: resets },
    addressEmails: { name: 'address-emails', points: 5, windowSeconds: 3600, message: refusals.addressEmails },
    signature: { name: 'signature', points: config.limits.signaturesPerHour ?? 20, windowSeconds: 3600, message: refusals.signature, perAddress: true },
    previewTests: { name: 'preview-tests', points: 5, windowSeconds: 3600, message: refusals.previewTests },
    apiPerKey: { name: 'api-key', ...api, insured: true },
    apiPerAddress: { name: 'api-addr', ...api, perAddress: true, insured: true },
  };
}
