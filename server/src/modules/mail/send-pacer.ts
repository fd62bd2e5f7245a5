/** Runs SQL on the shop's database (the ORM's connection). */
export type RunSql = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The time as this process reads it (milliseconds since the epoch) and its timers. */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The part of each second in which sends start; the rest is a margin for the send itself. */
const WINDOW_MS = 600;
/** A slot may be used this late (a lane was busy); later than that it could land in the next second, so it is dropped. */
const LATE_MS = 50;

/**
 * MAIL_MAX_PER_SECOND for the whole shop: before each send a lane takes a send time from the slots
 * this process reserved in PostgreSQL (`mail_rate_reserve`: at most `cap` per second across every
 * process, evenly spread), and waits for it. Slots are reserved a few at a time; one missed by more
 * than LATE_MS is dropped, never used late, so no second carries more than the cap. Send times are
 * the database's clock read as this process's: the shop's machines keep their clocks in step (NTP),
 * and on one machine they are the same clock.
 */
export class SendPacer {
  /** Reserved send times on this process's clock, earliest first. */
  private slots: number[] = [];
  private reserving: Promise<void> | null = null;

  constructor(
    private readonly sql: RunSql,
    readonly cap: number,
    /** Slots reserved at once (a few per lane: enough to keep the lanes busy, few enough to waste little). */
    private readonly chunk: number,
    /** This process's clock and timers (the database's send times are read on this clock). */
    private readonly clock: PacerClock = systemClock,
  ) {}

  /** Resolves at this send's time. */
  async take(): Promise<void> {
    await this.sendTime();
  }

  /** Resolves at this send's time, with the time on this process's clock at which it let the send go. */
  async sendTime(): Promise<number> {
    for (;;) {
      const now = this.clock.now();
      while (this.slots.length && this.slots[0]! < now - LATE_MS) this.slots.shift();
      const at = this.slots.shift();
      if (at !== undefined) {
        if (at > now) await this.clock.sleep(at - now);
        // A timer can fire late on a busy process: a slot missed by then is dropped too.
        const go = this.clock.now();
        if (go - at <= LATE_MS) return go;
        continue;
      }
      await (this.reserving ??= this.reserve().finally(() => (this.reserving = null)));
    }
  }

  private async reserve(): Promise<void> {
    const rows = await this.sql('select at_ms from mail_rate_reserve(?, ?, ?)', [this.cap, this.chunk, WINDOW_MS]);
    for (const row of rows) this.slots.push(Number(row.at_ms));
    this.slots.sort((a, b) => a - b);
  }
}
