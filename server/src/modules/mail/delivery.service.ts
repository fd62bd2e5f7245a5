import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { RequestContext } from '../../core/context.js';
import { MailJob, MailJobStatus, MailKind } from './mail-job.entity.js';
import type { Mailer } from './mailer.js';
import { cardEmail, openedEmail, receiptEmail, reminderEmail, thankYouEmail, type MailContent } from './emails.js';
import { OrderItem } from '../orders/order-item.entity.js';
import { Order, OrderStatus } from '../orders/order.entity.js';

export interface DeliveryOptions {
  mailer: Mailer;
  baseUrl: string;
  /** The shop's clock: what "due" means. */
  clock: () => Date;
  log: Logger;
  /** How long a failing e-mail keeps being retried before it is shown as failed (default 3 days). */
  retryForMs?: number;
}

const RETRY_BASE_MS = 30_000;
/** The backoff's cap: a failing e-mail is tried at least every hour. */
export const RETRY_MAX_MS = 60 * 60_000;
export const RETRY_FOR_MS = 3 * 24 * 60 * 60_000;
/** How long a claimed job may take to send before another worker may claim it again. */
const CLAIM_MS = 5 * 60_000;

/** The delay before the n-th retry (n ≥ 1): 30 s, 1 min, 2 min... capped at one hour. */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.min(attempts - 1, 20), RETRY_MAX_MS);
}

/**
 * Sends the shop's e-mail from the `mail_job` queue in three steps, none of which holds a transaction
 * while talking to the mail server: a due job is claimed (a short transaction marks it `sending` until
 * a lease ends; other workers skip it), sent, then settled (sent, or back to `queued` with a capped
 * backoff). Every send of a job carries the same Message-ID (`<kind-id@domain>`), so in the rare case
 * of a crash after sending and before settling, the repeat after the lease is recognisable as the same
 * e-mail. A job that keeps failing is retried for at least three days, then marked `failed` with its
 * reason for admins, who can retry it.
 */
export class DeliveryService {
  private readonly retryForMs: number;
  private orm: MikroORM | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private rerun = false;
  private stopping = false;
  /** Sends in flight (the only thing stop waits for). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** E-mails this process sent, and attempts that failed (for /metrics). */
  readonly stats = { sent: 0, failed: 0 };
  /** Told when a card's e-mail first went out, in the transaction that records it (the e-card loop queues its reminder). */
  onCardDelivered: ((em: EntityManager, item: OrderItem, now: Date) => Promise<void>) | null = null;

  constructor(private readonly options: DeliveryOptions) {
    this.retryForMs = options.retryForMs ?? RETRY_FOR_MS;
  }

  /** The mail jobs of a paid order, written in the transaction that marks it paid. */
  queueForOrder(tx: RequestContext, order: Order, items: OrderItem[], now: Date): void {
    tx.em.create(MailJob, { kind: MailKind.RECEIPT, order, dueAt: now });
    for (const item of items) {
      if (item.itemUrlUuid) tx.em.create(MailJob, { kind: MailKind.CARD, order, item, dueAt: item.deliverAt ?? now });
    }
  }

  /** A card sent again, queued in the caller's transaction. */
  queueResend(tx: RequestContext, item: OrderItem): void {
    tx.em.create(MailJob, { kind: MailKind.CARD_RESEND, order: item.order, item, dueAt: this.options.clock() });
  }

  /** A receipt sent again, queued in the caller's transaction. */
  queueReceiptResend(tx: RequestContext, order: Order): void {
    tx.em.create(MailJob, { kind: MailKind.RECEIPT_RESEND, order, dueAt: this.options.clock() });
  }

  /** Puts a failed e-mail back in the queue, due now, with a fresh retry period. */
  async retry(tx: RequestContext, jobId: number): Promise<MailJob | null> {
    const { em } = tx;
    const job = await em.findOne(MailJob, jobId, { populate: ['order'] });
    if (!job) return null;
    if (job.status === MailJobStatus.FAILED) {
      job.status = MailJobStatus.QUEUED;
      job.dueAt = this.options.clock();
      job.firstAttemptAt = null;
      await em.flush();
    }
    return job;
  }

