import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../core/errors.js';

export interface LoginLimits {
  perUsername: number;
  perAddress: number;
  windowSeconds: number;
}

/**
 * Counts failed logins per username and per client address over a sliding window; once either
 * count is spent, login is refused with RATE_LIMITED and the seconds until it may be tried again.
 */
export class LoginThrottle {
  private readonly byUsername: RateLimiterMemory;
  private readonly byAddress: RateLimiterMemory;

  constructor(private readonly limits: LoginLimits) {
    this.byUsername = new RateLimiterMemory({ keyPrefix: 'login-user', points: limits.perUsername, duration: limits.windowSeconds });
    this.byAddress = new RateLimiterMemory({ keyPrefix: 'login-addr', points: limits.perAddress, duration: limits.windowSeconds });
  }

  async assertAllowed(username: string, address: string): Promise<void> {
    const [user, addr] = await Promise.all([this.byUsername.get(username.toLowerCase()), this.byAddress.get(address)]);
    const spent = [
      [user, this.limits.perUsername],
      [addr, this.limits.perAddress],
    ].filter(([res, limit]) => res && (res as RateLimiterRes).consumedPoints >= (limit as number)) as [RateLimiterRes, number][];
    if (spent.length === 0) return;
    const retryAfter = Math.max(1, Math.ceil(Math.max(...spent.map(([res]) => res.msBeforeNext)) / 1000));
    throw new AppError('RATE_LIMITED', 'Too many failed login attempts. Please try again later.', { retryAfter });
  }

  async recordFailure(username: string, address: string): Promise<void> {
    const swallowLimit = (promise: Promise<unknown>) => promise.catch(() => undefined);
    await Promise.all([
      swallowLimit(this.byUsername.consume(username.toLowerCase())),
      swallowLimit(this.byAddress.consume(address)),
    ]);
  }

  async recordSuccess(username: string): Promise<void> {
    await this.byUsername.delete(username.toLowerCase());
  }
}
