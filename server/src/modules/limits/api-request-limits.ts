import { addressKey } from '../../core/client-address.js';
import type { LimitRule, RateLimits } from './rate-limits.js';

/** Who an API request counts against: its API key, or its client address when it carries none. */
export type ApiCaller = { keyId: number } | { address: string };

/** Where a caller's count stands, as the RateLimit-* headers say it; `retryAfter` when the request is refused. */
export interface ApiQuota {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Seconds to wait (Retry-After), when this request is past the limit. */
  retryAfter?: number;
}

/** How long a count read from PostgreSQL is trusted for points taken in this process alone. */
export const FRESH_MS = 1000;
/** How often points taken in this process are added to the shared count (one write per caller). */
export const FLUSH_MS = 100;
/** Counts kept past this many callers are swept of those whose window has ended. */
const SWEEP_ABOVE = 10_000;

interface Count {
  rule: LimitRule;
  key: string;
  /** The shared count as PostgreSQL last answered it (every process's points). */
  known: number;
  /** When the window ends (this process's clock). */
  resetAt: number;
  syncedAt: number;
  /** Points taken here, not yet sent. */
  pending: number;
  /** Points sent, not yet answered. */
  sending: number;
}

/**
 * The API's request limits (contract section 19): API_KEY_RATE_PER_MINUTE requests a window per key,
 * or per client address without one, counted in PostgreSQL with the shop's other limits so that every
 * process counts together.
 *
 * A write per request would cost the cached reads most of their rate, so a process keeps a copy of
 * each caller's count, takes the caller's next points from it (`takeKnown`, no query) and adds them to
 * the shared count every tenth of a second, in one write per caller, whose answer brings the copy up
 * to date. A copy that is spent here, or (for Express's requests) older than a second, is taken in
 * PostgreSQL (`take`), which alone refuses: every 429 is the shared count's. So the count a process
 * shows lags the other processes' by a flush while it is answering the caller (a second after a
 * pause), and the limit can be overrun by what the other processes take in that time, never more.
 */
/** A caller as the store knows it: its rule, its key, and the name of its count (`rule:key`). */
interface Counted {
  rule: LimitRule;
  key: string;
  id: string;
}

const named = (rule: LimitRule, key: string): Counted => ({ rule, key, id: `${rule.name}:${key}` });

export class ApiRequestLimits {
  private readonly counts = new Map<string, Count>();
  private readonly byKey = new Map<number, Counted>();
  private readonly byAddress = new Map<string, Counted>();
  private flushing: NodeJS.Timeout | null = null;

