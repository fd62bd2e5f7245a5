import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { ReadCache } from '../../core/read-cache.js';
import { refreshSalePrices, SALE_PRICES_LOCK, salePriceChanges, type RepricedProduct } from './sale-prices.js';

/** The longest a timer is set for: a start further off is looked at again then (timers have a 24-day limit, and clocks drift). */
const MAX_WAIT_MS = 3600_000;

export interface SaleClockDeps {
  orm: MikroORM;
  cache: ReadCache;
  clock: () => Date;
  log: Logger;
}

/**
 * Makes the shop's prices follow the sales' starts and ends at the second, in every process: each
 * process sets a timer for the next start or end (again whenever a sale is written, see
 * SALES_CHANGED_SIGNAL), and at that moment moves the kept sale prices to the sales running then and
 * drops what changed from every process's cache. Every process's timer fires; the first to take the
 * lock does the work and the others find nothing left to do. A start or an end missed while no
 * process ran is caught up when one starts.
 */
export class SaleClock {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** One switch at a time in this process; a call meanwhile waits for it and runs again. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: SaleClockDeps) {}

  /** Catches up with any start or end passed, then waits for the next. */
  start(): Promise<void> {
    this.stopped = false;
    return this.wake();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Switches the prices if a start or end has passed, and sets the timer for the next (a sale was written, or the timer fired). */
  wake(): Promise<void> {
    const next = this.running.then(async () => {
      await this.switchIfDue().catch((error: unknown) => this.deps.log.error({ err: error }, 'could not move the shop to its running sales'));
      await this.arm().catch((error: unknown) => this.deps.log.error({ err: error }, 'could not read when the next sale starts or ends'));
    });
    this.running = next;
    return next;
  }

  /**
   * Moves the kept sale prices to the sales running now when a start or an end lies between the
   * moment they are as of and now (in either direction, so a clock set back in a test is followed
   * too). Answers the products repriced.
   */
  async switchIfDue(): Promise<RepricedProduct[]> {
    const { repriced, bannerChanged, now } = await this.deps.orm.em.fork().transactional(async (em) => {
      // Under the lock: a process that waited for another's switch sees its clock moved and finds nothing due.
      await em.execute(SALE_PRICES_LOCK);
      // The time is read once the lock is held, never before: a moment read while another process was
      // switching lies behind the one it switched to, and would move the shop back before the start.
      const now = this.deps.clock();
      const [due] = await em.execute<{ due: boolean; banner: boolean }[]>(
        `select coalesce(bool_or(true), false) as due, coalesce(bool_or(s.banner is not null), false) as banner
           from sale s, sale_clock c
          where c.at <> ?
            and ((s.starts_at > least(c.at, ?) and s.starts_at <= greatest(c.at, ?)) or (s.ends_at > least(c.at, ?) and s.ends_at <= greatest(c.at, ?)))`,
        [now, now, now, now, now],
      );
      if (!due?.due) return { repriced: [], bannerChanged: false, now };
      return { repriced: await refreshSalePrices(em, () => now), bannerChanged: due.banner, now };
    });
    if (repriced.length || bannerChanged) {
      await this.deps.cache.changed(salePriceChanges(repriced, bannerChanged));
      this.deps.log.info({ repriced: repriced.length, at: now.toISOString() }, 'a sale started or ended');
    }
    return repriced;
  }

  private async arm(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    const now = this.deps.clock();
    const [row] = await this.deps.orm.em.fork().execute<{ next: Date | null }[]>(
      `select min(at) as next from (select starts_at as at from sale where starts_at > ? union all select ends_at from sale where ends_at > ?) b`,
      [now, now],
    );
    if (this.stopped) return;
    const wait = row?.next ? Math.min(new Date(row.next).getTime() - now.getTime(), MAX_WAIT_MS) : MAX_WAIT_MS;
    this.timer = setTimeout(() => void this.wake(), Math.max(0, wait));
    this.timer.unref();
  }
}
