/** What a kind of e-mail deals with: its jobs, its renderer's outcomes and the filters (see the header of mail-queue.ts). */
import type { EntityManager } from '@mikro-orm/postgresql';

/** A job as its renderer sees it. */
export interface QueuedMail<P = Record<string, unknown>> {
  readonly id: number;
  readonly kind: string;
  /** The address it was queued for (null only for jobs queued before the queue was generic). */
  readonly to: string | null;
  readonly payload: P;
  readonly orderId: string | null;
  readonly itemId: number | null;
  readonly ref: string | null;
  /** Attempts so far, this one included. */
  readonly attempts: number;
  readonly dueAt: Date;
  readonly createdAt: Date;
}

/** A rendered e-mail. */
export interface MailMessage {
  /** Overrides the job's address (a job queued before the queue was generic has none). */
  to?: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post, ...). */
  headers?: Record<string, string>;
}

/** A job its renderer or a filter decided not to send. */
export interface Withheld {
  readonly withheld: true;
  /** Shown to admins and owners; null: the job is removed without a trace. */
  readonly reason: string | null;
}

export type RenderOutcome = MailMessage | Withheld;

/** Not sent, kept as `withheld` with the reason (shown to admins and owners). */
export const withhold = (reason: string): Withheld => ({ withheld: true, reason });
/** Not sent and removed (e.g. a reminder no longer needed). */
export const drop = (): Withheld => ({ withheld: true, reason: null });
export const isWithheld = (outcome: RenderOutcome): outcome is Withheld => (outcome as Withheld).withheld === true;

export interface RenderEnv {
  /** A fresh EntityManager for the batch's reads (no transaction is open: the mail server is talked to next). */
  em: EntityManager;
  /** The queue's clock at the start of the batch. */
  now: Date;
}

export interface MailKindDefinition<P = Record<string, unknown>> {
  kind: string;
  render(jobs: readonly QueuedMail<P>[], env: RenderEnv): Promise<RenderOutcome[]>;
  settle?(em: EntityManager, jobs: readonly QueuedMail<P>[], now: Date): Promise<void>;
  eraseWhenSent?: readonly string[];
}

/** One e-mail of a batch about to be sent, as filters see it. */
export interface OutgoingEntry {
  readonly job: QueuedMail;
  readonly mail: MailMessage & { to: string; headers: Record<string, string> };
  withhold(reason: string): void;
  drop(): void;
}

export type MailFilter = (entries: readonly OutgoingEntry[], env: RenderEnv) => Promise<void>;
