import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { MailJob, MailJobStatus, MailKind } from './mail-job.entity.js';
import type { Mailer } from './mailer.js';
import { cardEmail, receiptEmail, type MailContent } from './order-emails.js';
import { OrderItem } from './order-item.entity.js';
import { Order, OrderStatus } from './order.entity.js';

export interface DeliveryOptions {
  mailer: Mailer;
  baseUrl: string;
  /** The shop's clock: what "due" means. */
  clock: () => Date;
  log: Logger;
  /** Attempts before a job is given up (an admin can still resend). */
  maxAttempts?: number;
}

const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60_000;

/**
 * Sends the shop's e-mail from the `mail_job` queue: each due job is claimed with a row lock that
 * other workers skip, sent, and marked sent in the same transaction. A failed send is retried later
 * with backoff; a crash between sending and committing sends again at worst, and the outbox file or
 * Message-ID of a retry is the same one, so nothing is ever lost and nothing is doubled in the outbox.
 */
export class DeliveryService {
  private readonly maxAttempts: number;
  private orm: MikroORM | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private rerun = false;

  constructor(private readonly options: DeliveryOptions) {
    this.maxAttempts = options.maxAttempts ?? 8;
  }

  /** The mail jobs of a new order, written in the order's transaction. */
  queueForOrder(em: EntityManager, order: Order, items: OrderItem[], now: Date): void {
    em.create(MailJob, { kind: MailKind.RECEIPT, order, dueAt: now });
    for (const item of items) {
      if (item.itemUrlUuid) em.create(MailJob, { kind: MailKind.CARD, order, item, dueAt: item.deliverAt ?? now });
    }
  }

  queueResend(em: EntityManager, item: OrderItem): void {
    em.create(MailJob, { kind: MailKind.CARD_RESEND, order: item.order, item, dueAt: this.options.clock() });
  }

  /** Starts polling for due jobs. */
  start(orm: MikroORM, pollSeconds: number): void {
    this.orm = orm;
    this.timer = setInterval(() => this.kick(), pollSeconds * 1000);
    this.timer.unref();
    this.kick();
  }

  /** Runs the queue soon (after an order is placed), without waiting for the next poll. */
  kick(): void {
    if (!this.orm) return;
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
        while (await this.sendNext()) sent += 1;
      } while (this.rerun);
      return sent;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Waits for a run in progress, and stops polling. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    this.orm = null;
    this.options.mailer.close();
  }

  /** Claims, sends and settles one due job; false when none is due. */
  private async sendNext(): Promise<boolean> {
    if (!this.orm) throw new Error('The delivery worker is not started.');
    const now = this.options.clock();
    return this.orm.em.fork().transactional(async (em) => {
      const [claimed] = await em.execute<{ id: number }[]>(
        `select id from mail_job where status = 'queued' and due_at <= ? order by due_at, id limit 1 for update skip locked`,
        [now],
      );
      if (!claimed) return false;
      const job = await em.findOneOrFail(MailJob, claimed.id, { populate: ['order', 'item'] });
      try {
        const content = await this.content(em, job);
        await this.options.mailer.send({ id: `${job.kind}-${job.id}`, ...content });
      } catch (error) {
        job.attempts += 1;
        job.lastError = error instanceof Error ? error.message : String(error);
        if (job.attempts >= this.maxAttempts) job.status = MailJobStatus.FAILED;
        else job.dueAt = new Date(now.getTime() + Math.min(RETRY_BASE_MS * 2 ** (job.attempts - 1), RETRY_MAX_MS));
        this.options.log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: error }, 'e-mail not sent; will retry');
        return true;
      }
      job.attempts += 1;
      job.status = MailJobStatus.SENT;
      job.sentAt = now;
      await this.settle(em, job, now);
      this.options.log.info({ jobId: job.id, kind: job.kind, orderId: job.order.id }, 'e-mail sent');
      return true;
    });
  }

  private async content(em: EntityManager, job: MailJob): Promise<MailContent> {
    if (job.kind === MailKind.RECEIPT) {
      const items = await em.find(OrderItem, { order: job.order }, { orderBy: { position: 'asc' } });
      return receiptEmail(job.order, items, this.options.baseUrl);
    }
    return cardEmail(job.item!, this.options.baseUrl);
  }

  /** What a sent job changes: the card is delivered, the receipt sent, and the order delivered once everything went out. */
  private async settle(em: EntityManager, job: MailJob, now: Date): Promise<void> {
    if (job.kind === MailKind.RECEIPT) job.order.receiptSentAt ??= now;
    else job.item!.deliveredAt ??= now;
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