  constructor(
    private readonly limits: RateLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  get limit(): number {
    return this.limits.rules.apiPerKey.points;
  }

  /** Takes a point in PostgreSQL, with the points taken here that were not sent yet. */
  async take(caller: ApiCaller): Promise<ApiQuota> {
    const { rule, key, id } = this.ruleOf(caller);
    const count = this.counts.get(id);
    const points = 1 + (count?.pending ?? 0);
    // What the shared count was at least, in a window still running: with these points, the least it can answer.
    const floor = count && this.clock() < count.resetAt ? { consumed: count.known + points, resetAt: count.resetAt } : null;
    if (count) {
      count.pending = 0;
      count.sending += points;
    }
    let answer;
    try {
      answer = await this.limits.count(rule, key, points);
    } finally {
      if (count) count.sending -= points;
    }
    const now = this.clock();
    // A shared count does not go down within its window. An answer below what this process knew is
    // the store's insurance, counting in this process's memory from nothing while PostgreSQL does not
    // answer (a pool out of connections on a loaded machine): the count this process knew still holds.
    const held = floor !== null && answer.consumedPoints < floor.consumed && now < floor.resetAt;
    const consumed = held ? floor.consumed : answer.consumedPoints;
    const resetAt = held ? floor.resetAt : now + answer.msBeforeNext;
    const merged = this.merge(id, rule, key, consumed, resetAt, now);
    const quota = this.quota(merged, now);
    if (consumed > rule.points) quota.retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
    return quota;
  }

  /**
   * Takes a point from this process's count of the caller, or answers undefined: then `take` it.
   * Express's requests take from a count read within the second. The cached reads ahead of Express
   * (`cached: true`), which cannot wait for a query, take from any count they have: an older one is
   * brought up to date by the flush that follows, and a window that has ended here starts anew here
   * (the flush then counts its points in PostgreSQL's new window). Either way a count spent here goes
   * to PostgreSQL, which decides.
   */
  takeKnown(caller: ApiCaller, cached = false): ApiQuota | undefined {
    const { rule, id } = this.ruleOf(caller);
    const count = this.counts.get(id);
    const now = this.clock();
    if (!count) return undefined;
    if (now >= count.resetAt) {
      if (!cached) return undefined;
      count.known = 0;
      count.resetAt = now + rule.windowSeconds * 1000;
    } else if (!cached && now - count.syncedAt >= FRESH_MS) {
      return undefined;
    }
    if (rule.points - count.known - count.pending - count.sending < 1) return undefined;
    count.pending++;
    this.flushing ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
    return this.quota(count, now);
  }

  /** Adds the points taken here to the shared counts (a failed write loses them: the store is away). */
  flush(): void {
    this.flushing = null;
    const now = this.clock();
    for (const [id, count] of this.counts) {
      if (!count.pending) {
        if (this.counts.size > SWEEP_ABOVE && now >= count.resetAt && !count.sending) this.counts.delete(id);
        continue;
      }
      const points = count.pending;
      count.pending = 0;
      count.sending += points;
      this.limits.count(count.rule, count.key, points).then(
        (answer) => {
          count.sending -= points;
          const at = this.clock();
          this.merge(id, count.rule, count.key, answer.consumedPoints, at + answer.msBeforeNext, at);
        },
        () => void (count.sending -= points),
      );
    }
  }

  stop(): void {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = null;
  }

  /** The rule a caller is counted by, its key in the store and its count's name here (remembered: the cached reads ask for every request). */
  private ruleOf(caller: ApiCaller): Counted {
    const known = 'keyId' in caller ? this.byKey.get(caller.keyId) : this.byAddress.get(caller.address);
    if (known) return known;
    const counted = 'keyId' in caller ? named(this.limits.rules.apiPerKey, String(caller.keyId)) : named(this.limits.rules.apiPerAddress, addressKey(caller.address));
    if (this.byKey.size + this.byAddress.size >= SWEEP_ABOVE) {
      this.byKey.clear();
      this.byAddress.clear();
    }
    if ('keyId' in caller) this.byKey.set(caller.keyId, counted);
    else this.byAddress.set(caller.address, counted);
    return counted;
  }

  /** An answer from PostgreSQL: the count of a new window replaces the old one; answers of one window can come out of order. */
  private merge(id: string, rule: LimitRule, key: string, consumed: number, resetAt: number, now: number): Count {
    const count = this.counts.get(id);
    if (!count) {
      const fresh = { rule, key, known: consumed, resetAt, syncedAt: now, pending: 0, sending: 0 };
      this.counts.set(id, fresh);
      return fresh;
    }
    // A new window starts after the old one ends, so its end is at least a window later; the answers
    // of one window agree on its end (to a few milliseconds) and may come out of order.
    const sameWindow = Math.abs(resetAt - count.resetAt) < (rule.windowSeconds * 1000) / 2;
    count.known = sameWindow ? Math.max(count.known, consumed) : consumed;
    count.resetAt = resetAt;
    count.syncedAt = now;
    return count;
  }

  private quota(count: Count, now: number): ApiQuota {
    const limit = this.limit;
    return {
      limit,
      remaining: Math.max(0, limit - count.known - count.pending - count.sending),
      resetSeconds: Math.max(0, Math.ceil((count.resetAt - now) / 1000)),
    };
  }
}