  /** Starts polling for due jobs. */
  start(orm: MikroORM, pollSeconds: number): void {
    this.orm = orm;
    this.stopping = false;
    this.timer = setInterval(() => this.kick(), pollSeconds * 1000);
    this.timer.unref();
    this.kick();
  }

  /**
   * Where the queue runs elsewhere (APP_ROLE=web), how to wake the processes that run it; set at boot.
   * Without it, they find the new jobs at their next poll.
   */
  wakeWorkers: (() => void) | null = null;

  /** Runs the queue soon (after an order is placed), without waiting for the next poll. */
  kick(): void {
    if (!this.orm) {
      this.wakeWorkers?.();
      return;
    }
    if (this.stopping) return;
    void this.runDue().catch((error) => this.options.log.error({ err: error }, 'mail delivery run failed'));
  }

  /** Sends every job that is due now; returns how many were sent. Concurrent calls share one run. */
  async runDue(): Promise<number> {
    if (this.running) {
      this.rerun = true;
      return this.running;
    }
    this.running = (async () => {
      let sent = 0;
      do {
        this.rerun = false;
        for (;;) {
          if (this.stopping) break;
          const outcome = await this.sendNext();
          if (outcome === 'none') break;
          if (outcome === 'sent') sent += 1;
        }
      } while (this.rerun && !this.stopping);
      return sent;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops claiming jobs and waits only for the sends in flight; the rest stays queued for the next start. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
    await this.running?.catch(() => undefined);
    this.orm = null;
    this.options.mailer.close();
  }

  /** Claims, sends and settles one due job. */
  private async sendNext(): Promise<'none' | 'sent' | 'failed' | 'skipped'> {
    if (!this.orm) return 'none';
    const now = this.options.clock();
    const job = await this.claim(now);
    if (!job) return 'none';
    const work = this.deliver(job, now);
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  /** Marks the next due job `sending` (a short transaction of its own) and loads what its e-mail needs. */
  private async claim(now: Date): Promise<{ job: MailJob; em: EntityManager } | null> {
    const em = this.orm!.em.fork();
    const claimed = await em.transactional(async (tx) => {
      const [row] = await tx.execute<{ id: number }[]>(
        `update mail_job set status = 'sending', claimed_until = ?, attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, ?)
          where id = (select id from mail_job
                       where (status = 'queued' and due_at <= ?) or (status = 'sending' and claimed_until <= ?)
                       order by due_at, id limit 1 for update skip locked)
          returning id`,
        [new Date(now.getTime() + CLAIM_MS), now, now, now],
      );
      return row ? Number(row.id) : null;
    });
    if (claimed === null) return null;
    const job = await em.findOneOrFail(MailJob, claimed, { populate: ['order', 'item', 'reply'] });
    return { job, em };
  }

  private async deliver({ job, em }: { job: MailJob; em: EntityManager }, now: Date): Promise<'sent' | 'failed' | 'skipped'> {
    // A reminder of a card opened in the meantime (or of an order cancelled or refunded) is no longer wanted.
    if (job.kind === MailKind.REMINDER && (job.item?.openedAt || job.item?.refundedAt || job.order.status === OrderStatus.CANCELLED || job.order.status === OrderStatus.REFUNDED)) {
      await this.orm!.em.fork().nativeDelete(MailJob, { id: job.id, status: MailJobStatus.SENDING });
      return 'skipped';
    }
    // A refunded order's cards are never sent (the refund marks them; this covers one claimed meanwhile).
    if ((job.kind === MailKind.CARD || job.kind === MailKind.CARD_RESEND) && (job.order.status === OrderStatus.REFUNDED || job.item?.refundedAt)) {
      await this.orm!.em.fork().nativeUpdate(MailJob, { id: job.id }, { status: MailJobStatus.FAILED, lastError: 'Not sent: the order was refunded.', claimedUntil: null });
      return 'failed';
    }
    try {
      const content = await this.content(em, job);
      await this.options.mailer.send({ id: `${job.kind}-${job.id}`, ...content });
    } catch (error) {
      this.stats.failed++;
      await this.failed(job, error, now);
      return 'failed';
    }
    this.stats.sent++;
    await this.orm!.em.fork().transactional(async (em) => {
      const fresh = await em.findOneOrFail(MailJob, job.id, { populate: ['order', 'item', 'reply'] });
      fresh.status = MailJobStatus.SENT;
      fresh.sentAt = now;
      fresh.claimedUntil = null;
      fresh.lastError = null;
      await this.settle(em, fresh, now);
    });
    this.options.log.info({ jobId: job.id, kind: job.kind, orderId: job.order.id }, 'e-mail sent');
    return 'sent';
  }

  private async failed(job: MailJob, error: unknown, now: Date): Promise<void> {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    const since = job.firstAttemptAt ?? now;
    const giveUp = now.getTime() - since.getTime() >= this.retryForMs;
    const dueAt = new Date(now.getTime() + retryDelay(job.attempts));
    await this.orm!.em.fork().nativeUpdate(
      MailJob,
      { id: job.id, status: MailJobStatus.SENDING },
      giveUp ? { status: MailJobStatus.FAILED, lastError: reason, claimedUntil: null } : { status: MailJobStatus.QUEUED, lastError: reason, claimedUntil: null, dueAt },
    );
    const facts = { jobId: job.id, kind: job.kind, orderId: job.order.id, attempts: job.attempts, reason };
    if (giveUp) this.options.log.error(facts, 'e-mail not sent after retrying for the whole retry period; shown as failed to admins, who can retry it');
    else this.options.log.warn({ ...facts, retryAt: dueAt.toISOString() }, 'e-mail not sent; will retry');
  }

  private async content(em: EntityManager, job: MailJob): Promise<MailContent> {
    if (job.kind === MailKind.RECEIPT || job.kind === MailKind.RECEIPT_RESEND) {
      const items = await em.find(OrderItem, { order: job.order }, { orderBy: { position: 'asc' } });
      return receiptEmail(job.order, items, this.options.baseUrl);
    }
    if (job.kind === MailKind.OPENED) return openedEmail(job.order, job.item!, this.options.baseUrl);
    if (job.kind === MailKind.THANK_YOU) return thankYouEmail(job.order, job.item!, job.reply!, this.options.baseUrl);
    if (job.kind === MailKind.REMINDER) return reminderEmail(job.item!, this.options.baseUrl);
    return cardEmail(job.item!, this.options.baseUrl);
  }

  /** What a sent job changes: the card is delivered, the receipt sent, and the order delivered once everything went out. */
  private async settle(em: EntityManager, job: MailJob, now: Date): Promise<void> {
    if (job.kind === MailKind.RECEIPT || job.kind === MailKind.RECEIPT_RESEND) job.order.receiptSentAt ??= now;
    else if (job.kind === MailKind.REMINDER) job.item!.remindedAt ??= now;
    else if (job.kind === MailKind.CARD || job.kind === MailKind.CARD_RESEND) {
      if (!job.item!.deliveredAt) await this.onCardDelivered?.(em, job.item!, now);
      job.item!.deliveredAt ??= now;
    }
    await em.flush();
    // The order row is locked so that two cards of one order sent at once see each other's outcome.
    await em.execute(`select 1 from "order" where id = ? for update`, [job.order.id]);
    const [counts] = await em.execute<{ cards: string; cards_waiting: string; receipt_waiting: string }[]>(
      `select count(*) filter (where kind = 'card') as cards,
              count(*) filter (where kind = 'card' and status <> 'sent') as cards_waiting,
              count(*) filter (where kind = 'receipt' and status <> 'sent') as receipt_waiting
         from mail_job where order_id = ?`,
      [job.order.id],
    );
    // An order with cards is delivered when every card went out; one without, once its receipt did.
    const delivered = Number(counts!.cards) > 0 ? Number(counts!.cards_waiting) === 0 : Number(counts!.receipt_waiting) === 0;
    if (delivered) await em.nativeUpdate(Order, { id: job.order.id, status: OrderStatus.PAID }, { status: OrderStatus.DELIVERED });
  }
}
