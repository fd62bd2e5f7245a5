import type { Foreground } from '../../core/foreground.js';
import type { Ready } from './delivery-compose.js';
import { reasonOf, type SentMarker, type Settler } from './delivery-settle.js';
import type { Mailer } from './mailer.js';

/** Once the process has answered requests for BUSY_GRACE_MS straight, its first lane sends at most one e-mail this often (20 a second). */
const BUSY_PACE_MS = 50;
/**
 * How long e-mails wait for requests being answered before the first lane sends again. A rush of
 * checkouts is served first (its cards leave seconds later at the pool's full speed), while under
 * load that does not let up e-mails still go out.
 */
export const BUSY_GRACE_MS = 10_000;

export interface LaneOptions {
  mailer: Mailer;
  /** How many lanes: the SMTP pool's size. */
  concurrency: number;
  /** The requests this process is answering (see `DeliveryOptions.yieldTo`). */
  yieldTo?: Pick<Foreground, 'busy' | 'busySince' | 'whenIdle'>;
  busyGraceMs: number;
  /** Waits for this process's next send time under MAIL_MAX_PER_SECOND. */
  pace: () => Promise<void>;
  /** Whether the worker is stopping: what is handed out then is released, not sent. */
  stopping: () => boolean;
  /** Counted as e-mails go out or fail (for /metrics). */
  stats: { sent: number; failed: number };
}

/**
 * The lanes of a worker, one per SMTP connection of the pool: each takes rendered e-mails and sends
 * them, giving way to the requests the process is answering.
 */
export class Lanes {
  /** Lanes waiting for the process to answer its requests (see `yieldTo`). */
  private readonly waiting = new Set<() => void>();

  constructor(private readonly options: LaneOptions) {}

  wakeWaiting(): void {
    for (const wake of [...this.waiting]) wake();
  }

  /** Sends what `next` hands out until it has nothing left; answers how many were sent. */
  async run(next: () => Promise<Ready | null>, settler: Settler, marker: SentMarker): Promise<number> {
    let sent = 0;
    // Every lane but the first waits while the process is answering requests (see `yieldTo`), and
    // stops waiting when the first lane has found nothing left (so that this run ends and the next
    // begins) or when delivery stops.
    const yieldTo = this.options.yieldTo;
    let drained = false;
    // The first lane, once requests have been answered for the grace without a pause, sends at most
    // one e-mail every BUSY_PACE_MS: e-mails keep going out under any load, and a checkout does not
    // wait behind a hundred of them.
    let paced = 0;
    const makeRoom = async (lane: number) => {
      while (yieldTo?.busy && !this.options.stopping() && !drained) {
        const wait = lane > 0 ? null : Math.max(paced + BUSY_PACE_MS, (yieldTo.busySince ?? 0) + this.options.busyGraceMs) - performance.now();
        if (wait !== null && wait <= 0) break;
        await new Promise<void>((resolve) => {
          let timer: NodeJS.Timeout | null = null;
          const wake = () => {
            this.waiting.delete(wake);
            if (timer) clearTimeout(timer);
            resolve();
          };
          this.waiting.add(wake);
          void yieldTo.whenIdle().then(wake);
          if (wait !== null) timer = setTimeout(wake, wait);
        });
      }
      if (lane === 0) paced = performance.now();
    };
    const lane = async (_: unknown, index: number) => {
      for (;;) {
        await makeRoom(index);
        const item = await next();
        if (!item) {
          if (index === 0) {
            drained = true;
            this.wakeWaiting();
          }
          return;
        }
        if (this.options.stopping()) {
          settler.add({ job: item.job, type: 'released' });
          continue;
        }
        try {
          await this.options.mailer.send({ id: `${item.job.kind}-${item.job.id}`, to: item.mail.to, subject: item.mail.subject, text: item.mail.text, html: item.mail.html, headers: item.mail.headers, fromName: item.mail.fromName }, this.options.pace);
          this.options.stats.sent++;
          sent++;
          marker.add(item.job);
          settler.add({ job: item.job, type: 'sent' });
        } catch (error) {
          this.options.stats.failed++;
          settler.add({ job: item.job, type: 'failed', error: reasonOf(error) });
        }
      }
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, lane));
    return sent;
  }
}
