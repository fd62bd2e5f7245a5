import type { Logger } from 'pino';

/** Beyond a day ahead the poll finds the next item (timers that long are not worth keeping). */
const LONGEST_WAIT_MS = 86_400_000;

export interface DueRunsOptions {
  /** One pass over what is due now; answers how much it did (what `runDue` adds up). */
  runOnce: () => Promise<number>;
  /** When the next item falls due (or a lease runs out); null when nothing waits. */
  nextDue: () => Promise<Date | null>;
  clock: () => Date;
  log: Logger;
  /** What is run, for the logs ("e-mail", "webhook"). */
  what: string;
}

/**
 * When a background queue's worker runs (the e-mail queue, the webhook outbox): when woken (`kick`,
 * e.g. on a NOTIFY that something due was committed), when the next item falls due, and at every
 * poll (a safety net). Concurrent wake-ups share one run, and one that comes during a run (or while
 * the run looks up the next due item) runs it again once it ends, so nothing committed meanwhile
 * waits for the poll.
 */
export class DueRuns {
  private pollTimer: NodeJS.Timeout | null = null;
  private nextDueTimer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private rerun = false;
  private started = false;
  private stopped = false;

  constructor(private readonly options: DueRunsOptions) {}

  /** Whether `stop` was called: a run in progress ends after what it has in hand. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Runs at once, and from then on when woken, when the next item falls due, and every `pollSeconds`. */
  start(pollSeconds: number): void {
    this.started = true;
    this.stopped = false;
    this.pollTimer = setInterval(() => this.kick(), pollSeconds * 1000);
    this.pollTimer.unref();
    this.kick();
  }

  /** Runs soon (something became due), without waiting for the next poll. */
  kick(): void {
    if (!this.started || this.stopped) return;
    void this.runDue().catch((error: unknown) => this.options.log.error({ err: error }, `${this.options.what} run failed`));
  }

  /** Runs until nothing is due; answers what the passes did. Concurrent calls share one run. */
  async runDue(): Promise<number> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      let done = 0;
      // A wake-up that comes while the run looks up the next due item runs it again too.
      for (;;) {
        do {
          this.rerun = false;
          if (this.stopped || !this.started) break;
          done += await this.options.runOnce();
        } while (this.rerun && !this.stopped);
        if (!this.stopped && this.started) await this.wakeAtNextDue().catch((error: unknown) => this.options.log.warn({ err: error }, `could not look up the next due ${this.options.what}`));
        if (!this.rerun || this.stopped || !this.started) return done;
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops the timers and takes no more wake-ups (at once); resolves once the run in progress has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.nextDueTimer) clearTimeout(this.nextDueTimer);
    this.pollTimer = this.nextDueTimer = null;
    await this.running?.catch(() => undefined);
    this.started = false;
  }

  /** Wakes the worker when the next item falls due, if within a day (the poll finds later ones). */
  private async wakeAtNextDue(): Promise<void> {
    const next = await this.options.nextDue();
    if (this.nextDueTimer) clearTimeout(this.nextDueTimer);
    this.nextDueTimer = null;
    if (!next) return;
    const delay = next.getTime() - this.options.clock().getTime();
    if (delay > LONGEST_WAIT_MS) return;
    this.nextDueTimer = setTimeout(() => this.kick(), Math.max(0, delay) + 5);
    this.nextDueTimer.unref();
  }
}
