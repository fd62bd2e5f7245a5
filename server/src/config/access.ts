/**
 * Who is asking and how often: how long a sign-in lasts (TOKEN_TTL), the client's address behind
 * proxies (TRUST_PROXY) and the limits of abuse counted per address.
 */

export interface AbuseLimits {
  /** Register attempts reaching the e-mail check (409s included) per client address per hour (default: as many as password resets). */
  registerPerHour: number;
  /** Checkout attempts per client address per 10 minutes. */
  checkoutPer10Minutes: number;
  /** Thank-you replies from e-card pages per client address per hour (default 20). */
  thankYouPerHour?: number;
  /** Discount codes tried that cannot be used, per client address per hour (default 20). */
  discountCodesPerHour?: number;
  /** Gift card codes looked up per client address per hour (default 10). */
  giftCardLookupsPerHour?: number;
  /** Password reset requests per client address per hour (default 5). */
  passwordResetsPerAddressPerHour?: number;
  /** Password reset requests per e-mail address per hour (default 3). */
  passwordResetsPerEmailPerHour?: number;
  /** Signatures written on group cards per client address per hour (default 20). */
  signaturesPerHour?: number;
}

/** TRUST_PROXY: unset/0 for none, or the number of proxies in front (N hops from the right of X-Forwarded-For). */
export function parseTrustProxy(raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '' || value === '0') return 0;
  if (!/^\d{1,2}$/.test(value)) throw new Error(`TRUST_PROXY must be the number of proxies in front of the shop (0, 1, 2...), got "${raw}"`);
  return Number(value);
}

/** TOKEN_TTL accepts seconds ("28800") or a number with a unit ("8h", "30m", "45s", "2d"). */
export function parseTtl(raw: string | undefined): number {
  if (!raw) return 8 * 3600;
  const match = /^(\d+)\s*([smhd]?)$/.exec(raw.trim());
  if (!match) throw new Error(`TOKEN_TTL must look like 28800, 8h, 30m or 2d, got "${raw}"`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
