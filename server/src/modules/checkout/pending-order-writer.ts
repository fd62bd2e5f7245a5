import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { withEm, type RequestContext } from '../../core/context.js';
import { preparedRead, runPrepared } from '../../db/prepared.js';
import { AppError, conflict } from '../../core/errors.js';
import { fromCents, toCents } from '../../core/money.js';
import { insertOrder, orderByKey, OrderItem, recordGiftCardPayment, type NewOrder, type OrderCard, type Order } from '../orders/index.js';
import { basketOf, withDiscount, type PricingBenefits } from './cart-pricing.js';
import type { RecipientCheck } from './card-recipients.js';
import type { CheckoutOptions } from './checkout.service.js';
import type { CartLine } from './checkout-rules.js';
import { draftOrder, type OrderDraft } from './order-draft.js';
import type { PaymentProvider } from '../payments/index.js';
import type { Locale } from '../../rules/index.js';
import { defineMessages } from '@formatjs/intl';

/** What a shopper reads when this refuses (in their language: see core/errors.ts). */
const refusals = defineMessages({
  changed: { id: 'error.checkout.changed', defaultMessage: 'This checkout changed while it was being placed; reload the page and try again.' },
  reused: { id: 'error.checkout.reused', defaultMessage: 'This checkout was already used for a different order; reload the page and try again.' },
});

/** A pending order as its checkout has just written it: what charging and paying it need. */
export interface WrittenOrder {
  id: string;
  total: string;
  /** What is left to charge once a gift card paid its part (the total without one). */
  due: string;
  purchaserEmail: string;
  /** How many items it has. */
  items: number;
  /** How many of them are gifts: gift cards and gift memberships (issued when it is paid). */
  gifts: number;
  cards: OrderCard[];
}

/** What createPending is given. */
export interface PendingArgs {
  key: string;
  requestHash: string;
  purchaserEmail: string;
  lines: CartLine[];
  discountCode: string | null;
  giftCardCode: string | null;
  provider: PaymentProvider;
  viewerId: number | null;
  /** What the shopper's membership gives (null: not a member). */
  benefits: PricingBenefits | null;
  now: Date;
  notifyOpened: boolean;
  locale: Locale;
}

/** Thrown in the locked way when its INSERT found the key taken (see createPending). */
class KeyTaken extends Error {}

/** A checkout's lock on its idempotency key (see createPendingLocked). */
const LOCK_KEY = preparedRead('checkout_lock_key', 'select pg_advisory_xact_lock(hashtextextended($1, 0))');

/** Writes a checkout's order as `pending`, once per idempotency key, before it is charged (see CheckoutService.place). */
export class PendingOrderWriter {
  constructor(
    private readonly options: Pick<CheckoutOptions, 'media' | 'discounts' | 'groupCards' | 'giftCards'>,
    /** The checks every recipient goes through (the checkout's own list: registered checks join it). */
    private readonly recipientChecks: readonly RecipientCheck[],
  ) {}

  /**
   * Writes the order and its items as `pending` and answers what paying it needs, or returns the order
   * another checkout of the key wrote first.
   */
  async createPending(ctx: RequestContext, args: PendingArgs): Promise<Order | WrittenOrder> {
    if (!args.discountCode && !args.giftCardCode) {
      const written = await this.createPendingAtOnce(ctx, args);
      if (written) return written;
    }
    try {
      return await this.createPendingLocked(ctx, args);
    } catch (error) {
      if (!(error instanceof KeyTaken)) throw error;
      // A checkout of the same key without the lock (in another process) wrote its order meanwhile.
      const existing = await this.byKey(ctx.em, args.key, args.requestHash);
      if (existing) return existing;
      throw conflict(refusals.changed, 'idempotencyKey');
    }
  }

  /**
   * The common checkout (no discount code to count) in two reads and one write, without a transaction
   * or a lock: the order with its items is one INSERT, atomic on its own, that the key's unique index
   * lets through once. A retry of a placed order writes nothing there (a concurrent checkout of the
   * same key still under way is waited for) and the locked way then answers the key's order; a retry
   * that the cart's checks refuse now (a product gone since, say) gets it too. Null: this checkout takes the
   * locked way (also for a group card, whose signing link is written with the order, and for card files
   * not yet known kept, which are recorded with it).
   */
  private async createPendingAtOnce(ctx: RequestContext, args: PendingArgs): Promise<Order | WrittenOrder | null> {
    let draft: OrderDraft;
    try {
      draft = await draftOrder(ctx, args, this.recipientChecks);
    } catch (error) {
      // A retry of an order placed before its cart's checks would refuse it now: that order is the answer.
      if (!(error instanceof AppError)) throw error;
      const existing = await this.byKey(ctx.em, args.key, args.requestHash);
      if (existing) return existing;
      throw error;
    }
    if (draft.groupCards.size || !this.options.media.soldKnown(draft.items)) return null;
    // Without a code only an automatic discount applies: nothing is counted, so nothing needs the transaction.
    draft.quote = withDiscount(draft.quote, await this.options.discounts.price(ctx, null, basketOf(draft.quote)));
    const written = await insertOrder(ctx.em, newOrder(args, draft, crypto.randomUUID()), draft.items);
    return written && writtenOrder(args, draft, written);
  }

