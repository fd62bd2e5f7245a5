/** What a kind of e-mail deals with: its jobs, its renderer's outcomes and the filters (see the header of mail-queue.ts). */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ShopIdentity } from './templates/shop-identity.js';

/**
 * What a job is about, in the words of the feature that queued it (`{ kind: 'order', id }`): the
 * queue stores it as text and gives it back; it never looks at what it names.
 */
export interface MailRef {
  readonly kind: string;
  readonly id: string | number;
}

/** A reference as the queue stores it (`order:1f0c…`, `card:12`). */
export const refKey = (ref: MailRef): string => `${ref.kind}:${ref.id}`;

/** A stored reference back as the feature wrote it (its id as text). */
export function parseRef(key: string | null): MailRef | null {
  if (!key) return null;
  const at = key.indexOf(':');
  return at < 0 ? { kind: key, id: '' } : { kind: key.slice(0, at), id: key.slice(at + 1) };
}

/** A job as its renderer sees it. */
export interface QueuedMail<P = Record<string, unknown>> {
  readonly id: number;
  readonly kind: string;
  /** The address it was queued for (null only for jobs queued before the queue was generic). */
  readonly to: string | null;
  readonly payload: P;
  /** What it is about as a whole (an order): how its feature lists its e-mails. */
  readonly subject: MailRef | null;
  /** The part of it the e-mail is for (a card of the order, an invitation, an account's link). */
  readonly ref: MailRef | null;
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
  /** The From header's display name (set by the queue from the shop's settings; the configured sender otherwise). */
  fromName?: string;
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
  /** Whose e-mail it is: the shop's name, support address and zone, read once for the batch (pass it to `renderEmail`). */
  shop: ShopIdentity;
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