  /** Checkout in a transaction that holds the key's lock (see createPending). */
  private async createPendingLocked(ctx: RequestContext, args: PendingArgs): Promise<Order | WrittenOrder> {
    return ctx.em.fork().transactional(async (em) => {
      // A short lock per key (no payment inside): the second checkout of a key finds the first one's order.
      await runPrepared(em, LOCK_KEY, [args.key]);
      const existing = await this.byKey(em, args.key, args.requestHash);
      if (existing) return existing;
      const tx = withEm(ctx, em);
      const draft = await draftOrder(tx, args, this.recipientChecks);
      // The discount: the best automatic one or the code's, whose use is counted in this transaction
      // (given back only if the payment fails).
      const orderId = crypto.randomUUID();
      const customer = { userId: args.viewerId, email: args.purchaserEmail };
      draft.quote = withDiscount(draft.quote, await this.options.discounts.claim(tx, args.discountCode, basketOf(draft.quote), customer, orderId));
      // The media of the cards are kept from now on, also while the payment is under way.
      await this.options.media.recordSold(tx, draft.items);
      // The order and its lines in one INSERT (see insertOrder); then a group card's signing link, by its item.
      const written = await insertOrder(em, newOrder(args, draft, orderId), draft.items);
      // The key was taken after the look-up by a checkout that takes no lock: everything here is rolled back.
      if (!written) throw new KeyTaken('The idempotency key was taken by a checkout without the lock');
      if (draft.groupCards.size) {
        for (const [at, request] of draft.groupCards) this.options.groupCards.attach(em, em.getReference(OrderItem, written.itemIds[at]!), request);
        await em.flush();
      }
      // A gift card pays what it can of the total; its balance is spent now (given back if the payment
      // fails). An order a discount made free needs nothing of it.
      let due = draft.quote.total;
      if (args.giftCardCode && toCents(due) > 0) {
        const paid = await this.options.giftCards.claim(tx, args.giftCardCode, draft.quote.total, orderId);
        await recordGiftCardPayment(em, orderId, paid);
        due = fromCents(toCents(draft.quote.total) - toCents(paid.amount));
      }
      return writtenOrder(args, draft, written, due);
    });
  }

  /**
   * The order placed with the key, if any; CONFLICT when the key was used for a different order. In
   * the locked way it is read by its own statement after the lock's: a read in the lock's statement
   * would see the database as it was before the lock was granted, without the order that the checkout
   * holding the lock has just committed.
   */
  private async byKey(em: EntityManager, key: string, requestHash: string): Promise<Order | null> {
    const order = await orderByKey(em, key);
    if (order && order.requestHash !== requestHash) throw conflict(refusals.reused, 'idempotencyKey');
    return order;
  }
}

/** The order's row as checkout writes it (pending until its payment is settled). */
function newOrder(args: PendingArgs, draft: OrderDraft, id: string): NewOrder {
  return {
    id,
    purchaserEmail: args.purchaserEmail,
    total: draft.quote.total,
    userId: args.viewerId,
    paymentProvider: args.provider.name,
    idempotencyKey: args.key,
    requestHash: args.requestHash,
    itemNames: draft.itemNames,
    discountCode: draft.quote.discountCode,
    discountAmount: draft.quote.discount,
    discountName: draft.quote.discountName,
    discountKind: draft.quote.discountKind,
    membershipId: args.benefits?.membershipId ?? null,
    notifyOpened: args.notifyOpened,
    locale: args.locale,
    createdAt: args.now,
  };
}

/** What paying the order just written needs: its total, its purchaser and its cards (ids by position). */
function writtenOrder(args: PendingArgs, draft: OrderDraft, written: { id: string; itemIds: number[] }, due = draft.quote.total): WrittenOrder {
  const cards = draft.items.flatMap((item) => (item.itemUrlUuid ? [{ id: written.itemIds[item.position]!, recipientEmail: item.recipientEmail!, deliverAt: item.deliverAt ?? null }] : []));
  return { id: written.id, total: draft.quote.total, due, purchaserEmail: args.purchaserEmail, items: draft.items.length, gifts: draft.items.filter((item) => item.giftCard || item.giftMembershipPlanId).length, cards };
}
